package io.gdastreams.security;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.settings.AppConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The ACL table of docs/SECURITY.md ("ACLs per role"), between the {@code acl-table:begin} and {@code acl-table:end}
 * comments: the single source of the ACLs that the documentation lists and that {@link AuthorizerIT} grants. Names
 * hold configuration keys in braces ({@code {gda.topic.model}}), resolved against a run's configuration.
 */
record AclTable(List<Row> rows) {

    static final Path SECURITY_MD = Path.of("docs/SECURITY.md");
    private static final String BEGIN = "<!-- acl-table:begin -->";
    private static final String END = "<!-- acl-table:end -->";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z0-9.-]+)}");

    /** One row: an ACL that {@code role} needs, its resource name still with placeholders. */
    record Row(String role, ResourceType type, String name, PatternType pattern, AclOperation operation) {

        /** The resource name with every {@code {key}} replaced by that key's value in {@code config}. */
        String resolvedName(AppConfig config) {
            Matcher m = PLACEHOLDER.matcher(name);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                ConfigKey key = Arrays.stream(ConfigKey.values()).filter(k -> k.key().equals(m.group(1)))
                        .findFirst().orElseThrow(() -> new AssertionError("no config key " + m.group(1) + " in "
                                + name));
                m.appendReplacement(out, Matcher.quoteReplacement(config.raw(key)));
            }
            return m.appendTail(out).toString();
        }

        AclBinding binding(String principal, AppConfig config) {
            return new AclBinding(new ResourcePattern(type, resolvedName(config), pattern),
                    new AccessControlEntry("User:" + principal, "*", operation, AclPermissionType.ALLOW));
        }
    }

    static AclTable fromDocs() {
        try {
            return parse(Files.readString(SECURITY_MD));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static AclTable parse(String markdown) {
        int begin = markdown.indexOf(BEGIN);
        int end = markdown.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new AssertionError("no " + BEGIN + " ... " + END + " in the markdown");
        }
        List<Row> rows = new ArrayList<>();
        List<String> lines = markdown.substring(begin + BEGIN.length(), end).strip().lines().toList();
        if (lines.size() < 3 || !lines.get(0).startsWith("| Role | Resource type | Resource name | Pattern type "
                + "| Operation |")) {
            throw new AssertionError("unexpected table header: " + lines);
        }
        for (String line : lines.subList(2, lines.size())) {
            String[] cells = line.split("\\|", -1);
            if (cells.length < 7) {
                throw new AssertionError("short row: " + line);
            }
            rows.add(new Row(cells[1].strip(), ResourceType.valueOf(cells[2].strip()), cells[3].strip(),
                    PatternType.valueOf(cells[4].strip()), AclOperation.valueOf(cells[5].strip())));
        }
        return new AclTable(List.copyOf(rows));
    }

    /** The rows of these roles, in table order. */
    List<Row> of(String... roles) {
        List<String> wanted = List.of(roles);
        List<Row> selected = rows.stream().filter(r -> wanted.contains(r.role())).toList();
        if (selected.isEmpty()) {
            throw new AssertionError("no rows for " + wanted);
        }
        return selected;
    }

    /** The ACL bindings of {@code rows} for {@code principal}, names resolved against {@code config}. */
    static List<AclBinding> bindings(List<Row> rows, String principal, AppConfig config) {
        return rows.stream().map(r -> r.binding(principal, config)).toList();
    }
}
