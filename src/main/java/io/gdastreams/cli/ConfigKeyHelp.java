package io.gdastreams.cli;

import io.gdastreams.config.ConfigKey;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The key list at the end of {@code --help} of the commands that take {@code --set}: every application key with
 * its default and its one-line meaning, from the declaration ({@link ConfigKey}), so the help cannot fall behind.
 */
final class ConfigKeyHelp {

    /**
     * The commands that use gda. keys (all take {@code --set} through {@link ConfigOptions}; so do produce and
     * consume, which read only the client settings and have no key list).
     */
    static final List<String> COMMANDS = List.of("train", "score", "replay", "sample", "inspect", "plot",
            "reset", "bench");

    /** picocli's usage width: a longer footer line would be wrapped with no indent. */
    private static final int WIDTH = 80;
    private static final String DOC_INDENT = "      ";

    private ConfigKeyHelp() {
    }

    /** Adds the key list to the help of each of {@link #COMMANDS}. */
    static void addTo(CommandLine main) {
        for (String command : COMMANDS) {
            main.getSubcommands().get(command).getCommandSpec().usageMessage().footer(footer(command));
        }
    }

    /** Where {@code command} takes the keys from: bench from --set alone, the others from --config and GDA_* too. */
    static String[] footer(String command) {
        List<String> lines = new ArrayList<>();
        lines.add("");
        if (command.equals("bench")) {
            lines.add("Application keys, at their defaults (set them with --set KEY=VALUE; bench reads");
            lines.add("no config file and no environment):");
        } else {
            lines.add("Application keys, at their defaults (set them with --set KEY=VALUE, in the");
            lines.add("--config file or as GDA_* variables):");
        }
        for (ConfigKey key : ConfigKey.values()) {
            lines.add("  " + key.key() + "=" + key.defaultValue());
            lines.addAll(wrap(key.doc()));
        }
        lines.add("Every other key goes to Kafka Streams. config/app.properties explains each key.");
        // picocli formats help sections with String.format: a '%' in a line must not be read as a conversion.
        return lines.stream().map(line -> line.replace("%", "%%")).toArray(String[]::new);
    }

    private static List<String> wrap(String text) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(DOC_INDENT);
        for (String word : text.split(" ")) {
            if (line.length() > DOC_INDENT.length() && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line = new StringBuilder(DOC_INDENT);
            }
            line.append(line.length() > DOC_INDENT.length() ? " " : "").append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
