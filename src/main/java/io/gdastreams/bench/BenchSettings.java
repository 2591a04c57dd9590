package io.gdastreams.bench;

import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * The parameters of one benchmark run.
 *
 * @param latencyEvents   events sent at {@code latencyRate} per second after the throughput phase, with the
 *                        application caught up, to measure per-event latency and model freshness
 * @param publishInterval the training topology's snapshot interval (bounds model freshness from below)
 * @param configuration   the keys of the apps: gda-streams' defaults and {@code --set}
 */
record BenchSettings(int classes, int features, long events, int partitions, int threads, String guarantee,
                     long seed, int latencyEvents, int latencyRate, Duration publishInterval,
                     BenchConfiguration configuration) {

    static final List<String> GUARANTEES = List.of("exactly_once_v2", "at_least_once");

    BenchSettings {
        if (classes < 2 || features < 1 || events < 1 || partitions < 1 || threads < 1 || latencyEvents < 0
                || latencyRate < 1) {
            throw new IllegalArgumentException("need classes >= 2, and features, events, partitions, threads, "
                    + "latency rate >= 1");
        }
        if (!GUARANTEES.contains(guarantee)) {
            throw new IllegalArgumentException("guarantee must be one of " + GUARANTEES + ", got " + guarantee);
        }
        Objects.requireNonNull(configuration, "configuration");
    }

    /** The same run with other event counts (a pass of the unmeasured warm-up, a scoring comparison's model). */
    BenchSettings withEvents(long throughputEvents, int pacedEvents) {
        return new BenchSettings(classes, features, throughputEvents, partitions, threads, guarantee, seed,
                pacedEvents, latencyRate, publishInterval, configuration);
    }

    /** The same run with another processing guarantee and configuration (a latency-profile setting). */
    BenchSettings withGuaranteeAndConfiguration(String otherGuarantee, BenchConfiguration otherConfiguration) {
        return new BenchSettings(classes, features, events, partitions, threads, otherGuarantee, seed, latencyEvents,
                latencyRate, publishInterval, otherConfiguration);
    }

    /** The training topology's settings on a stage's {@code topics}. */
    TrainingSettings training(Topics topics) {
        return configuration.training(topics);
    }

    /** The scoring topology's settings on a stage's {@code topics}. */
    ScoringSettings scoring(Topics topics) {
        return configuration.scoring(topics);
    }

    /** {@code gda.max.features} as configured (the default unless set; never below the dimension when set). */
    int configuredMaxFeatures() {
        return configuration.config().maxFeatures();
    }

    /** Kafka Streams properties of {@code stage} before the bench's own keys. */
    Properties streamsProperties(String stage) {
        return configuration.streamsProperties(stage);
    }
}
