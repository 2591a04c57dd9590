package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.gdastreams.settings.AppConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scorer's fit as {@code gda_scoring_fit_info} states it: every key that changes the probabilities, from the
 * configuration as {@code score} reads it; equal fits give equal digests however written, and any one key changed
 * gives another.
 */
class ScorerFitTest {

    @TempDir
    Path dir;

    private ScorerFit configured(String... lines) throws IOException {
        Path file = dir.resolve("app.properties");
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return ScorerFit.of(AppConfig.load(file, Map.of()).scoringSettings());
    }

    @Test
    void statesEveryKeyOfTheFitAndDigestsThem() throws IOException {
        ScorerFit defaults = configured("gda.features=x,y");
        assertEquals("full", defaults.covariance());
        assertEquals("mle", defaults.estimator());
        assertEquals("gda.covariance=full\ngda.estimator=mle\ngda.reg.param=0\ngda.variance.floor=1.0E-9\n"
                + "gda.min.count=2\ngda.priors=none\ngda.categorical.alpha=1\n", defaults.text());
        assertEquals(StateSettings.digest(defaults.text()), defaults.digest());
        assertEquals(23, defaults.digest().length(), "sha256: and 16 hex digits");

        ScorerFit tied = configured("gda.features=x,y", "gda.covariance=tied", "gda.estimator=unbiased",
                "gda.priors=b:0.75,a:0.25");
        assertEquals("tied", tied.covariance());
        assertEquals("unbiased", tied.estimator());
        assertEquals(tied, configured("gda.estimator=unbiased", "gda.priors=a:0.25,b:0.75", "gda.covariance=tied",
                "gda.publish.interval.ms=500", "gda.output.top-k=1"), "the order of the priors and keys that do not"
                + " change the probabilities change nothing");
        for (String other : List.of("gda.covariance=diag", "gda.estimator=mle", "gda.reg.param=0.1",
                "gda.variance.floor=1e-6", "gda.min.count=3", "gda.priors=a:0.5,b:0.5", "gda.categorical.alpha=0.5")) {
            ScorerFit changed = configured("gda.covariance=tied", "gda.estimator=unbiased", "gda.priors=a:0.25,b:0.75",
                    other);
            assertNotEquals(tied.digest(), changed.digest(), other);
        }
    }
}
