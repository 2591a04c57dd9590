package io.gdastreams.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A seeded synthetic stream of K Gaussian classes in d features, as JSON event bytes (the README's event formats).
 *
 * <p>Class k has a mean drawn once from N(0, {@value #MEAN_SPREAD}²) per feature and per-feature standard
 * deviations drawn once from [{@value #MIN_SCALE}, {@value #MAX_SCALE}]; event i draws its class uniformly and
 * its features from that class. Every event is a pure function of (seed, i): any index can be generated on its
 * own, in any order, from any thread, and two streams with the same parameters are byte-identical.
 */
public final class SyntheticStream {

    static final double MEAN_SPREAD = 3.0;
    static final double MIN_SCALE = 0.5;
    static final double MAX_SCALE = 2.0;
    private static final long EVENT_STREAM_SALT = 0x9E3779B97F4A7C15L;

    private final int classes;
    private final int dimension;
    private final long seed;
    private final List<String> featureNames;
    private final List<String> labels;
    private final double[][] means;
    private final double[][] scales;

    public SyntheticStream(int classes, int dimension, long seed) {
        if (classes < 1 || dimension < 1) {
            throw new IllegalArgumentException("need at least one class and one feature, got K=" + classes
                    + ", d=" + dimension);
        }
        this.classes = classes;
        this.dimension = dimension;
        this.seed = seed;
        int width = String.valueOf(dimension - 1).length();
        List<String> names = new ArrayList<>(dimension);
        for (int j = 0; j < dimension; j++) {
            names.add(String.format(Locale.ROOT, "f%0" + width + "d", j));
        }
        this.featureNames = List.copyOf(names);
        List<String> classLabels = new ArrayList<>(classes);
        for (int k = 0; k < classes; k++) {
            classLabels.add("c" + k);
        }
        this.labels = List.copyOf(classLabels);
        SplittableRandom parameters = new SplittableRandom(seed);
        means = new double[classes][dimension];
        scales = new double[classes][dimension];
        for (int k = 0; k < classes; k++) {
            for (int j = 0; j < dimension; j++) {
                means[k][j] = MEAN_SPREAD * gaussian(parameters);
                scales[k][j] = parameters.nextDouble(MIN_SCALE, MAX_SCALE);
            }
        }
    }

    /** Feature names in schema order ({@code f0..f9}, zero-padded so that sorted order = schema order). */
    public List<String> featureNames() {
        return featureNames;
    }

    public List<String> labels() {
        return labels;
    }

    /** Record key of event {@code i} (also its id): {@code prefix + i}. */
    public static byte[] key(String prefix, long i) {
        return (prefix + i).getBytes(StandardCharsets.UTF_8);
    }

    /** The class index of event {@code i}. */
    public int classOf(long i) {
        return randomFor(i).nextInt(classes);
    }

    /** The feature vector of event {@code i} (a fresh array). */
    public double[] pointOf(long i) {
        SplittableRandom random = randomFor(i);
        int k = random.nextInt(classes);
        double[] x = new double[dimension];
        for (int j = 0; j < dimension; j++) {
            x[j] = means[k][j] + scales[k][j] * gaussian(random);
        }
        return x;
    }

    /** {@code {"features": {...}, "label": "c<k>"}} for event {@code i}. */
    public byte[] labelled(long i) {
        StringBuilder json = new StringBuilder(32 + 24 * dimension);
        json.append("{\"features\":");
        appendFeatures(json, pointOf(i));
        json.append(",\"label\":\"").append(labels.get(classOf(i))).append("\"}");
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@code {"id": "<prefix><i>", "features": {...}}} for event {@code i} (same point as {@link #labelled}). */
    public byte[] unlabelled(String idPrefix, long i) {
        StringBuilder json = new StringBuilder(48 + 24 * dimension);
        json.append("{\"id\":\"").append(idPrefix).append(i).append("\",\"features\":");
        appendFeatures(json, pointOf(i));
        json.append('}');
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void appendFeatures(StringBuilder json, double[] x) {
        json.append('{');
        for (int j = 0; j < x.length; j++) {
            if (j > 0) {
                json.append(',');
            }
            json.append('"').append(featureNames.get(j)).append("\":").append(x[j]);
        }
        json.append('}');
    }

    private SplittableRandom randomFor(long i) {
        return new SplittableRandom(seed ^ (EVENT_STREAM_SALT * (i + 1)));
    }

    /** Box–Muller (one of the pair): SplittableRandom has no nextGaussian on Java 17. */
    private static double gaussian(SplittableRandom random) {
        double u = 1.0 - random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2.0 * Math.log(u)) * Math.cos(2.0 * Math.PI * v);
    }
}
