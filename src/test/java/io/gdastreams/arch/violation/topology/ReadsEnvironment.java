package io.gdastreams.arch.violation.topology;

/** A topology that reads its configuration from the environment itself. */
public final class ReadsEnvironment {

    public String modelId() {
        return System.getenv("GDA_MODEL_ID");
    }
}
