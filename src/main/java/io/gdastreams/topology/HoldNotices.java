package io.gdastreams.topology;

import org.slf4j.Logger;

/**
 * What the model combiner says while it holds the next version back (waiting for a partition, too large, a reset
 * generation not ready, instances configured differently): each reason is logged once as a warning, until it
 * changes, and told to the {@link StreamObserver} (the trainer's {@code gda_model_held} and {@code /health/ready});
 * cleared when a model is published, when there is nothing to publish, and when the combiner's task closes.
 */
final class HoldNotices {

    private final Logger log;
    private final StreamObserver observer;
    /** The reason told last; null: nothing held. */
    private String current;
    /** Whether {@link #current} is a disagreement of the instances' settings, which their agreement alone clears. */
    private boolean disagreement;

    HoldNotices(Logger log, StreamObserver observer) {
        this.log = log;
        this.observer = observer;
    }

    /** The next version is held back for {@code reason}. */
    void hold(String reason) {
        hold(reason, false);
    }

    /**
     * The instances' settings, judged at a snapshot: {@code reason} why they hold the model back, or null when they
     * agree (which ends a hold of that kind only).
     */
    void settings(String reason) {
        if (reason != null) {
            hold(reason, true);
        } else if (disagreement) {
            clear();
        }
    }

    /** Nothing is held back (any more). */
    void clear() {
        if (current != null) {
            current = null;
            disagreement = false;
            observer.modelHeld(null);
        }
    }

    private void hold(String reason, boolean ofSettings) {
        disagreement = ofSettings;
        if (!reason.equals(current)) {
            log.warn(reason);
            current = reason;
            observer.modelHeld(reason);
        }
    }
}
