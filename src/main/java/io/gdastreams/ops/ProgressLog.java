package io.gdastreams.ops;

import io.gdastreams.config.Role;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per interval ({@code gda.progress.interval.ms}, 30 s by default) that says a train or score process is
 * working: events applied (trainer) or answered (scorer) in all and per second over the interval, dead letters,
 * held events, and the model's version and age. Read from the same counters as {@code /metrics}. One more line as
 * soon as a (re)started client first runs, so that the log says when it began to work, and with which model.
 */
final class ProgressLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProgressLog.class);
    private static final Duration RUNNING_CHECK = Duration.ofSeconds(1);

    private final Role role;
    private final boolean scorer;
    private final OpsMetrics metrics;
    private final ScheduledExecutorService timer = DaemonTimer.named("gda-progress");
    private long lastCount;
    private long lastNanos = System.nanoTime();
    /** When the client followed first ran (wall-clock ms, 0 before), and whether that was said. */
    private volatile LongSupplier runningAt = () -> 0;
    private volatile boolean runningSaid = true;

    ProgressLog(Role role, OpsMetrics metrics) {
        this.role = role;
        this.scorer = role == Role.SCORING;
        this.metrics = metrics;
    }

    void start(Duration interval) {
        timer.scheduleAtFixedRate(() -> {
            try {
                LOG.info(line());
            } catch (RuntimeException e) {
                LOG.warn("{}: no progress line: {}", role, e.toString());
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(() -> runningLine().ifPresent(LOG::info), RUNNING_CHECK.toMillis(),
                RUNNING_CHECK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Follows a newly started client: a line once it runs ({@code runningAt}: wall-clock ms, 0 before). */
    void follow(LongSupplier runningAt) {
        this.runningAt = runningAt;
        this.runningSaid = false;
    }

    /** The line to log now that the client followed runs, once per client. */
    Optional<String> runningLine() {
        if (runningSaid || runningAt.getAsLong() == 0) {
            return Optional.empty();
        }
        runningSaid = true;
        return Optional.of(line());
    }

    /** The next line; the rate is over the time since the previous one. */
    synchronized String line() {
        long now = System.nanoTime();
        long count = scorer ? metrics.predictions(Prediction.Status.SCORED)
                + metrics.predictions(Prediction.Status.UNSCORED) : metrics.eventsApplied();
        double seconds = Math.max((now - lastNanos) / 1e9, 1e-9);
        double rate = (count - lastCount) / seconds;
        lastCount = count;
        lastNanos = now;
        StringBuilder line = new StringBuilder(role.toString()).append(": ");
        if (scorer) {
            line.append(String.format(Locale.ROOT, "%d events answered (%d scored, %d unscored), %.1f/s; ", count,
                    metrics.predictions(Prediction.Status.SCORED), metrics.predictions(Prediction.Status.UNSCORED),
                    rate));
            line.append(metrics.pendingEvents()).append(" held; ");
        } else {
            line.append(String.format(Locale.ROOT, "%d events applied, %.1f/s; ", count, rate));
        }
        line.append(metrics.deadLetters()).append(" dead letters; ");
        Optional<ModelParameters> model = metrics.currentModel();
        if (model.isEmpty()) {
            line.append(scorer ? "no model in force" : "no model on the topic yet");
        } else {
            line.append(String.format(Locale.ROOT, "model '%s' version %d, %s %.1f s ago", model.get().modelId(),
                    model.get().version(), "published", metrics.modelAgeSeconds()));
        }
        if (!scorer && metrics.modelHeld().isPresent()) {
            // The reason was logged once when the hold began; this line keeps saying it lasts.
            line.append("; the next version is held back (the reason: the log's warning, /health/ready)");
        }
        return line.toString();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
