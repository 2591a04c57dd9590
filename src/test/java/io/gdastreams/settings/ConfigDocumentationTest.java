package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The keys are declared once ({@link ConfigKey}, and gda-streams' own Kafka defaults in
 * {@link KafkaSettings.DEFAULTS}); {@code config/app.properties} and the README's configuration table document
 * them. A key added, renamed or re-defaulted in one place only fails here.
 */
class ConfigDocumentationTest {

    private static final Path APP_PROPERTIES = Path.of("config/app.properties");
    private static final Path README = Path.of("README.md");
    /** How the README's table writes an empty default. */
    private static final String EMPTY_IN_README = "(empty)";
    private static final Pattern CODE = Pattern.compile("`([^`]*)`");

    private static Set<String> declaredKeys() {
        return Arrays.stream(ConfigKey.values()).map(ConfigKey::key).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Map<String, String> declaredDefaults() {
        Map<String, String> defaults = new TreeMap<>();
        for (ConfigKey key : ConfigKey.values()) {
            defaults.put(key.key(), key.defaultValue());
        }
        return defaults;
    }

    private static void assertSameKeys(Set<String> documented, String where) {
        Set<String> undocumented = new TreeSet<>(declaredKeys());
        undocumented.removeAll(documented);
        Set<String> unknown = new TreeSet<>(documented);
        unknown.removeAll(declaredKeys());
        assertEquals(Set.of(), undocumented, "declared in ConfigKey, missing from " + where);
        assertEquals(Set.of(), unknown, "in " + where + ", not declared in ConfigKey");
    }

    private static Properties appProperties() throws IOException {
        Properties documented = new Properties();
        try (Reader reader = Files.newBufferedReader(APP_PROPERTIES, StandardCharsets.UTF_8)) {
            documented.load(reader);
        }
        return documented;
    }

    /**
     * Key → default of every row of the README's "Configuration" table: the keys are the code spans of the first
     * cell (a row may name several keys with one default), the default the first code span of the second.
     */
    static Map<String, String> readmeTable(List<String> readme) {
        int section = readme.indexOf("## Configuration");
        assertTrue(section >= 0, "README has a ## Configuration section");
        Map<String, String> table = new LinkedHashMap<>();
        for (String line : readme.subList(section + 1, readme.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (!line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            String defaultCell = cells[2].trim();
            Matcher value = CODE.matcher(defaultCell);
            String defaultValue = defaultCell.startsWith(EMPTY_IN_README) ? "" : value.find() ? value.group(1) : null;
            Matcher keys = CODE.matcher(cells[1]);
            while (keys.find()) {
                String previous = table.put(keys.group(1), defaultValue);
                assertEquals(null, previous, keys.group(1) + " has two rows in the README's table");
            }
        }
        return table;
    }

    @Test
    void shouldDocumentEveryApplicationKeyWithItsDefaultInAppProperties() throws IOException {
        Properties documented = appProperties();
        Map<String, String> documentedDefaults = new TreeMap<>();
        for (String name : documented.stringPropertyNames()) {
            if (name.startsWith(ConfigKey.PREFIX)) {
                documentedDefaults.put(name, documented.getProperty(name));
            }
        }
        assertSameKeys(documentedDefaults.keySet(), APP_PROPERTIES.toString());
        assertEquals(declaredDefaults(), documentedDefaults, "defaults in " + APP_PROPERTIES);
        for (Map.Entry<String, String> kafka : KafkaSettings.DEFAULTS.entrySet()) {
            assertEquals(kafka.getValue(), documented.getProperty(kafka.getKey()), kafka.getKey());
        }
    }

    @Test
    void shouldDocumentEveryApplicationKeyWithItsDefaultInTheReadmeTable() throws IOException {
        Map<String, String> table = readmeTable(Files.readAllLines(README, StandardCharsets.UTF_8));
        Map<String, String> applicationRows = new TreeMap<>();
        table.forEach((key, value) -> {
            if (key.startsWith(ConfigKey.PREFIX)) {
                applicationRows.put(key, value);
            }
        });
        assertSameKeys(applicationRows.keySet(), "the README's table");
        assertEquals(declaredDefaults(), applicationRows, "defaults in the README's table");
        for (Map.Entry<String, String> kafka : KafkaSettings.DEFAULTS.entrySet()) {
            assertEquals(kafka.getValue(), table.get(kafka.getKey()), kafka.getKey() + " in the README's table");
        }
    }

    /** The reader above is what the test stands on: it must see what it is meant to see. */
    @Test
    void shouldReadKeysAndDefaultsOfTheReadmeTableRows() {
        Map<String, String> table = readmeTable(List.of("## Configuration", "", "| key | default | meaning |",
                "|---|---|---|", "| `gda.a` | `1` | one |", "| `gda.b` | (empty) | none |",
                "| `x.y`, `x.z` | `64` (64 B) | two keys |", "## Next", "| `gda.c` | `3` | other section |"));
        assertEquals(Map.of("gda.a", "1", "gda.b", "", "x.y", "64", "x.z", "64"), table);
    }
}
