package io.gdastreams.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.LinearDiscriminants;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.ModelConversion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * The answer of {@code GET /models/{modelId}}: the model as published (the model topic's JSON), and with
 * {@code ?covariance=tied} also its scorer form under {@code "scorerForm"}: the linear discriminants of the tied
 * (LDA) fit, β_k = Σ⁻¹μ_k and γ_k = −½ μ_kᵀΣ⁻¹μ_k + log π_k ({@link Discriminant#linear()}), fitted with the
 * process's own estimator, shrinkage, floor and minimum count, so δ_k(x) = β_kᵀx + γ_k reproduces the scorer's
 * log-posteriors up to a constant.
 */
final class ModelDocument {

    private ModelDocument() {
    }

    /** The model's JSON bytes, exactly as the model topic carries them. */
    static byte[] published(ModelParameters model) {
        return SerdeFactory.model().serializer().serialize(null, model);
    }

    /**
     * The model's JSON with the tied scorer form added; empty when no class can be scored (all excluded under
     * {@code options}).
     */
    static Optional<byte[]> withTiedForm(ModelParameters model, FitOptions options) {
        FitOptions tied = options.withCovarianceType(CovarianceType.TIED);
        Discriminant discriminant = Discriminant.compile(
                GaussianModel.fit(ModelConversion.classSummaries(model), tied));
        Optional<LinearDiscriminants> linear = discriminant.linear();
        if (linear.isEmpty()) {
            return Optional.empty();
        }
        try {
            ObjectNode document = (ObjectNode) Json.mapper().readTree(published(model));
            ObjectNode form = document.putObject("scorerForm");
            form.put("covariance", "tied");
            form.put("estimator", tied.estimator().name().toLowerCase(java.util.Locale.ROOT));
            ArrayNode features = form.putArray("features");
            model.features().forEach(features::add);
            ObjectNode classes = form.putObject("classes");
            for (int k = 0; k < discriminant.labels().size(); k++) {
                ObjectNode entry = classes.putObject(discriminant.labels().get(k));
                ArrayNode beta = entry.putArray("beta");
                for (double b : linear.get().beta()[k]) {
                    beta.add(b);
                }
                entry.put("gamma", linear.get().gamma()[k]);
            }
            return Optional.of(Json.mapper().writeValueAsBytes(document));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
