package io.gdastreams.ops;

import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.PlaneClassifier;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.ModelConversion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The dashboard's decision regions ({@code GET /api/regions?x=…&y=…&cells=…}): the class the scorer predicts at the
 * centre of each cell of a coarse grid in the plane of two features, the others marginalised exactly, as the
 * {@code plot} command colours its pixels ({@link PlaneClassifier}, the same code). The model is fitted with the
 * process's own fit options ({@code gda.covariance}, estimator, shrinkage, floor, minimum count) and compiled as
 * the scorer compiles it ({@link ModelConversion}, {@link GaussianModel#fit}, {@link Discriminant#compile}); the
 * label is the one the scorer's decision rule chooses ({@code gda.decision.*}, stated as {@code decision} when it is
 * not the most probable class). The browser draws the cells.
 *
 * <p>Bounded: at most {@link #MAX_CELLS} × {@link #MAX_CELLS} cells (40,000 posteriors) per request.
 */
final class DecisionRegions {

    static final int DEFAULT_CELLS = 60;
    static final int MAX_CELLS = 200;
    /** The frame: every class's mean ± 3 marginal σ, padded by 4 %, as the {@code plot} picture frames it. */
    static final double FRAME_SIGMAS = 3.0;
    static final double FRAME_PAD = 0.04;

    private DecisionRegions() {
    }

    /**
     * A model fitted with the process's fit options and compiled, as the scorer does; the same for every request
     * of one model version ({@link PerModel}). {@code fitted} has no class when none can be scored.
     */
    record Fitted(GaussianModel fitted, Discriminant discriminant, FitOptions options) {
    }

    static Fitted fit(ModelParameters model, FitOptions options) {
        GaussianModel fitted = GaussianModel.fit(ModelConversion.classSummaries(model), options);
        return new Fitted(fitted, fitted.labels().isEmpty() ? null : Discriminant.compile(fitted), options);
    }

    /**
     * The request's answer as a JSON-ready map; IllegalArgumentException when the request is not answerable,
     * IllegalStateException when no class can be scored. {@code fit}: {@code model}'s ({@link #fit}).
     */
    static Map<String, Object> of(ModelParameters model, Fitted fit, DecisionRule rule, String x, String y,
                                  int cells) {
        List<String> features = model.features();
        for (String feature : new String[] {x, y}) {
            if (feature == null || !features.contains(feature)) {
                throw new IllegalArgumentException("x and y must be features of the model (" + String.join(", ",
                        features) + ")");
            }
        }
        if (x.equals(y)) {
            throw new IllegalArgumentException("x and y must be two different features");
        }
        if (cells < 2 || cells > MAX_CELLS) {
            throw new IllegalArgumentException("cells must be within [2, " + MAX_CELLS + "]");
        }
        GaussianModel fitted = fit.fitted();
        if (fit.discriminant() == null) {
            throw new IllegalStateException("no class of the model can be scored under the fit options");
        }
        PlaneClassifier plane = new PlaneClassifier(fit.discriminant(), features, x, y, rule);
        double[] extent = plane.classExtent(fitted, FRAME_SIGMAS);
        PlaneClassifier.pad(extent, FRAME_PAD);
        int[][] grid = plane.grid(extent, cells, cells);

        Map<String, Object> body = new LinkedHashMap<>();
        body.put("modelId", model.modelId());
        body.put("version", model.version());
        body.put("covariance", fit.options().covarianceType().name().toLowerCase(Locale.ROOT));
        if (plane.rule() != null) {
            body.put("decision", plane.rule());
        }
        body.put("x", x);
        body.put("y", y);
        List<String> marginalised = new ArrayList<>(features);
        marginalised.remove(x);
        marginalised.remove(y);
        body.put("marginalised", marginalised);
        body.put("xMin", extent[0]);
        body.put("xMax", extent[1]);
        body.put("yMin", extent[2]);
        body.put("yMax", extent[3]);
        body.put("columns", cells);
        body.put("rows", cells);
        body.put("labels", fitted.labels());
        body.put("cells", grid);
        List<Map<String, Object>> means = new ArrayList<>();
        for (int k = 0; k < fitted.labels().size(); k++) {
            Map<String, Object> mean = new LinkedHashMap<>();
            mean.put("label", fitted.labels().get(k));
            mean.put("x", fitted.means()[k][plane.xIndex()]);
            mean.put("y", fitted.means()[k][plane.yIndex()]);
            means.add(mean);
        }
        body.put("means", means);
        return body;
    }
}
