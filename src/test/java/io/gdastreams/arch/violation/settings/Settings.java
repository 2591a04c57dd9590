package io.gdastreams.arch.violation.settings;

import io.gdastreams.arch.violation.topology.ReadsSettings;

/** Settings builds the topologies' settings (allowed) while a topology reads Settings: a cycle. */
public final class Settings {

    public int partitions() {
        return new ReadsSettings().hashCode();
    }
}
