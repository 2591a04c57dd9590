package io.gdastreams.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.service.RoleAccess;
import io.gdastreams.settings.AppConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/**
 * docs/SECURITY.md, "ACLs per role", agrees with itself and with the product: the {@code kafka-acls.sh} lines are
 * the table's rows (with the default names), and every access the start-up check asks of a role
 * ({@link RoleAccess}) is granted by one of that role's rows. {@link AuthorizerIT} shows on a broker that the rows
 * suffice.
 */
class AclDocumentationTest {

    private static final String BEGIN = "<!-- acl-commands:begin -->";
    private static final String END = "<!-- acl-commands:end -->";
    /** The principal each role's commands grant to; the provisioner is the trainer (it creates the topics). */
    private static final Map<String, String> PRINCIPALS = Map.of("trainer", "trainer", "provisioner", "trainer",
            "scorer", "scorer", "producer", "producer");

    @Test
    void theCommandsGrantExactlyTheTableRows() throws IOException {
        String markdown = Files.readString(AclTable.SECURITY_MD);
        List<String> documented = markdown.substring(markdown.indexOf(BEGIN), markdown.indexOf(END)).lines()
                .filter(l -> l.startsWith("$acl ")).toList();
        assertEquals(commands(AclTable.parse(markdown), AppConfig.defaults()), documented);
    }

    @Test
    void everyAccessTheStartUpCheckAsksIsInTheRolesRows() {
        AclTable table = AclTable.fromDocs();
        AppConfig defaults = AppConfig.defaults();
        AppConfig renamed = defaults.with(ConfigKey.PREQUENTIAL, "true", "test")
                .with(ConfigKey.APPLICATION_ID, "app", "test").with(ConfigKey.TOPIC_MODEL, "models", "test")
                .with(ConfigKey.TOPIC_METRICS, "metrics", "test");
        for (AppConfig config : List.of(defaults, renamed)) {
            assertGranted(table.of("trainer"), RoleAccess.training(config), config);
            assertGranted(table.of("scorer"), RoleAccess.scoring(config), config);
        }
    }

    @Test
    void theTableIsReadAsWritten() {
        AclTable table = AclTable.parse("x\n<!-- acl-table:begin -->\n"
                + "| Role | Resource type | Resource name | Pattern type | Operation | Why |\n"
                + "|---|---|---|---|---|---|\n"
                + "| scorer | TRANSACTIONAL_ID | {gda.application.id}-scoring- | PREFIXED | WRITE | eos |\n"
                + "<!-- acl-table:end -->\n");
        assertEquals(List.of(new AclTable.Row("scorer", ResourceType.TRANSACTIONAL_ID,
                "{gda.application.id}-scoring-", PatternType.PREFIXED, AclOperation.WRITE)), table.rows());
        assertEquals("gda-streams-scoring-", table.rows().get(0).resolvedName(AppConfig.defaults()));
    }

    private static void assertGranted(List<AclTable.Row> rows, List<RoleAccess> accesses, AppConfig config) {
        for (RoleAccess access : accesses) {
            boolean granted = rows.stream().anyMatch(r -> r.type() == access.type()
                    && r.operation() == access.operation()
                    && (r.pattern() == PatternType.LITERAL ? access.name().equals(r.resolvedName(config))
                    : access.name().startsWith(r.resolvedName(config))));
            assertTrue(granted, access.describe() + " is asked at start-up but no row of the table grants it");
        }
    }

    /** One command per role and resource, its operations in table order. */
    private static List<String> commands(AclTable table, AppConfig config) {
        Map<List<Object>, List<AclOperation>> grouped = new LinkedHashMap<>();
        for (AclTable.Row r : table.rows()) {
            grouped.computeIfAbsent(List.of(r.role(), r.type(), r.resolvedName(config), r.pattern()),
                    k -> new ArrayList<>()).add(r.operation());
        }
        Function<String, String> camel = name -> {
            StringBuilder out = new StringBuilder();
            for (String word : name.split("_")) {
                out.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
            }
            return out.toString();
        };
        List<String> commands = new ArrayList<>();
        grouped.forEach((key, operations) -> {
            StringBuilder command = new StringBuilder("$acl --allow-principal User:")
                    .append(PRINCIPALS.get((String) key.get(0))).append(' ')
                    .append(switch ((ResourceType) key.get(1)) {
                        case TOPIC -> "--topic";
                        case GROUP -> "--group";
                        case TRANSACTIONAL_ID -> "--transactional-id";
                        default -> throw new AssertionError("no kafka-acls option for " + key.get(1));
                    }).append(' ').append(key.get(2));
            if (key.get(3) == PatternType.PREFIXED) {
                command.append(" --resource-pattern-type prefixed");
            }
            operations.forEach(op -> command.append(" --operation ").append(camel.apply(op.name())));
            commands.add(command.toString());
        });
        return commands;
    }
}
