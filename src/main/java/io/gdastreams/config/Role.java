package io.gdastreams.config;

/**
 * The two applications a configuration runs: the trainer and the scorer. Each is its own Kafka Streams application,
 * {@code <gda.application.id>-<role>}; its name also starts its messages ("training: …").
 */
public enum Role {
    TRAINING("training", "trainer"),
    SCORING("scoring", "scorer");

    private final String label;
    private final String actor;

    Role(String label, String actor) {
        this.label = label;
        this.actor = actor;
    }

    /** The application id of this role under the configured base {@code gda.application.id}. */
    public String applicationId(String base) {
        return base + "-" + label;
    }

    /** What runs this role, in a sentence ("the trainer"). */
    public String actor() {
        return actor;
    }

    /** "training" or "scoring": the application id's suffix and the prefix of the role's messages. */
    @Override
    public String toString() {
        return label;
    }
}
