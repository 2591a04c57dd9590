package io.gdastreams.lifecycle;

/**
 * Process exit codes of the CLI. After Ctrl-C the JVM itself ends the process (status 130 = 128 + SIGINT) once
 * the shutdown hooks have stopped the topologies and the embedded broker.
 */
public final class ExitCodes {

    public static final int OK = 0;
    /** The run failed (broker did not start, timeout, a topology died). */
    public static final int FAILURE = 1;
    /** Bad arguments, unreadable input file, invalid configuration. */
    public static final int USAGE = 2;

    private ExitCodes() {
    }
}
