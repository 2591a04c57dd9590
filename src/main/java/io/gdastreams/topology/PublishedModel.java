package io.gdastreams.topology;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a trainer needs to know of a published model: its version and trainer, its lineage and count, its class
 * labels, and a SHA-256 digest of its exact bytes (two records are the same content when their digests are). Small
 * whatever the model's size (a model is 13.7 MB of JSON at d = 256, K = 10), so the combiner keeps it in its store.
 *
 * @param sha256 digest of the record value (not copied; not modified)
 */
record PublishedModel(long version, String trainer, long totalCount, Map<String, Long> sources, Set<String> labels,
                      byte[] sha256, long generation) {

    /** A summary of a model of reset generation 0. */
    PublishedModel(long version, String trainer, long totalCount, Map<String, Long> sources, Set<String> labels,
                   byte[] sha256) {
        this(version, trainer, totalCount, sources, labels, sha256, 0L);
    }

    PublishedModel {
        sources = Map.copyOf(sources);
        labels = Set.copyOf(labels);
    }

    /** The record as a model of {@code modelId}, or empty when it is absent, a tombstone or not a valid model. */
    static Optional<PublishedModel> parse(String modelId, byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return Optional.empty();
        }
        try {
            ModelParameters model = SerdeFactory.model().deserializer().deserialize(null, bytes);
            return isPublished(modelId, model) ? Optional.of(of(model, bytes)) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code model} (null: none) is a valid published model of {@code modelId}, as {@link #parse} asks. */
    static boolean isPublished(String modelId, ModelParameters model) {
        return model != null && model.isPublishedAs(modelId);
    }

    /** The class labels of {@code model}, sorted. */
    static Set<String> labels(ModelParameters model) {
        Set<String> labels = new TreeSet<>();
        for (ClassParameters c : model.classes()) {
            labels.add(c.label());
        }
        return labels;
    }

    /**
     * The vocabulary of each categorical feature of {@code model} (a decoded record; null: none), feature → values;
     * empty when it has no categorical feature. Not part of the summary (whose stored layout stays as it was): a
     * training task reads it from the model record, as it reads the labels.
     */
    static Map<String, Set<String>> categoricalValues(ModelParameters model) {
        if (model == null || model.categorical() == null) {
            return Map.of();
        }
        Map<String, Set<String>> values = new java.util.HashMap<>();
        for (CategoricalTable table : model.categorical()) {
            values.put(table.feature(), Set.copyOf(table.values()));
        }
        return values;
    }

    /** The summary of {@code model}, published as {@code bytes}. */
    static PublishedModel of(ModelParameters model, byte[] bytes) {
        Set<String> labels = labels(model);
        // Events absorbed, not the count: retractions and resets lower the count but never this (= totalCount without
        // them).
        return new PublishedModel(model.version(), model.trainer(), model.eventsAbsorbed(), model.sources(), labels,
                sha256(bytes), model.resetGeneration());
    }

    /** The summary as JSON, for the combiner's store. */
    byte[] toStoreBytes() {
        return Json.toBytes(new Stored(version, trainer, totalCount, sources, List.copyOf(labels), sha256,
                generation));
    }

    /** Inverse of {@link #toStoreBytes()}; throws on anything else. */
    static PublishedModel fromStoreBytes(byte[] bytes) {
        try {
            JsonNode tree = Json.strictMapper().readTree(bytes);
            if (tree instanceof ObjectNode object && !object.has("generation")) {
                object.put("generation", 0L); // stored before resets existed, or of generation 0
            }
            Stored s = Json.strictMapper().treeToValue(tree, Stored.class);
            return new PublishedModel(s.version(), s.trainer(), s.totalCount(), s.sources(), Set.copyOf(s.labels()),
                    s.sha256(), s.generation());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The stored form (labels as a list: JSON has no sets); {@code generation} is left out at 0, so that a summary
     * stored before resets existed reads as generation 0 and one of generation 0 is written as before.
     */
    private record Stored(long version, String trainer, long totalCount, Map<String, Long> sources,
                          List<String> labels, byte[] sha256,
                          @JsonInclude(JsonInclude.Include.NON_DEFAULT) long generation) {
    }

    boolean publishedBy(String applicationId) {
        return applicationId.equals(trainer);
    }

    boolean sameContent(PublishedModel other) {
        return MessageDigest.isEqual(sha256, other.sha256);
    }

    /**
     * Why {@code candidate} would go backwards from this model, or null: a partition this model absorbed up to
     * offset n must be absorbed at least up to n, the reset generation must not go back, and the events absorbed
     * (counts, retractions and the events resets dropped) must not shrink.
     */
    String regressionOf(ModelParameters candidate) {
        if (candidate.resetGeneration() < generation) {
            return "the reset generation would go back from " + generation + " (version " + version + ") to "
                    + candidate.resetGeneration();
        }
        for (Map.Entry<String, Long> absorbed : sources.entrySet()) {
            Long now = candidate.sources().get(absorbed.getKey());
            if (now != null && now < absorbed.getValue()) {
                return "partition " + absorbed.getKey() + " would go back from offset " + absorbed.getValue()
                        + " (version " + version + ") to " + now;
            }
        }
        if (missingPartitions(candidate).isEmpty() && candidate.eventsAbsorbed() < totalCount) {
            return "the total count would go back from " + totalCount + " (version " + version + ") to "
                    + candidate.eventsAbsorbed();
        }
        return null;
    }

    /** Partitions this model absorbed that {@code candidate} has no snapshot of (yet). */
    Set<String> missingPartitions(ModelParameters candidate) {
        Set<String> missing = new TreeSet<>(sources.keySet());
        missing.removeAll(candidate.sources().keySet());
        return missing;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
