package io.gdastreams.sample;

import io.gdastreams.math.CategoricalLikelihood;
import io.gdastreams.math.CategoricalSampler;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The categorical features: each drawn on its own from θ_kj = (n_kjv + α) / (n_kj + α·V_j), the table the scorer
 * with the same α ({@code gda.categorical.alpha}) would use, as the text value the trainer counts. One uniform per
 * feature, in the model's categorical feature order.
 */
record CategoricalDraw(CategoricalLikelihood tables, CategoricalSampler sampler) implements FeatureDraw {

    static CategoricalDraw of(CategoricalLikelihood tables) {
        return new CategoricalDraw(tables, new CategoricalSampler(tables));
    }

    @Override
    public void draw(int k, RandomGenerator random, Map<String, Double> numbers, Map<String, String> categories) {
        for (int j = 0; j < tables.features().size(); j++) {
            categories.put(tables.features().get(j), tables.value(j, sampler.sample(k, j, random)));
        }
    }
}
