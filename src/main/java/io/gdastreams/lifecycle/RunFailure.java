package io.gdastreams.lifecycle;

/**
 * The run could not finish (a topology died, the cluster did not answer in time). Reported as one message,
 * exit code {@link ExitCodes#FAILURE}.
 */
public final class RunFailure extends RuntimeException {

    public RunFailure(String message) {
        super(message);
    }

    public RunFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
