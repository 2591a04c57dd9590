package io.gdastreams.topology;

import io.gdastreams.math.ClassSummary;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;

/**
 * Whether a published model is mature enough for its prequential log-losses to feed the drift test
 * (docs/DRIFT.md, "Warm-up"). The first models of a stream, or of a reset generation, are built from a few dozen
 * events: a class of two or three events has a variance that is far too small, and its confident mistakes cost up
 * to 34.5 nats each, so the losses rise and fall from one version to the next as the estimates settle. The
 * Page–Hinkley test reads such a rise as drift. A model feeds the test once it holds at least {@code events} events
 * (its {@code totalCount}: the events of its reset generation, less retractions) and every class has
 * {@code gda.min.count} (the scorer's rule: the effective sample size when weighted). The events scored before that
 * still count in the prequential windows. Pure decision, no Kafka.
 *
 * @param events   {@code gda.drift.warmup.events}, at least 1
 * @param minCount the scorer's {@code gda.min.count}
 */
record DriftWarmUp(long events, long minCount) {

    DriftWarmUp {
        if (events < 1) {
            throw new IllegalArgumentException("events must be >= 1, got " + events);
        }
        if (minCount < 1) {
            throw new IllegalArgumentException("minCount must be >= 1, got " + minCount);
        }
    }

    /** Whether {@code model}'s log-losses may feed the drift test. */
    boolean mature(ModelParameters model) {
        if (model.totalCount() < events || model.classes().isEmpty()) {
            return false;
        }
        for (ClassParameters c : model.classes()) {
            if (!ClassSummary.reaches(c.sampleSize(), minCount)) {
                return false;
            }
        }
        return true;
    }
}
