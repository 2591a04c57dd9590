package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.math.Statistics;
import java.util.List;
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

    /**
     * Keys that must agree are checked once all sources are applied, so the order in which the command line sets
     * them does not matter: each --set used to be checked on its own, and gda.statistics=diagonal before
     * gda.covariance=diag was refused, as was a file's diagonal statistics corrected by --covariance diag.
     */
    @Test
    void keysThatMustAgreeMayBeSetTogetherInAnyOrder() {
        AppConfig.Setting diagonal = new AppConfig.Setting(ConfigKey.STATISTICS, "diagonal", "--set");
        AppConfig.Setting diag = new AppConfig.Setting(ConfigKey.COVARIANCE, "diag", "--covariance");
        for (List<AppConfig.Setting> settings : List.of(List.of(diagonal, diag), List.of(diag, diagonal))) {
            assertEquals(Statistics.DIAGONAL, AppConfig.load(null, Map.of(), settings).trainingSettings()
                    .statistics());
            assertEquals(Statistics.DIAGONAL, AppConfig.defaults().with(settings).trainingSettings().statistics());
        }
        AppConfig fromFile = ConfigSources.resolve(file(ConfigKey.STATISTICS.key(), "diagonal",
                ConfigKey.COVARIANCE.key(), "full"), "file app.properties", Map.of(), List.of(diag));
        assertEquals(Statistics.DIAGONAL, fromFile.trainingSettings().statistics());
        // A later setting wins, and the whole is checked: diag then full is refused, naming the last one's origin.
        ConfigException e = assertThrows(ConfigException.class, () -> AppConfig.load(null, Map.of(), List.of(
                diagonal, diag, new AppConfig.Setting(ConfigKey.COVARIANCE, "tied", "--set"))));
        assertTrue(e.getMessage().contains("not tied (--set)"), e.getMessage());
    }
}
