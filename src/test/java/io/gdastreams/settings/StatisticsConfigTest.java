package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.math.Statistics;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@code gda.statistics}: full by default; diagonal only with {@code gda.covariance=diag}, refused otherwise. */
class StatisticsConfigTest {

    private static Properties file(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void fullByDefault() {
        assertEquals(Statistics.FULL, AppConfig.defaults().trainingSettings().statistics());
    }

    @Test
    void diagonalWithDiagCovarianceReachesTheTrainingSettings() {
        AppConfig config = ConfigSources.resolve(file(ConfigKey.STATISTICS.key(), "diagonal",
                ConfigKey.COVARIANCE.key(), "diag"), "file app.properties", Map.of());
        assertEquals(Statistics.DIAGONAL, config.trainingSettings().statistics());
    }

    @Test
    void diagonalWithAnyOtherCovarianceIsRefusedAtStartUp() {
        for (String covariance : new String[] {"full", "tied"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> ConfigSources.resolve(
                    file(ConfigKey.STATISTICS.key(), "diagonal", ConfigKey.COVARIANCE.key(), covariance),
                    "file app.properties", Map.of()));
            assertEquals("gda.statistics = diagonal (file app.properties) keeps only the variances, so it needs"
                    + " gda.covariance = diag, not " + covariance + " (file app.properties): set gda.covariance=diag"
                    + " or gda.statistics=full", e.getMessage());
        }
        // The default covariance (full) is refused too, and the message names where it came from.
        ConfigException e = assertThrows(ConfigException.class, () -> AppConfig.defaults()
                .set(ConfigKey.STATISTICS.key(), "diagonal", "--set"));
        assertTrue(e.getMessage().contains("not full ("), e.getMessage());
    }

    @Test
    void anUnknownKindIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigSources.resolve(
                file(ConfigKey.STATISTICS.key(), "sparse"), "file app.properties", Map.of()));
        assertTrue(e.getMessage().contains("one of full, diagonal"), e.getMessage());
    }
}
