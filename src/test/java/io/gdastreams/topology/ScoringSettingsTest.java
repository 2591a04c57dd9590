package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import io.gdastreams.math.FitOptions;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ScoringSettingsTest {

    @Test
    void shouldRejectSettingsTheScorerCannotHonour() {
        ScoringSettings ok = ScoringSettings.defaults("iris");
        assertThrows(IllegalArgumentException.class, () -> ScoringSettings.defaults(" "));
        assertThrows(IllegalArgumentException.class, () -> ok.withMaxPending(-1));
        assertThrows(IllegalArgumentException.class, () -> ok.withOutlierThreshold(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> ok.withPendingCheckInterval(Duration.ZERO));
        assertThrows(NullPointerException.class, () -> ok.withFitOptions(null));
    }

    @Test
    void shouldDefaultToQdaWithoutOutlierFlagAndABoundedPendingBuffer() {
        ScoringSettings settings = ScoringSettings.defaults("iris");
        assertEquals(Topics.defaults(), settings.topics());
        assertEquals(FitOptions.defaults(), settings.fitOptions());
        assertEquals(OptionalDouble.empty(), settings.outlierThreshold());
        assertEquals(ScoringSettings.DEFAULT_MAX_PENDING, settings.maxPending());
        assertEquals(OptionalDouble.of(-20.0), settings.withOutlierThreshold(-20).outlierThreshold());
        assertEquals(new PredictionExtras(true, false, OptionalDouble.empty()), settings.extras());
    }

    @Test
    void shouldReadImputationExplanationAndTheProbabilityThresholdFromTheirKeys() {
        Map<ConfigKey, String> set = Map.of(ConfigKey.OUTPUT_IMPUTED, "false", ConfigKey.OUTPUT_EXPLAIN, "true",
                ConfigKey.OUTLIER_P, "0.001");
        ConfigValues config = key -> set.getOrDefault(key, key.defaultValue());
        assertEquals(new PredictionExtras(false, true, OptionalDouble.of(0.001)),
                ScoringSettings.from(config, Topics.defaults()).extras());
        assertThrows(IllegalArgumentException.class,
                () -> new PredictionExtras(true, false, OptionalDouble.of(1.0)));
    }
}
