package io.gdastreams.service;

import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.TrainingTopology;
import org.apache.kafka.streams.Topology;

/** The production topologies, built from the configuration. */
public enum LiveTopologies implements TopologyFactory {
    INSTANCE;

    @Override
    public Topology training(AppConfig config) {
        return TrainingTopology.build(config.trainingSettings(), GroupCommittedInput::open);
    }

    @Override
    public Topology scoring(AppConfig config) {
        return ScoringTopology.build(config.scoringSettings());
    }
}
