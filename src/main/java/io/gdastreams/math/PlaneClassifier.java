package io.gdastreams.math;

import java.util.Arrays;
import java.util.List;

/**
 * The scorer's classifier restricted to the plane of two features: every other feature is given as missing, and
 * {@link Discriminant#score} marginalises it out, as it does for an event without it. For a Gaussian class that is
 * exact: the marginal of N(μ_k, Σ_k) on (x, y) is N(μ_k[x,y], Σ_k[x,y; x,y]), so the regions drawn are those of the
 * classifier an event carrying only these two features meets — not a slice at fixed values of the others.
 *
 * <p>One place for the plane's regions, used by the {@code plot} picture (per pixel) and the dashboard's grid
 * ({@link #grid}, per cell): both colour a point by the class the scorer's decision rule ({@link DecisionRule},
 * {@code gda.decision.*}; the most probable class by default) chooses from the posterior at its centre, so a
 * threshold or a cost matrix moves the drawn boundaries as it moves the predictions.
 */
public final class PlaneClassifier {

    private final Discriminant discriminant;
    private final int xIndex;
    private final int yIndex;
    private final double[] point;
    private final DecisionRule.Bound rule;

    public PlaneClassifier(Discriminant discriminant, List<String> features, String x, String y, DecisionRule rule) {
        this.discriminant = discriminant;
        this.rule = rule.bind(discriminant.labels());
        this.xIndex = features.indexOf(x);
        this.yIndex = features.indexOf(y);
        if (xIndex < 0 || yIndex < 0 || xIndex == yIndex) {
            throw new IllegalArgumentException("two different features of the model are needed");
        }
        this.point = new double[features.size()];
        Arrays.fill(point, Double.NaN);
    }

    /** The posterior at (x, y), the other features marginalised. Not thread-safe (reuses one point). */
    public Posterior score(double x, double y) {
        point[xIndex] = x;
        point[yIndex] = y;
        return discriminant.score(point);
    }

    /** The class index ({@link Discriminant#labels()}) the decision rule chooses from {@code posterior}. */
    public int choose(Posterior posterior) {
        return rule.choose(posterior.probabilities());
    }

    /** What a prediction states as its decision rule; null for the most probable class. */
    public String rule() {
        return rule.rule();
    }

    public int xIndex() {
        return xIndex;
    }

    public int yIndex() {
        return yIndex;
    }

    /**
     * {xMin, xMax, yMin, yMax} covering every class of {@code fitted} (the model this classifier was compiled
     * from): its mean ± {@code sigmas} marginal standard deviations in x and in y.
     */
    public double[] classExtent(GaussianModel fitted, double sigmas) {
        double[] r = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY};
        double[][] means = fitted.means();
        for (int k = 0; k < means.length; k++) {
            double[][] covariance = fitted.covariance(k);
            double sx = sigmas * Math.sqrt(covariance[xIndex][xIndex]);
            double sy = sigmas * Math.sqrt(covariance[yIndex][yIndex]);
            include(r, 0, means[k][xIndex] - sx, means[k][xIndex] + sx);
            include(r, 2, means[k][yIndex] - sy, means[k][yIndex] + sy);
        }
        return r;
    }

    /** Widens {xMin, xMax, yMin, yMax} to include [low, high] on axis {@code i} (0: x, 2: y). */
    public static void include(double[] r, int i, double low, double high) {
        r[i] = Math.min(r[i], low);
        r[i + 1] = Math.max(r[i + 1], high);
    }

    /** Pads each axis of {xMin, xMax, yMin, yMax} by {@code fraction} of its span (a point: of its size). */
    public static void pad(double[] r, double fraction) {
        for (int i = 0; i < 4; i += 2) {
            double span = r[i + 1] - r[i];
            double pad = span > 0 ? fraction * span : Math.max(1e-9, Math.abs(r[i]) * fraction);
            r[i] -= pad;
            r[i + 1] += pad;
        }
    }

    /** x at the centre of column {@code c} of {@code columns} equal cells over [xMin, xMax]. */
    public static double cellX(double xMin, double xMax, int c, int columns) {
        return xMin + (c + 0.5) / columns * (xMax - xMin);
    }

    /** y at the centre of row {@code r} of {@code rows} equal cells over [yMin, yMax], row 0 at the top (yMax). */
    public static double cellY(double yMin, double yMax, int r, int rows) {
        return yMax - (r + 0.5) / rows * (yMax - yMin);
    }

    /**
     * The chosen class index ({@link Discriminant#labels()}, by the decision rule) at the centre of each cell of a
     * {@code rows} × {@code columns} grid over {@code extent} = {xMin, xMax, yMin, yMax}; row 0 is the top.
     */
    public int[][] grid(double[] extent, int columns, int rows) {
        int[][] cells = new int[rows][columns];
        for (int r = 0; r < rows; r++) {
            double y = cellY(extent[2], extent[3], r, rows);
            for (int c = 0; c < columns; c++) {
                cells[r][c] = choose(score(cellX(extent[0], extent[1], c, columns), y));
            }
        }
        return cells;
    }
}
