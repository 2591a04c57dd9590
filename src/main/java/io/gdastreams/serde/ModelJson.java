package io.gdastreams.serde;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * How a model record differs from its record's plain mapping, as a Jackson mix-in registered on {@link Json}'s
 * mapper (the model package knows nothing of Jackson): the category tables are left out when there are none, so a
 * model without categorical features is written byte for byte as before they existed.
 */
final class ModelJson {

    private ModelJson() {
    }

    /** Mix-in of {@code ModelParameters}. */
    abstract static class Record {

        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        abstract List<?> categorical();

        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        abstract long retracted();

        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        abstract long resetGeneration();

        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        abstract long resetDropped();

        @JsonInclude(JsonInclude.Include.NON_DEFAULT)
        abstract long leftOut();
    }

    /** Mix-in of {@code CategoricalTable}: the weights are left out of an unweighted table. */
    abstract static class TableRecord {

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract List<double[]> weights();
    }

    /** Mix-in of {@code ClassParameters}: the weights are left out of an unweighted class. */
    abstract static class ClassRecord {

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Double effectiveCount();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Double effectiveSampleSize();
    }
}
