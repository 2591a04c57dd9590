package io.gdastreams.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.serde.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The events a replay sends, built from the two CSV files. Cell values are sent as they are: a training row with
 * an empty or non-numeric cell becomes an event the training topology rejects (it goes to the dead-letter topic,
 * nothing is dropped here); in the scoring file an empty cell is a missing feature (marginalised). The cells of a
 * categorical feature ({@code gda.categorical.features}) are text, whatever they look like ("0", "1", "true"): they
 * are sent as JSON strings.
 */
public final class ReplayDataset {

    /** JSON number syntax (what a CSV number cell should look like); anything else is sent as a string. */
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    /** A labelled event for one training row. */
    public record TrainingRow(int line, String key, byte[] value, Long timestamp) {

        /** A row sent with the producer's time as its record timestamp. */
        public TrainingRow(int line, String key, byte[] value) {
            this(line, key, value, null);
        }
    }

    /** An unlabelled event for one scoring row; {@code trueLabel} is null when the file has no label cell. */
    public record ScoringRow(int line, String id, byte[] value, String trueLabel) {
    }

    private final List<String> features;
    private final List<String> categorical;
    private final List<TrainingRow> training;
    private final List<ScoringRow> scoring;
    private final boolean scoreHasLabels;

    private ReplayDataset(List<String> features, List<String> categorical, List<TrainingRow> training,
                          List<ScoringRow> scoring, boolean scoreHasLabels) {
        this.features = List.copyOf(features);
        this.categorical = List.copyOf(categorical);
        this.training = List.copyOf(training);
        this.scoring = List.copyOf(scoring);
        this.scoreHasLabels = scoreHasLabels;
    }

    /**
     * @param idColumn  column holding the row id, or null (then the id is the 1-based row number of the file)
     * @param features  feature columns in order, or null/empty for every column of the training file except the
     *                  label and id columns
     */
    public static ReplayDataset of(CsvTable train, CsvTable score, String label, String idColumn,
                                   List<String> features) {
        return of(train, score, label, idColumn, features, List.of());
    }

    /**
     * As {@link #of(CsvTable, CsvTable, String, String, List)}, with the {@code categorical} feature columns
     * ({@code gda.categorical.features}), which must be among the feature columns, sent as text.
     */
    public static ReplayDataset of(CsvTable train, CsvTable score, String label, String idColumn,
                                   List<String> features, List<String> categorical) {
        return of(train, score, label, idColumn, features, categorical, null);
    }

    /**
     * As {@link #of(CsvTable, CsvTable, String, String, List, List)}, with the training rows' record timestamps
     * from {@code timeColumn} (epoch milliseconds, an integer ≥ 0 on every row; null: none; never a feature), and
     * {@code score} null for a replay without a scoring phase.
     */
    public static ReplayDataset of(CsvTable train, CsvTable score, String label, String idColumn,
                                   List<String> features, List<String> categorical, String timeColumn) {
        requireColumn(train, label, "label");
        if (timeColumn != null) {
            requireColumn(train, timeColumn, "time");
            if (timeColumn.equals(label)) {
                throw new UserError("the time column '" + timeColumn + "' is also the label column");
            }
        }
        if (score == null && idColumn != null) {
            throw new UserError("--id names a column of the scoring file, and there is none");
        }
        if (idColumn != null) {
            requireColumn(score, idColumn, "id");
        }
        List<String> chosen = new ArrayList<>();
        if (features == null || features.isEmpty()) {
            for (String column : train.header()) {
                if (!column.equals(label) && !column.equals(idColumn) && !column.equals(timeColumn)) {
                    chosen.add(column);
                }
            }
        } else {
            for (String feature : features) {
                if (feature.equals(label) || feature.equals(idColumn) || feature.equals(timeColumn)) {
                    throw new UserError("feature '" + feature + "' is also the label, id or time column");
                }
                if (chosen.contains(feature)) {
                    throw new UserError("feature '" + feature + "' is listed twice");
                }
                chosen.add(feature);
            }
        }
        if (chosen.isEmpty()) {
            throw new UserError(train.source() + " has no feature columns besides the label and id");
        }
        for (String feature : chosen) {
            requireColumn(train, feature, "feature");
            if (score != null) {
                requireColumn(score, feature, "feature");
            }
        }
        // Refused here, before a broker is started: with no training row there is no model to wait for, and with
        // no scoring row nothing to report (an accuracy over zero rows is not a number).
        requireRows(train, "nothing to train on");
        if (score != null) {
            requireRows(score, "nothing to score");
        }
        for (String feature : categorical) {
            if (!chosen.contains(feature)) {
                throw new UserError("categorical feature '" + feature + "' (gda.categorical.features) is not among"
                        + " the feature columns " + chosen);
            }
        }
        Set<String> text = Set.copyOf(categorical);
        List<ScoringRow> scoring = score == null ? List.of() : scoringRows(score, label, idColumn, chosen, text);
        List<String> continuous = chosen.stream().filter(f -> !text.contains(f)).toList();
        List<String> categoricalInOrder = chosen.stream().filter(text::contains).toList();
        return new ReplayDataset(continuous, categoricalInOrder, trainingRows(train, label, chosen, text, timeColumn),
                scoring, scoring.stream().anyMatch(row -> row.trueLabel() != null));
    }

    private static void requireRows(CsvTable table, String consequence) {
        if (table.rows().isEmpty()) {
            throw new UserError(table.source() + " has no data rows, only a header: " + consequence);
        }
    }

    /** The continuous feature columns, in order (the schema, {@code gda.features}). */
    public List<String> features() {
        return features;
    }

    /** The categorical feature columns, in file order (empty when none). */
    public List<String> categorical() {
        return categorical;
    }

    public List<TrainingRow> training() {
        return training;
    }

    public List<ScoringRow> scoring() {
        return scoring;
    }

    /** True when at least one scoring row has a true label (then the replay reports a confusion matrix). */
    public boolean scoreHasLabels() {
        return scoreHasLabels;
    }

    private static List<TrainingRow> trainingRows(CsvTable train, String label, List<String> features,
                                                  Set<String> text, String timeColumn) {
        int labelIndex = train.column(label);
        int timeIndex = timeColumn == null ? -1 : train.column(timeColumn);
        List<TrainingRow> rows = new ArrayList<>();
        int number = 0;
        for (CsvTable.Row row : train.rows()) {
            number++;
            ObjectNode event = Json.mapper().createObjectNode();
            event.set("features", featureNode(train, row, features, text));
            String labelCell = row.cells().get(labelIndex);
            if (!labelCell.isEmpty()) {
                event.put("label", labelCell);
            }
            Long timestamp = null;
            if (timeIndex >= 0) {
                String cell = row.cells().get(timeIndex);
                try {
                    timestamp = Long.parseLong(cell);
                } catch (NumberFormatException e) {
                    timestamp = -1L;
                }
                if (timestamp < 0) {
                    throw new UserError(train.source() + " line " + row.line() + ": time column '" + timeColumn
                            + "' holds '" + cell + "', not epoch milliseconds (an integer >= 0)");
                }
            }
            rows.add(new TrainingRow(row.line(), Integer.toString(number), bytes(event), timestamp));
        }
        return rows;
    }

    private static List<ScoringRow> scoringRows(CsvTable score, String label, String idColumn,
                                                List<String> features, Set<String> text) {
        int labelIndex = score.column(label);
        int idIndex = idColumn == null ? -1 : score.column(idColumn);
        List<ScoringRow> rows = new ArrayList<>();
        Map<String, Integer> lineOfId = new HashMap<>();
        int number = 0;
        for (CsvTable.Row row : score.rows()) {
            number++;
            String id = idIndex < 0 ? Integer.toString(number) : row.cells().get(idIndex);
            if (id.isEmpty()) {
                throw new UserError(score.source() + " line " + row.line() + ": empty id in column '" + idColumn
                        + "'");
            }
            Integer previous = lineOfId.putIfAbsent(id, row.line());
            if (previous != null) {
                throw new UserError(score.source() + " line " + row.line() + ": id '" + id
                        + "' already used on line " + previous + " (outputs are matched by id)");
            }
            ObjectNode event = Json.mapper().createObjectNode();
            event.put("id", id);
            event.set("features", featureNode(score, row, features, text));
            String trueLabel = labelIndex < 0 || row.cells().get(labelIndex).isEmpty() ? null
                    : row.cells().get(labelIndex);
            rows.add(new ScoringRow(row.line(), id, bytes(event), trueLabel));
        }
        return rows;
    }

    /**
     * Numbers as JSON numbers, empty cells left out, the cells of {@code text} (categorical) columns and anything
     * else as a JSON string (a non-number in a continuous column is for the topology to refuse).
     */
    private static ObjectNode featureNode(CsvTable table, CsvTable.Row row, List<String> features, Set<String> text) {
        ObjectNode node = Json.mapper().createObjectNode();
        for (String feature : features) {
            String cell = row.cells().get(table.column(feature));
            if (cell.isEmpty()) {
                continue;
            }
            if (text.contains(feature)) {
                node.put(feature, cell);
            } else if (NUMBER.matcher(cell).matches()) {
                double x = Double.parseDouble(cell);
                if (Double.isFinite(x)) {
                    node.put(feature, x);
                } else {
                    // Beyond a double's range (1e400): a JSON number that overflows, refused for that as train
                    // refuses it, not a string that "is not a number".
                    node.putRawValue(feature, new RawValue(x > 0 ? "1e999" : "-1e999"));
                }
            } else {
                node.put(feature, cell);
            }
        }
        return node;
    }

    private static void requireColumn(CsvTable table, String column, String role) {
        if (table.column(column) < 0) {
            throw new UserError(table.source() + " has no " + role + " column '" + column + "' (columns: "
                    + String.join(", ", table.header()) + ")");
        }
    }

    private static byte[] bytes(ObjectNode node) {
        try {
            return Json.mapper().writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write an event", e);
        }
    }
}
