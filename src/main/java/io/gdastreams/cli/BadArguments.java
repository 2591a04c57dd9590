package io.gdastreams.cli;

import io.gdastreams.settings.NearestName;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * What a command line that picocli refused got wrong, in the user's words: a misspelt command or option is named
 * with the one it most likely meant, and before what its absence caused (picocli reports {@code replay --trian
 * a.csv} as "Missing required option: '--train=T.csv'" and {@code trian} as "Unmatched arguments from index 0").
 */
final class BadArguments {

    private BadArguments() {
    }

    /** The message for {@code e}, raised while parsing {@code args}. */
    static String describe(ParameterException e, String[] args) {
        CommandLine failed = e.getCommandLine();
        CommandSpec spec = failed.getCommandSpec();
        if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()
                && !unmatched.getUnmatched().get(0).startsWith("-") && !spec.subcommands().isEmpty()) {
            String name = unmatched.getUnmatched().get(0);
            Set<String> commands = spec.subcommands().keySet();
            return "unknown command '" + name + "'" + NearestName.hint(name, commands) + " (commands: "
                    + String.join(", ", commands) + ")";
        }
        String unknown = firstUnknownOption(spec, args);
        if (unknown != null) {
            return "unknown option '" + unknown + "'" + NearestName.hint(unknown, optionNames(spec));
        }
        return e.getMessage();
    }

    /**
     * The first argument after the failed command's name that looks like an option ({@code -x}, {@code --name},
     * {@code --name=value}) and is none of its options, or null. An option's value that starts with '-' (a
     * negative number) is the option's, and skipped.
     */
    private static String firstUnknownOption(CommandSpec spec, String[] args) {
        int start = spec.parent() == null ? 0 : indexOf(args, spec.name()) + 1;
        for (int i = start; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                return null;
            }
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            CommandLine.Model.OptionSpec option = spec.findOption(name);
            if (option != null) {
                if (!arg.contains("=") && option.arity().max() > 0) {
                    i++; // its value
                }
            } else if (name.startsWith("-") && name.length() > 1 && !isNumber(name)) {
                return name;
            }
        }
        return null;
    }

    private static int indexOf(String[] args, String name) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(name)) {
                return i;
            }
        }
        return -1;
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
