package io.gdastreams.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The one output per unlabelled event on the predictions topic (same key as the input). Two shapes, told apart
 * by {@code status}; fields that do not apply to a shape are left out of the JSON (never written as null).
 *
 * <p>Scored:
 * <pre>{@code
 * {"status": "scored", "id": "row-17", "label": "virginica",
 *  "probabilities": {"setosa": 1.2e-30, "versicolor": 0.03, "virginica": 0.97},
 *  "logDensity": -3.21, "modelId": "iris", "modelVersion": 42, "outlier": false}
 * }</pre>
 * {@code probabilities} holds p(y=k | x) for every class that took part in scoring (classes below the scorer's
 * minimum count are left out), in model order; {@code logDensity} is log p(x) over the observed features;
 * {@code outlier} is present only when the scorer has an outlier threshold (then it is
 * {@code logDensity < threshold}).
 *
 * <p>Unscored:
 * <pre>{@code
 * {"status": "unscored", "id": "row-18", "reason": "unknown feature(s): colour",
 *  "modelId": "iris", "modelVersion": 42}
 * }</pre>
 * {@code reason} says why (no model yet, unknown feature names, no scorable class, malformed input, ...);
 * {@code modelId}/{@code modelVersion} are present when a model was in force. {@code id} is the event's id,
 * else the record key (UTF-8), and absent when there is neither (or the input could not be read).
 *
 * @param status        scored or unscored
 * @param id            event id, else the record key; may be null
 * @param label         most probable class (scored only)
 * @param probabilities posterior per scored class (scored only)
 * @param logDensity    log p(x) (scored only)
 * @param modelId       model in force, if any
 * @param modelVersion  version of the model in force, if any
 * @param outlier       logDensity below the configured threshold (scored and threshold configured only)
 * @param reason        why the event was not scored (unscored only)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Prediction(Status status, String id, String label, Map<String, Double> probabilities,
                         Double logDensity, String modelId, Long modelVersion, Boolean outlier, String reason) {

    /** The two shapes of a prediction record. */
    public enum Status {
        @JsonProperty("scored") SCORED,
        @JsonProperty("unscored") UNSCORED
    }

    public Prediction {
        Objects.requireNonNull(status, "status");
        if (status == Status.SCORED) {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(probabilities, "probabilities");
            Objects.requireNonNull(logDensity, "logDensity");
            probabilities = Collections.unmodifiableMap(new LinkedHashMap<>(probabilities));
        } else {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** A scored event. {@code probabilities}: copied, iteration order kept. */
    public static Prediction scored(String id, String label, Map<String, Double> probabilities, double logDensity,
                                    String modelId, long modelVersion, Boolean outlier) {
        return new Prediction(Status.SCORED, id, label, probabilities, logDensity, modelId, modelVersion, outlier,
                null);
    }

    /** An event that could not be scored; {@code modelId}/{@code modelVersion} null when no model was in force. */
    public static Prediction unscored(String id, String reason, String modelId, Long modelVersion) {
        return new Prediction(Status.UNSCORED, id, null, null, null, modelId, modelVersion, null, reason);
    }
}
