package io.gdastreams.replay;

import io.gdastreams.model.Prediction;
import io.gdastreams.replay.ReplayDataset.ScoringRow;
import io.gdastreams.serde.UnicodeText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The unscored rows of a replay grouped by the category of their reason: the text before its first ':'
 * ("invalid event", "unknown feature(s)", "id too long") or the whole reason when it has none ("no model yet").
 * Each category is reported with its count and its first row (CSV line and full reason), most frequent first, so
 * that a run with thousands of unscored rows prints a few lines instead of one per row.
 */
record UnscoredSummary(List<Category> categories) {

    /** At most this many categories are listed; the rest are counted in one line. */
    static final int MAX_CATEGORIES = 20;
    /** A reason longer than this is cut in the example. */
    static final int MAX_REASON_CHARS = 160;

    /** One category: how many rows, and the first of them (its CSV line and reason). */
    record Category(String name, int count, int firstLine, String firstReason) {
    }

    /** The summary of {@code predictions}, which are in the order of {@code rows} (one each). */
    static UnscoredSummary of(List<Prediction> predictions, List<ScoringRow> rows) {
        Map<String, Category> byName = new LinkedHashMap<>();
        for (int i = 0; i < predictions.size(); i++) {
            Prediction prediction = predictions.get(i);
            if (prediction.status() != Prediction.Status.UNSCORED) {
                continue;
            }
            String reason = prediction.reason();
            int line = rows.get(i).line();
            byName.merge(category(reason), new Category(category(reason), 1, line, reason),
                    (a, b) -> new Category(a.name(), a.count() + 1, a.firstLine(), a.firstReason()));
        }
        List<Category> categories = new ArrayList<>(byName.values());
        categories.sort(Comparator.comparingInt(Category::count).reversed().thenComparing(Category::name));
        return new UnscoredSummary(categories);
    }

    /** The category of an unscored reason: the text before its first ':', or all of it. */
    static String category(String reason) {
        int colon = reason.indexOf(':');
        return (colon < 0 ? reason : reason.substring(0, colon)).strip();
    }

    /** The report's lines: a heading and one line per category (none when every row was scored). */
    List<String> render() {
        if (categories.isEmpty()) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        lines.add("Unscored rows by reason:");
        for (Category c : categories.subList(0, Math.min(MAX_CATEGORIES, categories.size()))) {
            lines.add(String.format(Locale.ROOT, "  %s: %d (first: line %d, %s)", c.name(), c.count(), c.firstLine(),
                    abbreviate(c.firstReason())));
        }
        if (categories.size() > MAX_CATEGORIES) {
            int rest = categories.subList(MAX_CATEGORIES, categories.size()).stream().mapToInt(Category::count).sum();
            lines.add(String.format(Locale.ROOT, "  %d more reasons: %d rows", categories.size() - MAX_CATEGORIES,
                    rest));
        }
        return lines;
    }

    private static String abbreviate(String reason) {
        return UnicodeText.cut(reason, MAX_REASON_CHARS);
    }
}
