package io.gdastreams.topology;

import java.nio.charset.StandardCharsets;
import io.gdastreams.model.CategoricalTable;
import java.util.List;

/**
 * How many classes a model of d features may have so that its JSON record stays within the record limit. The
 * model carries a full d×d covariance and a mean per class as JSON numbers, so its size is K·(d² + d) numbers;
 * each number takes at most {@link #NUMBER_BYTES} characters (the longest double, {@code -2.2250738585072014E-308},
 * and its separator), a label at most {@link #LABEL_BYTES}. The bound is an upper bound on the size: a model
 * within it always fits (typical numbers take ~21 characters, so real models use ~85 % of it).
 *
 * <p>Categorical features add per class one count per value of each ({@link CategoricalTable}) and, when weighted,
 * one weight, and to the model once each value's text: with at most {@code gda.categorical.max.values} = M values
 * per feature, m features add up to 2·K·m·M numbers and m·M values of at most {@link #LABEL_BYTES} (a value follows
 * the label's rules).
 *
 * <p>Why: without it a valid stream (45 classes at d = 300) grew a model past the 64 MiB record limit, the
 * producer refused it on every restart, and training stopped for good.
 */
final class ModelSizeBound {

    /** Characters of the longest double in JSON plus a comma. */
    static final long NUMBER_BYTES = 25;
    /** A label of 256 characters, each escaped as at most 6 bytes ({@code \\uXXXX}). */
    static final long LABEL_BYTES = 256 * 6;
    /** Per class: field names, count, prior, brackets, and the weights of a weighted class (about 90 bytes). */
    static final long CLASS_OVERHEAD_BYTES = 256;
    /** Model fields but features and classes, and the lineage of up to 20,000 partitions (~48 bytes each). */
    static final long HEADER_BYTES = 1 << 20;
    /** Per categorical feature: its field names and brackets. */
    static final long TABLE_OVERHEAD_BYTES = 64;

    private ModelSizeBound() {
    }

    /** An upper bound on the JSON size of one class of a model of {@code dimension} features. */
    static long classBytes(int dimension) {
        long d = dimension;
        return NUMBER_BYTES * (d * d + d) + LABEL_BYTES + CLASS_OVERHEAD_BYTES;
    }

    /** The most classes a model over {@code features} may have within {@code maxModelBytes} (0 if none fits). */
    static long maxClasses(List<String> features, long maxModelBytes) {
        return maxClasses(features, List.of(), 0, maxModelBytes);
    }

    /**
     * The most classes a model of {@code settings} over the schema {@code features} may have: what the partition
     * tasks admit and what the combiner publishes ({@link ModelDraft}).
     */
    static long maxClasses(List<String> features, TrainingSettings settings) {
        return maxClasses(features, settings.categorical().features(), settings.categorical().maxValues(),
                settings.maxModelBytes());
    }

    /**
     * As {@link #maxClasses(List, long)} for a model that also has the {@code categorical} features of at most
     * {@code maxValues} values each.
     */
    static long maxClasses(List<String> features, List<String> categorical, int maxValues, long maxModelBytes) {
        long featureBytes = 0;
        for (String name : features) {
            featureBytes += nameBytes(name);
        }
        long valueSlots = (long) categorical.size() * maxValues;
        for (String name : categorical) {
            featureBytes += nameBytes(name) + TABLE_OVERHEAD_BYTES;
        }
        featureBytes += valueSlots * (LABEL_BYTES + 3);
        long room = maxModelBytes - HEADER_BYTES - featureBytes;
        // Per value slot a count and, in a weighted table, a weight: two numbers.
        return room <= 0 ? 0 : room / (classBytes(features.size()) + 2 * NUMBER_BYTES * valueSlots
                + 4L * categorical.size());
    }

    private static long nameBytes(String name) {
        return 6L * name.getBytes(StandardCharsets.UTF_8).length + 3;
    }
}
