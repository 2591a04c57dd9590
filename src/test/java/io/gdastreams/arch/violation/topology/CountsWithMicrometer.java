package io.gdastreams.arch.violation.topology;

import io.micrometer.core.instrument.Metrics;

/** A topology class that counts with Micrometer itself instead of telling a StreamObserver. */
public final class CountsWithMicrometer {

    public void applied() {
        Metrics.counter("gda.events.applied").increment();
    }
}
