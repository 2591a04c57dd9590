package io.gdastreams.app;

import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.TrainingTopology;
import org.apache.kafka.streams.Topology;

/** The production topologies, built from the configuration. */
enum LiveTopologies implements TopologyFactory {
    INSTANCE;

    @Override
    public Topology training(AppConfig config) {
        return TrainingTopology.build(config.trainingSettings());
    }

    @Override
    public Topology scoring(AppConfig config) {
        return ScoringTopology.build(config.scoringSettings());
    }
}
