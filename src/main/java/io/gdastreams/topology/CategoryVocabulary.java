package io.gdastreams.topology;

import io.gdastreams.math.CategoryCounts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Per categorical feature, the union of its values over the classes of one partition ({@link PartitionState}).
 * Kept beside the counts so that the vocabulary bound ({@link CategoricalChecks#vocabularyLimit}) costs one lookup
 * per event, not one per class. It only grows, as the counts do, until a drift reset empties both; it is rebuilt
 * from the counts on load.
 */
final class CategoryVocabulary {

    private final List<Set<String>> values = new ArrayList<>();

    /** An empty vocabulary of {@code features} categorical features. */
    CategoryVocabulary(int features) {
        for (int j = 0; j < features; j++) {
            values.add(new HashSet<>());
        }
    }

    /** Adds every value that {@code counts} (of the same features) holds. */
    void addAll(CategoryCounts counts) {
        for (int j = 0; j < values.size(); j++) {
            values.get(j).addAll(counts.counts(j).keySet());
        }
    }

    /** Adds the values of one event, one per feature in their configured order. */
    void add(String[] event) {
        for (int j = 0; j < event.length; j++) {
            values.get(j).add(event[j]);
        }
    }

    /** Forgets every value (a drift reset deleted the counts). */
    void clear() {
        values.forEach(Set::clear);
    }

    boolean contains(int j, String value) {
        return values.get(j).contains(value);
    }

    /** The distinct values of feature j (a read-only view). */
    Set<String> of(int j) {
        return Collections.unmodifiableSet(values.get(j));
    }
}
