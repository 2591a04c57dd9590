package io.gdastreams.app;

/** Process exit codes of the CLI. */
public final class ExitCodes {

    public static final int OK = 0;
    /** The run failed (broker did not start, timeout, a topology died). */
    public static final int FAILURE = 1;
    /** Bad arguments, unreadable input file, invalid configuration. */
    public static final int USAGE = 2;
    /** Interrupted with Ctrl-C (128 + SIGINT), as shells report it. */
    public static final int INTERRUPTED = 130;

    private ExitCodes() {
    }
}
