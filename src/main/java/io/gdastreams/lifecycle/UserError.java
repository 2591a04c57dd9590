package io.gdastreams.lifecycle;

/**
 * A mistake the user can fix (bad argument, unreadable file, invalid configuration). The CLI prints its message
 * as one line and exits with {@link ExitCodes#USAGE}; no stack trace.
 */
public class UserError extends RuntimeException {

    public UserError(String message) {
        super(message);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
