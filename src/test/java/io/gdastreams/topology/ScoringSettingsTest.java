package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gdastreams.math.FitOptions;
import java.time.Duration;
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
    }
}
