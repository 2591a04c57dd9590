package io.gdastreams.sample;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.math.CategoricalLikelihood;
import io.gdastreams.math.Exclusion;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.GaussianSampler;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.ModelConversion;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;

/**
 * Labelled events drawn from a model: y ~ π (or one fixed class), then the features given y ({@link FeatureDraw}):
 * the numeric ones from N(μ_y, Σ_y), then each categorical one (if the model has any) from its smoothed table θ_yj
 * with the given α, as a scorer with {@code gda.categorical.alpha} = α would smooth it.
 * The model's statistics are fitted with the given {@link FitOptions} first, as a scorer with those options would
 * fit them: the covariance type and estimator decide the Σ_k drawn from (tied: the pooled Σ for every class; diag:
 * its diagonal), shrinkage, floor and jitter are part of it, and a class the fit leaves out is never drawn.
 *
 * <p>Deterministic: the events are a function of the model, the options and the random stream alone, so the same
 * seed ({@link #random}) gives the same events. Immutable; one random stream per thread.
 */
public final class EventSampler {

    /**
     * Most events one run draws. Drawing streams (constant memory); the bound only stops a slip of the keyboard from
     * filling a disk or a topic: 10⁸ events are about 10 GB of CSV at d = 4 and a day at 1,000 events/s.
     */
    public static final long MAX_COUNT = 100_000_000L;
    /** Classes an error message or a warning names before it only counts the rest. */
    private static final int LISTED_CLASSES = 10;

    private final ModelParameters model;
    private final GaussianModel fitted;
    private final GaussianSampler classes;
    /** The class every event gets, or −1 to draw it from the priors. */
    private final int fixedClass;
    private final List<FeatureDraw> draws;
    /** The categorical features in model order (empty for a Gaussian model). */
    private final List<String> categorical;
    /** Per categorical feature its vocabulary, in model order. */
    private final List<List<String>> vocabularies;

    private EventSampler(ModelParameters model, GaussianModel fitted, CategoricalLikelihood tables, int fixedClass) {
        this.model = model;
        this.fitted = fitted;
        this.classes = new GaussianSampler(fitted);
        this.fixedClass = fixedClass;
        this.draws = tables == null ? List.of(new GaussianDraw(classes, model.features()))
                : List.of(new GaussianDraw(classes, model.features()), CategoricalDraw.of(tables));
        this.categorical = tables == null ? List.of() : tables.features();
        this.vocabularies = tables == null ? List.of()
                : IntStream.range(0, categorical.size()).mapToObj(tables::values).toList();
    }

    /**
     * As {@link #of(ModelParameters, FitOptions, double, String)} with the default α of
     * {@code gda.categorical.alpha}.
     */
    public static EventSampler of(ModelParameters model, FitOptions options, String classLabel) {
        return of(model, options, ConfigValues.DEFAULTS.doubleValue(ConfigKey.CATEGORICAL_ALPHA), classLabel);
    }

    /**
     * The sampler of {@code model} fitted with {@code options}; every event of class {@code classLabel} when it is
     * not null. A model that is not well formed, a class that is not in it or is left out by the fit, and a model
     * whose every class is left out are user errors. The category tables (if any) are smoothed with {@code alpha};
     * a drawn class has at least {@code gda.min.count} ≥ 1 observations, so even under α = 0 its θ is defined.
     */
    public static EventSampler of(ModelParameters model, FitOptions options, double alpha, String classLabel) {
        GaussianModel fitted;
        try {
            fitted = GaussianModel.fit(ModelConversion.classSummaries(model), options);
        } catch (IllegalArgumentException e) {
            throw new UserError(describe(model) + " cannot be sampled: " + e.getMessage());
        }
        if (fitted.labels().isEmpty()) {
            throw new UserError("every class of " + describe(model) + " is left out under "
                    + describeOptions(options) + ": " + exclusions(fitted.excluded()));
        }
        int fixed = -1;
        if (classLabel != null) {
            fixed = fitted.labels().indexOf(classLabel);
            if (fixed < 0) {
                throw new UserError(classProblem(model, fitted, classLabel, options));
            }
        }
        CategoricalLikelihood tables;
        try {
            tables = ModelConversion.categoricalLikelihood(model, fitted.labels(), alpha);
        } catch (IllegalArgumentException e) {
            throw new UserError(describe(model) + " cannot be sampled: " + e.getMessage());
        }
        return new EventSampler(model, fitted, tables, fixed);
    }

    /** The random stream of a seed: every draw of a run comes from it, in order. */
    public static RandomGenerator random(long seed) {
        return new SplittableRandom(seed);
    }

    /** One event: its class (fixed, or drawn from the priors), then its features in the model's feature order. */
    public LabelledEvent next(RandomGenerator random) {
        int k = fixedClass >= 0 ? fixedClass : classes.sampleClass(random);
        Map<String, Double> features = new LinkedHashMap<>();
        Map<String, String> categories = categorical.isEmpty() ? Map.of() : new LinkedHashMap<>();
        for (FeatureDraw draw : draws) {
            draw.draw(k, random, features, categories);
        }
        return new LabelledEvent(features, fitted.labels().get(k), categories);
    }

    /** The model's numeric features, in its order: the first columns of every event. */
    public List<String> features() {
        return model.features();
    }

    /** The model's categorical features, in its order (empty for a Gaussian model): the columns after the numeric. */
    public List<String> categoricalFeatures() {
        return categorical;
    }

    /** Per categorical feature (in {@link #categoricalFeatures()} order) the values it may take. */
    public List<List<String>> categoricalValues() {
        return vocabularies;
    }

    /** The classes that are drawn (those the fit keeps), in model order. */
    public List<String> labels() {
        return fitted.labels();
    }

    /** The classes the fit leaves out (never drawn), with the reasons. */
    public List<Exclusion> excluded() {
        return fitted.excluded();
    }

    /** The fitted model the events are drawn from (priors, means, effective covariances). */
    public GaussianModel fitted() {
        return fitted;
    }

    public ModelParameters model() {
        return model;
    }

    /** "model 'iris' version 3", for messages. */
    public static String describe(ModelParameters model) {
        return "model '" + model.modelId() + "' version " + model.version();
    }

    /** "full covariance, mle estimator", for messages. */
    public static String describeOptions(FitOptions options) {
        return options.covarianceType().name().toLowerCase(Locale.ROOT) + " covariance, "
                + options.estimator().name().toLowerCase(Locale.ROOT) + " estimator";
    }

    /** The first {@value #LISTED_CLASSES} exclusions as "label (reason)", then how many more. */
    public static String exclusions(List<Exclusion> excluded) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < Math.min(excluded.size(), LISTED_CLASSES); i++) {
            text.append(i == 0 ? "" : "; ").append('\'').append(excluded.get(i).label()).append("' (")
                    .append(excluded.get(i).reason()).append(')');
        }
        if (excluded.size() > LISTED_CLASSES) {
            text.append("; and ").append(excluded.size() - LISTED_CLASSES).append(" more");
        }
        return text.toString();
    }

    private static String classProblem(ModelParameters model, GaussianModel fitted, String label,
                                       FitOptions options) {
        for (Exclusion e : fitted.excluded()) {
            if (e.label().equals(label)) {
                return "--class " + label + ": the class is left out of " + describe(model) + " under "
                        + describeOptions(options) + " (" + e.reason() + ")";
            }
        }
        List<String> labels = fitted.labels();
        String listed = String.join(", ", labels.subList(0, Math.min(labels.size(), LISTED_CLASSES)))
                + (labels.size() > LISTED_CLASSES ? ", ... (" + labels.size() + " classes)" : "");
        return "--class " + label + ": " + describe(model) + " has no such class (it has " + listed + ")";
    }
}
