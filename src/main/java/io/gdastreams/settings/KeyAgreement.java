package io.gdastreams.settings;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.math.Statistics;
import java.util.Map;

/**
 * The rules between keys of a configuration, each valid on its own: checked once every source is applied
 * ({@link AppConfig}'s constructor), each refusal naming both keys and where they were set.
 */
final class KeyAgreement {

    private KeyAgreement() {
    }

    /** Refuses keys that disagree; {@code kafka}: the Kafka keys of the same configuration. */
    static void check(AppConfig config, Map<String, String> kafka) {
        if (config.features().size() > config.maxFeatures()) {
            throw new ConfigException(ConfigKey.FEATURES.key() + " (" + config.origin(ConfigKey.FEATURES) + ") names "
                    + config.features().size() + " features, more than " + ConfigKey.MAX_FEATURES.key() + " = "
                    + config.maxFeatures() + " (" + config.origin(ConfigKey.MAX_FEATURES) + "): every event would be "
                    + "dead-lettered; raise " + ConfigKey.MAX_FEATURES.key());
        }
        if (!config.raw(ConfigKey.DECISION_THRESHOLD).isEmpty() && !config.raw(ConfigKey.DECISION_COSTS).isEmpty()) {
            throw new ConfigException(ConfigKey.DECISION_THRESHOLD.key() + " (" + config.origin(
                    ConfigKey.DECISION_THRESHOLD) + ") and " + ConfigKey.DECISION_COSTS.key() + " ("
                    + config.origin(ConfigKey.DECISION_COSTS) + ") are both set: a scorer uses one decision rule,"
                    + " keep one of them");
        }
        if (config.raw(ConfigKey.DRIFT_ACTION).equals("reset") && config.raw(ConfigKey.DRIFT_LAMBDA).isEmpty()) {
            throw driftResetWithoutTest(config);
        }
        if (!config.value(ConfigKey.STATISTICS, Statistics.class).supports(config.covariance())) {
            throw new ConfigException(ConfigKey.STATISTICS.key() + " = diagonal (" + config.origin(
                    ConfigKey.STATISTICS) + ") keeps only the variances, so it needs " + ConfigKey.COVARIANCE.key()
                    + " = diag, not " + config.raw(ConfigKey.COVARIANCE).trim() + " (" + config.origin(
                    ConfigKey.COVARIANCE) + "): set " + ConfigKey.COVARIANCE.key() + "=diag or "
                    + ConfigKey.STATISTICS.key() + "=full");
        }
        if (config.httpPort().isPresent() && config.httpPort().equals(config.httpManagementPort())
                && config.httpPort().getAsInt() != 0) {
            throw new ConfigException(ConfigKey.HTTP_MANAGEMENT_PORT.key() + " (" + config.origin(
                    ConfigKey.HTTP_MANAGEMENT_PORT) + ") and " + ConfigKey.HTTP_PORT.key() + " (" + config.origin(
                    ConfigKey.HTTP_PORT) + ") are both " + config.httpPort().getAsInt() + ": the management listener"
                    + " needs a port of its own (or leave " + ConfigKey.HTTP_MANAGEMENT_PORT.key() + " unset to serve"
                    + " health and metrics on " + ConfigKey.HTTP_PORT.key() + ")");
        }
        if (kafka.containsKey("application.id")) {
            throw new ConfigException("application.id is derived from " + ConfigKey.APPLICATION_ID.key()
                    + " (training and scoring need different ids); set " + ConfigKey.APPLICATION_ID.key()
                    + " instead");
        }
    }

    /** gda.drift.action=reset without the drift test it acts on. */
    static ConfigException driftResetWithoutTest(AppConfig config) {
        return new ConfigException(ConfigKey.DRIFT_ACTION.key() + "=reset (" + config.origin(ConfigKey.DRIFT_ACTION)
                + ") needs the drift test: " + ConfigKey.PREQUENTIAL.key() + "=true and a "
                + ConfigKey.DRIFT_LAMBDA.key() + " (docs/TRAINING.md, \"Drift detection\")");
    }
}
