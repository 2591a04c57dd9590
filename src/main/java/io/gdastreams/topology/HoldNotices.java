package io.gdastreams.topology;

import java.util.Objects;
import org.slf4j.Logger;

/**
 * What the model combiner says while it holds the next version back: each reason is logged once as a warning, until
 * it changes, and the one in force is told to the {@link StreamObserver} (the trainer's {@code gda_model_held} and
 * {@code /health/ready}). Two kinds are kept apart: a disagreement of the instances' settings, judged at each change
 * of who sends a partition's snapshots and cleared only by their agreement, and the reasons a publish attempt finds
 * (waiting for a partition, too large, a reset generation not ready, no version left), cleared by the next attempt
 * that publishes or finds nothing to publish. The settings' reason is told while there is one, else the other.
 * Closing the combiner's task clears both.
 */
final class HoldNotices {

    private final Logger log;
    private final StreamObserver observer;
    /** Why the instances' settings hold the model; null: they agree. */
    private String settings;
    /** Why the last publish attempt held the model; null: it did not. */
    private String attempt;
    /** What the observer was told last; null: nothing held. */
    private String told;

    HoldNotices(Logger log, StreamObserver observer) {
        this.log = log;
        this.observer = observer;
    }

    /** A publish attempt held the next version back for {@code reason}. */
    void hold(String reason) {
        if (!reason.equals(attempt)) {
            attempt = reason;
            log.warn(reason);
        }
        tell();
    }

    /** The instances' settings: {@code reason} why they hold the model back, or null when they agree. */
    void settings(String reason) {
        if (reason != null && !reason.equals(settings)) {
            log.warn(reason);
        }
        settings = reason;
        tell();
    }

    /** A publish attempt published, or found nothing to publish: no attempt holds anything back. */
    void published() {
        attempt = null;
        tell();
    }

    /** The combiner's task closes (it may go to another instance): this process holds nothing back. */
    void clear() {
        settings = null;
        attempt = null;
        tell();
    }

    private void tell() {
        String now = settings != null ? settings : attempt;
        if (!Objects.equals(now, told)) {
            told = now;
            observer.modelHeld(now);
        }
    }
}
