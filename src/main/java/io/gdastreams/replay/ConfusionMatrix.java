package io.gdastreams.replay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Counts of (predicted, true) label pairs. Rows are predicted labels, columns true labels, both in the order
 * given first (the model's class order) and then in order of appearance. A row that could not be scored counts
 * under the predicted label {@link #UNSCORED} (and as wrong).
 */
final class ConfusionMatrix {

    public static final String UNSCORED = "(unscored)";

    private final List<String> labels = new ArrayList<>();
    private final Map<String, Map<String, Long>> counts = new LinkedHashMap<>();
    private long total;
    private long correct;

    public ConfusionMatrix(List<String> knownLabels) {
        knownLabels.forEach(this::addLabel);
    }

    /** {@code predicted} null = the row was not scored. */
    public void add(String predicted, String actual) {
        String row = predicted == null ? UNSCORED : predicted;
        if (predicted != null) {
            addLabel(predicted);
        }
        addLabel(actual);
        counts.computeIfAbsent(row, k -> new LinkedHashMap<>()).merge(actual, 1L, Long::sum);
        total++;
        if (actual.equals(predicted)) {
            correct++;
        }
    }

    public long count(String predicted, String actual) {
        return counts.getOrDefault(predicted, Map.of()).getOrDefault(actual, 0L);
    }

    public long total() {
        return total;
    }

    public long correct() {
        return correct;
    }

    /** correct / total; NaN when no row was added. */
    public double accuracy() {
        return total == 0 ? Double.NaN : (double) correct / total;
    }

    /** The matrix as aligned text lines, with the accuracy line last. */
    public List<String> render() {
        List<String> rowLabels = new ArrayList<>(labels);
        if (counts.containsKey(UNSCORED)) {
            rowLabels.add(UNSCORED);
        }
        int first = "predicted \\ true".length();
        for (String label : rowLabels) {
            first = Math.max(first, label.length());
        }
        List<Integer> widths = new ArrayList<>();
        for (String label : labels) {
            widths.add(Math.max(label.length(), Long.toString(total).length()));
        }
        List<String> lines = new ArrayList<>();
        StringBuilder header = new StringBuilder(pad("predicted \\ true", first, false));
        for (int j = 0; j < labels.size(); j++) {
            header.append("  ").append(pad(labels.get(j), widths.get(j), true));
        }
        lines.add(header.toString());
        for (String row : rowLabels) {
            StringBuilder line = new StringBuilder(pad(row, first, false));
            for (int j = 0; j < labels.size(); j++) {
                line.append("  ").append(pad(Long.toString(count(row, labels.get(j))), widths.get(j), true));
            }
            lines.add(line.toString());
        }
        lines.add(total == 0 ? "accuracy: none (no scored row has a true label)"
                : String.format(Locale.ROOT, "accuracy: %d/%d = %.2f%%", correct, total, 100.0 * accuracy()));
        return lines;
    }

    private void addLabel(String label) {
        if (!labels.contains(label)) {
            labels.add(label);
        }
    }

    private static String pad(String text, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - text.length()));
        return right ? fill + text : text + fill;
    }
}
