package io.gdastreams.ops;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;

/**
 * The Prometheus registry of a train or score process, made to hold Kafka Streams' state-store metrics of every
 * store type.
 *
 * <p>Kafka Streams names a store's metric tag after the store's type ({@code rocksdb-state-id},
 * {@code in-memory-state-id}, {@code rocksdb-window-state-id}, …), and Prometheus wants one set of label names per
 * metric: a plain registry refused the {@code kafka_stream_state_*} metrics of every store whose type differed from
 * the first one bound (the in-memory global model store next to the RocksDB stores lost all of its).
 * {@link #ONE_STATE_ID_TAG} gives them all one {@code state_id} label (the store's name says which it is). Micrometer's
 * Kafka binder removes the meters of a store that went away (a task moved to another instance) by the id it
 * registered them with, before that filter; {@link #remove(Meter.Id)} therefore also tries the filtered id, or those
 * meters would stay, reading NaN, until the next client. Looking for them by those tags, it also registers them again
 * whenever Kafka's set of metrics changes; Micrometer returns the existing meter and notes it on its
 * {@code MeterRegistry} logger, which simplelogger.properties sets to ERROR (checked in OpsEndpointIT).
 */
final class StreamsPrometheusRegistry extends PrometheusMeterRegistry {

    static final MeterFilter ONE_STATE_ID_TAG = new MeterFilter() {
        @Override
        public Meter.Id map(Meter.Id id) {
            List<Tag> tags = id.getTags();
            if (!id.getName().startsWith("kafka.stream.state.")
                    || tags.stream().noneMatch(StreamsPrometheusRegistry::isStoreId)) {
                return id;
            }
            return id.replaceTags(tags.stream().map(t -> isStoreId(t) ? Tag.of("state.id", t.getValue()) : t)
                    .toList());
        }
    };

    StreamsPrometheusRegistry() {
        super(PrometheusConfig.DEFAULT);
        config().meterFilter(ONE_STATE_ID_TAG);
    }

    @Override
    public Meter remove(Meter.Id id) {
        Meter removed = super.remove(id);
        Meter.Id filtered = ONE_STATE_ID_TAG.map(id);
        return removed != null || filtered.equals(id) ? removed : super.remove(filtered);
    }

    /**
     * {@code rocksdb.state.id}, {@code in.memory.state.id}, …: the store-type-named tag, not our own {@code state.id}.
     */
    private static boolean isStoreId(Tag tag) {
        return tag.getKey().endsWith(".state.id");
    }
}
