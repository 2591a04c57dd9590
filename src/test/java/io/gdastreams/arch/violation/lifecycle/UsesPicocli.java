package io.gdastreams.arch.violation.lifecycle;

import picocli.CommandLine;

/** Process plumbing that depends on the command-line library. */
public final class UsesPicocli {

    public int exitCode(CommandLine commandLine) {
        return commandLine.getCommandSpec().exitCodeOnSuccess();
    }
}
