package io.gdastreams.arch.violation.topology;

import io.gdastreams.arch.violation.settings.Settings;

/** A topology that takes the settings object instead of values: topology may not import settings. */
public final class ReadsSettings {

    public int partitions(Settings settings) {
        return settings.partitions();
    }
}
