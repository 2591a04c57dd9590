package io.gdastreams.sample;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.math.GaussianSampler;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The numeric features: x = μ_k + L_k z with z ~ N(0, I) and L_k the Cholesky factor of class k's effective
 * covariance under the fit options ({@link GaussianSampler}), named by the model's feature list.
 *
 * @param names the model's features, in the order of μ and Σ
 */
record GaussianDraw(GaussianSampler sampler, List<String> names) implements FeatureDraw {

    GaussianDraw {
        names = List.copyOf(names);
    }

    @Override
    public void draw(int k, RandomGenerator random, Map<String, Double> features, Map<String, String> categories) {
        double[] x = sampler.sample(k, random);
        for (int j = 0; j < x.length; j++) {
            // Only a model with values near the double range gets here (μ + Lz overflows); a written ±Infinity
            // would be an event no trainer accepts.
            if (!Double.isFinite(x[j])) {
                throw new UserError("a draw of feature '" + names.get(j) + "' overflowed the double range "
                        + "(the model's means or covariances are too large to sample from)");
            }
            features.put(names.get(j), x[j]);
        }
    }
}
