package io.gdastreams.sample;

import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The features of one event, drawn given its class: the generative model below y ~ π. {@link GaussianDraw} draws the
 * numeric features, x ~ N(μ_k, Σ_k); {@link CategoricalDraw} then draws each categorical feature from class k's
 * smoothed table θ_kj, for the same class and from the same random stream ({@link EventSampler} calls them in that
 * order, so a model without categorical features draws exactly what it drew before they existed).
 */
interface FeatureDraw {

    /**
     * Puts this draw's features of one event of class {@code k} (an index into {@link EventSampler#labels()}) into
     * {@code numbers} (numeric features) or {@code categories} (categorical ones), drawing only from
     * {@code random}: the same stream gives the same values.
     */
    void draw(int k, RandomGenerator random, Map<String, Double> numbers, Map<String, String> categories);
}
