package io.gdastreams.sample;

import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The features of one event, drawn given its class: the generative model below y ~ π. {@link GaussianDraw} draws the
 * numeric features, x ~ N(μ_k, Σ_k). Categorical features (a category per feature from class k's table) are meant
 * to be a second implementation that {@link EventSampler} calls after this one for the same class and the same
 * random stream: the class draw, the seed and the writers stay as they are.
 */
interface FeatureDraw {

    /**
     * Puts this draw's features of one event of class {@code k} (an index into {@link EventSampler#labels()}) into
     * {@code features}, drawing only from {@code random}: the same stream gives the same values.
     */
    void draw(int k, RandomGenerator random, Map<String, Double> features);
}
