package io.gdastreams.app;

import org.apache.kafka.streams.Topology;

/** Builds the two topologies from a configuration (the production ones, or others in tests). */
interface TopologyFactory {

    Topology training(AppConfig config);

    Topology scoring(AppConfig config);
}
