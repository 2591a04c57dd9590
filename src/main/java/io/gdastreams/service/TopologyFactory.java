package io.gdastreams.service;

import io.gdastreams.settings.AppConfig;
import org.apache.kafka.streams.Topology;

/** Builds the two topologies from a configuration (the production ones, or others in tests). */
public interface TopologyFactory {

    Topology training(AppConfig config);

    Topology scoring(AppConfig config);
}
