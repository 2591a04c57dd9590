package io.gdastreams.cli;

import io.gdastreams.lifecycle.UserError;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --timeout}: how long a command waits for the cluster (30 s unless a command says otherwise), and the one
 * check of a timeout option, which commands with a default or a meaning of their own ({@code broker}, {@code reset},
 * {@code replay}) call on their value.
 */
final class ClusterTimeout {

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Wait this long for the cluster (default: ${DEFAULT-VALUE}).")
    private long seconds;

    /** The option as a duration; a user error below one second. */
    Duration duration() {
        return of(seconds);
    }

    /** {@code seconds} of a {@code --timeout} option as a duration; a user error below one second. */
    static Duration of(long seconds) {
        if (seconds < 1) {
            throw new UserError("--timeout must be at least 1 second");
        }
        return Duration.ofSeconds(seconds);
    }
}
