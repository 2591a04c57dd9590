package io.gdastreams.topology;

import io.gdastreams.model.LabelledEvent;
import io.gdastreams.serde.Decoded;
import io.gdastreams.serde.EventDecoder;
import io.gdastreams.serde.UnicodeText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The general way a training task reads a labelled event, with the reason each refusal is dead-lettered under:
 * decode it ({@link EventDecoder}), require a continuous feature, a value of every configured categorical feature
 * and exactly the partition's schema (when none is configured: the features of the model this trainer published,
 * else the sorted feature names of the partition's first valid event). {@link PartialStatsProcessor} goes through
 * here for every event its fast path (the {@code EventReader} of the known schema) does not read.
 */
final class LabelledEventCheck {

    /** Why an event was not applied: the dead letter's reason and its category. */
    record Refusal(DeadLetterCategory category, String reason) {
    }

    /**
     * An event read: the decoded {@code event}, its {@code point} in {@code schema} order (a scratch array, valid
     * until the next check), its categorical {@code values} in configured order (null when none is configured); or,
     * when it cannot be applied, only the {@code refusal}.
     */
    record Checked(LabelledEvent event, double[] point, String[] values, List<String> schema, Refusal refusal) {

        static Checked refused(DeadLetterCategory category, String reason) {
            return new Checked(null, null, null, null, new Refusal(category, reason));
        }
    }

    private final TrainingSettings settings;
    /** {@code settings.categorical().features()} as a set, for the decoder. */
    private final Set<String> categoricalSet;
    private final CategoricalChecks categoricalChecks;
    /** Scratch for one event in schema order; allocated when the schema is known. */
    private double[] point;

    LabelledEventCheck(TrainingSettings settings, CategoricalChecks categoricalChecks) {
        this.settings = settings;
        this.categoricalSet = settings.categorical().featureSet();
        this.categoricalChecks = categoricalChecks;
    }

    /**
     * Reads {@code value} as an event of the partition whose state is {@code state}. A partition without a schema
     * takes {@code published} (the features of the model this trainer published, when there is one), else the
     * sorted feature names of its first valid event, and fixes it in {@code state}'s progress.
     */
    Checked check(byte[] value, PartitionState state, List<String> published) {
        Decoded<LabelledEvent> decoded = EventDecoder.decodeLabelled(value, settings.maxFeatures(),
                categoricalSet);
        if (!decoded.isOk()) {
            return Checked.refused(DeadLetterCategory.INVALID_EVENT, decoded.error());
        }
        LabelledEvent event = decoded.value();
        if (event.features().isEmpty()) {
            return Checked.refused(DeadLetterCategory.INVALID_EVENT, "no continuous feature: the Gaussian part of a"
                    + " model needs at least one (the event has only categorical features "
                    + abbreviate(List.copyOf(event.categories().keySet())) + ")");
        }
        String[] values = null;
        if (!categoricalSet.isEmpty()) {
            values = categoricalChecks.valuesOf(event);
            if (values == null) {
                return Checked.refused(DeadLetterCategory.INVALID_EVENT, categoricalChecks.missing(event));
            }
        }
        List<String> schema = state.progress().features();
        if (schema.isEmpty()) {
            schema = published.isEmpty() ? event.features().keySet().stream().sorted().toList() : published;
            state.setProgress(state.progress().withFeatures(schema));
        }
        String mismatch = schemaMismatch(event.features(), schema);
        if (mismatch != null) {
            return Checked.refused(DeadLetterCategory.SCHEMA_MISMATCH, mismatch);
        }
        if (point == null || point.length != schema.size()) {
            point = new double[schema.size()];
        }
        for (int i = 0; i < point.length; i++) {
            point[i] = event.features().get(schema.get(i));
        }
        return new Checked(event, point, values, schema, null);
    }

    /** Why {@code features} do not match {@code schema} (only what is wrong), or null when they do. */
    static String schemaMismatch(Map<String, Double> features, List<String> schema) {
        List<String> missing = new ArrayList<>();
        for (String name : schema) {
            if (!features.containsKey(name)) {
                missing.add(name);
            }
        }
        int extra = features.size() - (schema.size() - missing.size());
        if (missing.isEmpty() && extra == 0) {
            return null;
        }
        List<String> unexpected = features.keySet().stream().filter(f -> !schema.contains(f)).sorted().toList();
        // Only what is wrong: a row with an empty cell lacks a feature and has nothing unexpected.
        List<String> wrong = new ArrayList<>(2);
        if (!missing.isEmpty()) {
            wrong.add("missing " + abbreviate(missing));
        }
        if (!unexpected.isEmpty()) {
            wrong.add("unexpected " + abbreviate(unexpected));
        }
        return "feature set differs from the schema " + abbreviate(schema) + ": " + String.join(", ", wrong);
    }

    private static String abbreviate(List<String> names) {
        String text = names.toString();
        return UnicodeText.cut(text, 200);
    }
}
