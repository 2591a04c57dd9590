package io.gdastreams.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.IHelpSectionRenderer;

/**
 * Help text that breaks lines between words only. picocli wraps with the JDK's line BreakIterator, which also
 * breaks after a '.' or '/' inside a word ({@code gda.\n estimator}, {@code predictions.\n jsonl}). Here every
 * section is rendered unwrapped (a very wide usage width) and then wrapped at {@link #WIDTH} on spaces, each
 * continuation indented as picocli would: under the description column of an option, after the command name of
 * the synopsis, at the paragraph's own indent otherwise. A word longer than a line stays whole.
 */
final class HelpLayout {

    /** The terminal width the help is laid out for. */
    static final int WIDTH = 80;
    private static final int UNWRAPPED = 10_000;
    private static final String USAGE = "Usage: ";
    /** An option row: indent, option names, at least two spaces, description. */
    private static final Pattern OPTION_ROW = Pattern.compile("^( +-.*?\\S)( {2,})(\\S.*)$");
    /** A command row: indent, the name, spaces, description. */
    private static final Pattern COMMAND_ROW = Pattern.compile("^( +\\S+)( +)(\\S.*)$");

    private HelpLayout() {
    }

    /** Applies to {@code root} and every subcommand. */
    static void applyTo(CommandLine root) {
        apply(root);
        for (CommandLine sub : root.getSubcommands().values()) {
            applyTo(sub);
        }
    }

    private static void apply(CommandLine command) {
        command.getCommandSpec().usageMessage().width(UNWRAPPED);
        String name = command.getCommandSpec().qualifiedName();
        // A copy: picocli may share one map between commands, and each command's renderers know its name.
        Map<String, IHelpSectionRenderer> sections = new LinkedHashMap<>(
                command.getCommandSpec().usageMessage().sectionMap());
        for (Map.Entry<String, IHelpSectionRenderer> section : new LinkedHashMap<>(sections).entrySet()) {
            IHelpSectionRenderer original = section.getValue();
            Pattern row = switch (section.getKey()) {
                case CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST,
                        CommandLine.Model.UsageMessageSpec.SECTION_KEY_PARAMETER_LIST -> OPTION_ROW;
                case CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST -> COMMAND_ROW;
                default -> null;
            };
            boolean synopsis = section.getKey().equals(CommandLine.Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS);
            sections.put(section.getKey(), help -> wrap(original.render(help), row,
                    synopsis ? name + " " : null));
        }
        // On this command's spec only: CommandLine.setHelpSectionMap would also hand the root's renderers (with the
        // root's name) down to every subcommand.
        command.getCommandSpec().usageMessage().sectionMap(sections);
    }

    /**
     * {@code text} with every line longer than {@link #WIDTH} broken at spaces. {@code row}: the layout of the
     * section's table rows (the description column is where a continuation starts), or null; {@code synopsis}:
     * the command name and a space when the text is the synopsis (it follows "Usage: " on its first line).
     */
    static String wrap(String text, Pattern row, String synopsis) {
        StringBuilder out = new StringBuilder();
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            String line = end < 0 ? text.substring(start) : text.substring(start, end);
            int offset = 0;
            int indent;
            if (synopsis != null && line.startsWith(synopsis)) {
                offset = USAGE.length();
                indent = synopsis.length();
            } else {
                indent = indentOf(line, row);
            }
            out.append(String.join("\n", wrapLine(line, indent, offset)));
            if (end < 0) {
                break;
            }
            out.append('\n');
            start = end + 1;
        }
        return out.toString();
    }

    private static int indentOf(String line, Pattern row) {
        if (row != null) {
            Matcher m = row.matcher(line);
            if (m.matches()) {
                return m.start(3);
            }
        }
        int leading = 0;
        while (leading < line.length() && line.charAt(leading) == ' ') {
            leading++;
        }
        return leading;
    }

    /**
     * The line as lines of at most WIDTH (a longer word stays whole): its first {@code indent} characters (option
     * names and alignment) kept as they are, the rest broken at spaces, continuations indented by {@code indent}
     * plus {@code offset} (what precedes the first line on the screen).
     */
    private static List<String> wrapLine(String line, int indent, int offset) {
        List<String> lines = new ArrayList<>();
        if (offset + line.length() <= WIDTH) {
            lines.add(line);
            return lines;
        }
        int keep = Math.min(indent, WIDTH / 2);
        String pad = " ".repeat(keep + offset);
        StringBuilder current = new StringBuilder(line.substring(0, keep));
        int budget = WIDTH - offset;
        boolean empty = true;
        for (String word : line.substring(keep).split(" +")) {
            if (word.isEmpty()) {
                continue;
            }
            if (!empty && current.length() + 1 + word.length() > budget) {
                lines.add(current.toString());
                current = new StringBuilder(pad);
                budget = WIDTH;
                empty = true;
            }
            if (!empty) {
                current.append(' ');
            }
            current.append(word);
            empty = false;
        }
        lines.add(current.toString());
        return lines;
    }
}
