package io.gdastreams.topology;

import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.util.Arrays;
import java.util.List;

/**
 * Whether two records of one model version carry the same model. Everything a scorer or a reader of the lineage
 * uses counts (features, counts, priors, means, covariances, category tables, sources), compared exactly: both
 * sides were read from JSON, and the same number text reads as the same double. {@code updatedAt} does not count: it
 * records when a version was published, so publishing the same version again later is still the same model.
 */
final class ModelContent {

    private ModelContent() {
    }

    /** The first difference between {@code a} and {@code b} (same model id and version), or null when none. */
    static String difference(ModelParameters a, ModelParameters b) {
        if (!a.features().equals(b.features())) {
            return "features " + a.features() + " vs " + b.features();
        }
        if (a.totalCount() != b.totalCount()) {
            return "totalCount " + a.totalCount() + " vs " + b.totalCount();
        }
        if (a.retracted() != b.retracted()) {
            return "retracted " + a.retracted() + " vs " + b.retracted();
        }
        if (a.resetGeneration() != b.resetGeneration() || a.resetDropped() != b.resetDropped()) {
            return "reset " + a.resetGeneration() + "/" + a.resetDropped() + " vs " + b.resetGeneration() + "/"
                    + b.resetDropped();
        }
        if (a.leftOut() != b.leftOut()) {
            return "leftOut " + a.leftOut() + " vs " + b.leftOut();
        }
        if (!a.sources().equals(b.sources())) {
            return "sources " + a.sources() + " vs " + b.sources();
        }
        String classes = classesDifference(a.classes(), b.classes());
        return classes != null ? classes : tablesDifference(a.categorical(), b.categorical());
    }

    /** The category tables, which the scorer smooths into the categorical factor of every class. */
    private static String tablesDifference(List<CategoricalTable> a, List<CategoricalTable> b) {
        List<CategoricalTable> x = a == null ? List.of() : a;
        List<CategoricalTable> y = b == null ? List.of() : b;
        if (x.size() != y.size()) {
            return x.size() + " category tables vs " + y.size();
        }
        for (int j = 0; j < x.size(); j++) {
            CategoricalTable p = x.get(j);
            CategoricalTable q = y.get(j);
            if (!p.feature().equals(q.feature()) || !p.values().equals(q.values())) {
                return "category table " + j + ": '" + p.feature() + "' " + p.values() + " vs '" + q.feature() + "' "
                        + q.values();
            }
            if (!Arrays.deepEquals(rows(p.counts()), rows(q.counts()))
                    || !Arrays.deepEquals(rows(p.weights()), rows(q.weights()))) {
                return "categorical feature '" + p.feature() + "': counts differ";
            }
        }
        return null;
    }

    private static Object[] rows(List<?> table) {
        return table == null ? null : table.toArray();
    }

    private static String classesDifference(List<ClassParameters> a, List<ClassParameters> b) {
        if (a.size() != b.size()) {
            return a.size() + " classes vs " + b.size();
        }
        for (int k = 0; k < a.size(); k++) {
            ClassParameters x = a.get(k);
            ClassParameters y = b.get(k);
            if (!x.label().equals(y.label())) {
                return "class " + k + " is '" + x.label() + "' vs '" + y.label() + "'";
            }
            if (x.count() != y.count()) {
                return "class '" + x.label() + "': count " + x.count() + " vs " + y.count();
            }
            if (Double.compare(x.prior(), y.prior()) != 0) {
                return "class '" + x.label() + "': prior " + x.prior() + " vs " + y.prior();
            }
            if (!Arrays.equals(x.mean(), y.mean())) {
                return "class '" + x.label() + "': mean differs";
            }
            if (!Arrays.deepEquals(x.covariance(), y.covariance())) {
                return "class '" + x.label() + "': covariance differs";
            }
            if (!java.util.Objects.equals(x.effectiveCount(), y.effectiveCount())
                    || !java.util.Objects.equals(x.effectiveSampleSize(), y.effectiveSampleSize())) {
                return "class '" + x.label() + "': weights differ";
            }
        }
        return null;
    }
}
