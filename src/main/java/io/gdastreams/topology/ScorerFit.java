package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import java.util.Map;

/**
 * What, besides the model, decides a scorer's probabilities: its fit options and categorical smoothing α (the keys a
 * trainer compares for its test-then-train scorer, {@link StateSettings#fitValues}). Two scorers of one application
 * configured differently give other probabilities for the same model version, and they share no state through which
 * they could notice; so each states its own, as the labels of {@code gda_scoring_fit_info}, for whoever watches
 * every instance (docs/RELIABILITY.md, "Instances of one application share one configuration").
 *
 * @param covariance {@code gda.covariance}, as configured (full, tied, diag)
 * @param estimator  {@code gda.estimator} (mle, unbiased)
 * @param digest     {@code sha256:} and 16 hex digits over every key of the fit: equal exactly when the fits are
 * @param text       the {@code key=value} lines the digest is of
 */
public record ScorerFit(String covariance, String estimator, String digest, String text) {

    /** The fit of a scorer configured with {@code settings}. */
    public static ScorerFit of(ScoringSettings settings) {
        Map<String, String> values = StateSettings.fitValues(settings.fitOptions(), settings.categorical().alpha());
        String text = StateSettings.lines(values);
        return new ScorerFit(values.get(ConfigKey.COVARIANCE.key()), values.get(ConfigKey.ESTIMATOR.key()),
                StateSettings.digest(text), text);
    }
}
