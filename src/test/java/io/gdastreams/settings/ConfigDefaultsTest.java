package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import io.gdastreams.math.FitOptions;
import io.gdastreams.serde.EventDecoder;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The defaults the topologies' settings offer are what a run without configuration gets: one declaration
 * ({@link ConfigKey}) read the same way by both. Before, {@code TrainingSettings.defaults} published under model id
 * "default" while {@code train} used "gda", and allowed a model 64 KiB larger than the application does.
 */
class ConfigDefaultsTest {

    private static final AppConfig UNCONFIGURED = AppConfig.load(null, Map.of());

    @TempDir
    Path dir;

    @Test
    void shouldGiveTheTrainerTheSameSettingsFromTheDefaultsAsFromAnEmptyConfiguration() {
        assertEquals(UNCONFIGURED.trainingSettings(), TrainingSettings.defaults(Topics.defaults()));
        assertEquals("gda", TrainingSettings.DEFAULT_MODEL_ID);
        assertEquals(RecordSizeLimits.modelRecordLimit(KafkaSettings.DEFAULTS),
                TrainingSettings.DEFAULT_MAX_MODEL_BYTES);
    }

    @Test
    void shouldGiveTheScorerTheSameSettingsFromTheDefaultsAsFromAnEmptyConfiguration() {
        assertEquals(UNCONFIGURED.scoringSettings(), ScoringSettings.defaults(UNCONFIGURED.modelId()));
        assertEquals(UNCONFIGURED.topics(), Topics.defaults());
    }

    /** The math package cannot read the declaration (it imports nothing of ours), so this pins its defaults. */
    @Test
    void shouldKeepTheMathDefaultFitOptionsEqualToTheDeclaredOnes() {
        assertEquals(FitOptions.defaults(), ConfigValues.DEFAULTS.fitOptions());
        assertEquals(FitOptions.defaults(), UNCONFIGURED.fitOptions());
    }

    @Test
    void shouldBoundDecodedEventsByTheDeclaredFeatureBoundAndNameItsKey() {
        assertEquals(UNCONFIGURED.maxFeatures(), EventDecoder.DEFAULT_MAX_FEATURES);
        assertEquals(ConfigKey.MAX_FEATURES.key(), EventDecoder.MAX_FEATURES_KEY);
    }

    /** Before: accepted at load, then TrainingSettings threw IllegalArgumentException (a stack trace, exit 1). */
    @Test
    void shouldRefuseADuplicateFeatureNameAsAConfigurationError() throws IOException {
        Path file = Files.writeString(dir.resolve("app.properties"), "gda.features=a,b,a\n");
        ConfigException e = assertThrows(ConfigException.class, () -> AppConfig.load(file, Map.of()));
        assertTrue(e.getMessage().startsWith("gda.features = 'a,b,a' (file "), e.getMessage());
        assertTrue(e.getMessage().endsWith("expected a comma-separated list of distinct names (empty = from the "
                + "first labelled event)"), e.getMessage());
    }
}
