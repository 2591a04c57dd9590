package io.gdastreams.serde;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.gdastreams.model.Prediction;

/**
 * How a {@link Prediction} looks on the predictions topic, as Jackson mix-ins registered on {@link Json}'s mapper:
 * the record stays free of Jackson (the model package is plain Java, docs/ARCHITECTURE.md), and the wire format is
 * said here, next to the other serdes.
 */
final class PredictionJson {

    private PredictionJson() {
    }

    /** A field that does not apply to a shape is left out, never written as null. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    abstract static class Record {
    }

    /** {@code status} in lower case. */
    enum Status {
        @JsonProperty("scored") SCORED,
        @JsonProperty("unscored") UNSCORED
    }
}
