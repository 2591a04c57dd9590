package io.gdastreams.arch.violation.config;

import io.gdastreams.arch.violation.topology.ReadsEnvironment;

/** A key declaration that reaches up into a topology. */
public final class UsesTopology {

    public String defaultModelId() {
        return new ReadsEnvironment().modelId();
    }
}
