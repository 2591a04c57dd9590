package io.gdastreams.cli;

import io.gdastreams.settings.NearestName;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * What a command line that picocli refused got wrong, in the user's words: a misspelt command or option is named
 * with the one it most likely meant, instead of what its absence caused (picocli reports {@code replay --trian
 * a.csv} as "Missing required option: '--train=T.csv'" and {@code trian} as "Unmatched arguments from index 0").
 */
final class BadArguments {

    private BadArguments() {
    }

    /** The message for {@code e}. */
    static String describe(ParameterException e) {
        CommandLine failed = e.getCommandLine();
        CommandSpec spec = failed.getCommandSpec();
        // picocli has collected what it could not match by the time it reports anything, a missing option included.
        List<String> unmatched = failed.getUnmatchedArguments();
        if (!unmatched.isEmpty() && !isOption(unmatched.get(0)) && !spec.subcommands().isEmpty()) {
            String name = unmatched.get(0);
            Set<String> commands = spec.subcommands().keySet();
            return "unknown command '" + name + "'" + NearestName.hint(name, commands) + " (commands: "
                    + String.join(", ", commands) + ")";
        }
        for (String argument : unmatched) {
            if (isOption(argument)) {
                String name = argument.contains("=") ? argument.substring(0, argument.indexOf('=')) : argument;
                return "unknown option '" + name + "'" + NearestName.hint(name, optionNames(spec));
            }
        }
        return e.getMessage();
    }

    /** A negative number left over is a misplaced value, not an option. */
    private static boolean isOption(String argument) {
        return argument.startsWith("-") && argument.length() > 1 && !isNumber(argument);
    }

    private static boolean isNumber(String text) {
        try {
            Double.parseDouble(text);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static List<String> optionNames(CommandSpec spec) {
        List<String> names = new ArrayList<>();
        spec.options().forEach(o -> names.addAll(List.of(o.names())));
        return names;
    }
}
