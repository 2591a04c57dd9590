package io.gdastreams.topology;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.ModelParameters;
import java.util.List;

/** The model id the scoring tests serve, and Iris models published under it. */
final class ScoringFixtures {

    static final String MODEL_ID = "iris";

    private ScoringFixtures() {
    }

    /** A model over {@code features} (in that order) from {@code rows}; classes in order of first appearance. */
    static ModelParameters model(long version, List<LabelledRow> rows, List<String> features) {
        return Iris.model(MODEL_ID, version, rows, features);
    }

    /** The model of all 150 Iris rows over all four features. */
    static ModelParameters irisModel(long version) {
        return Iris.model(MODEL_ID, version, Iris.rows());
    }
}
