package io.gdastreams.topology;

import io.gdastreams.serde.SerdeFactory;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds a {@link PartialStatsStore} around a persistent, changelog-backed key-value store of the same name
 * (label → statistics bytes). The Kafka Streams record cache is never used: the store is its own cache.
 */
final class PartialStatsStoreBuilder implements StoreBuilder<PartialStatsStore> {

    private final StoreBuilder<KeyValueStore<String, byte[]>> inner;

    PartialStatsStoreBuilder(String name, boolean persistent) {
        this.inner = Stores.keyValueStoreBuilder(
                persistent ? Stores.persistentKeyValueStore(name) : Stores.inMemoryKeyValueStore(name),
                SerdeFactory.string(), SerdeFactory.rawBytes()).withCachingDisabled();
    }

    @Override
    public StoreBuilder<PartialStatsStore> withCachingEnabled() {
        return this; // the live objects already are the cache
    }

    @Override
    public StoreBuilder<PartialStatsStore> withCachingDisabled() {
        return this;
    }

    @Override
    public StoreBuilder<PartialStatsStore> withLoggingEnabled(Map<String, String> config) {
        inner.withLoggingEnabled(config);
        return this;
    }

    @Override
    public StoreBuilder<PartialStatsStore> withLoggingDisabled() {
        inner.withLoggingDisabled();
        return this;
    }

    @Override
    public PartialStatsStore build() {
        return new PartialStatsStore(inner.build());
    }

    @Override
    public Map<String, String> logConfig() {
        return inner.logConfig();
    }

    @Override
    public boolean loggingEnabled() {
        return inner.loggingEnabled();
    }

    @Override
    public String name() {
        return inner.name();
    }
}
