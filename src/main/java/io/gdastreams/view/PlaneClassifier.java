package io.gdastreams.view;

import io.gdastreams.math.Discriminant;
import io.gdastreams.math.Posterior;
import java.util.Arrays;
import java.util.List;

/**
 * The scorer's classifier restricted to the plane of two features: every other feature is given as missing, and
 * {@link Discriminant#score} marginalises it out, as it does for an event without it. For a Gaussian class that is
 * exact: the marginal of N(μ_k, Σ_k) on (x, y) is N(μ_k[x,y], Σ_k[x,y; x,y]), so the regions drawn are those of the
 * classifier an event carrying only these two features meets — not a slice at fixed values of the others.
 */
final class PlaneClassifier {

    private final Discriminant discriminant;
    private final int xIndex;
    private final int yIndex;
    private final double[] point;

    PlaneClassifier(Discriminant discriminant, List<String> features, String x, String y) {
        this.discriminant = discriminant;
        this.xIndex = features.indexOf(x);
        this.yIndex = features.indexOf(y);
        if (xIndex < 0 || yIndex < 0 || xIndex == yIndex) {
            throw new IllegalArgumentException("two different features of the model are needed");
        }
        this.point = new double[features.size()];
        Arrays.fill(point, Double.NaN);
    }

    /** The posterior at (x, y), the other features marginalised. Not thread-safe (reuses one point). */
    Posterior score(double x, double y) {
        point[xIndex] = x;
        point[yIndex] = y;
        return discriminant.score(point);
    }

    int xIndex() {
        return xIndex;
    }

    int yIndex() {
        return yIndex;
    }
}
