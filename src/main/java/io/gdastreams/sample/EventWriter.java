package io.gdastreams.sample;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.serde.EventEncoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes drawn events as CSV or JSON lines ({@link EventFormat}). Lines end in {@code \n} on every platform and
 * numbers are written so that they read back as the same double (CSV: {@link Double#toString}; JSON: the shortest
 * such decimal), so the same events give the same bytes and a refit sees exactly the values drawn.
 *
 * <p>The columns are the numeric features, then the categorical ones (their text values, as {@code replay} sends a
 * column of {@code gda.categorical.features}), then {@code label}; in JSON a categorical value is a string, which
 * {@code train} accepts for a categorical feature (a Bernoulli value {@code true} is the string "true", which the
 * trainer counts as the same value as the JSON boolean).
 *
 * <p>CSV follows RFC 4180 as {@code replay} reads it: a cell is quoted when it holds a comma, a double quote, a line
 * break or leading or trailing white space (which an unquoted cell loses), with {@code ""} for a quote inside.
 */
public final class EventWriter {

    /** The CSV column of the class label, after the features, unless another name is given. */
    public static final String LABEL_COLUMN = "label";

    private final Writer out;
    private final EventFormat format;
    private final List<String> features;
    private final List<String> categorical;
    private final String labelColumn;
    private final StringBuilder line = new StringBuilder();

    /**
     * A writer of events with the numeric {@code features} (in column order) to {@code out}; writes the CSV header
     * at once. A feature named {@value #LABEL_COLUMN} cannot be a CSV column beside the label: a user error.
     */
    public EventWriter(Writer out, EventFormat format, List<String> features) {
        this(out, format, features, List.of());
    }

    /**
     * A writer of events with the numeric {@code features}, then the {@code categorical} ones (their text values:
     * CSV cells, JSON strings), to {@code out}; writes the CSV header at once.
     */
    public EventWriter(Writer out, EventFormat format, List<String> features, List<String> categorical) {
        this(out, format, features, categorical, LABEL_COLUMN);
    }

    /** As {@link #EventWriter(Writer, EventFormat, List, List)}, the CSV label column named {@code labelColumn}. */
    public EventWriter(Writer out, EventFormat format, List<String> features, List<String> categorical,
                       String labelColumn) {
        this.out = out;
        this.format = format;
        this.features = List.copyOf(features);
        this.categorical = List.copyOf(categorical);
        this.labelColumn = labelColumn;
        check(format, features, labelColumn);
        check(format, categorical, labelColumn);
        if (format == EventFormat.CSV) {
            for (String name : features) {
                appendCell(name);
                line.append(',');
            }
            for (String name : categorical) {
                appendCell(name);
                line.append(',');
            }
            appendCell(labelColumn);
            flushLine();
        }
    }

    /**
     * A user error when events with {@code features} cannot be written in {@code format} beside a label column named
     * {@code labelColumn} (before a file is opened).
     */
    public static void check(EventFormat format, List<String> features, String labelColumn) {
        if (format == EventFormat.CSV && features.contains(labelColumn)) {
            throw new UserError("the model has a feature named '" + labelColumn + "', the CSV column of the class: "
                    + "use --format jsonl or another --label-column");
        }
    }

    /**
     * A user error when the events of {@code sampler} cannot be written in {@code format}: a column named like the
     * label's, or, in CSV, a categorical value that is the empty text (an empty cell reads back as a missing value).
     */
    public static void check(EventFormat format, EventSampler sampler, String labelColumn) {
        check(format, sampler.features(), labelColumn);
        check(format, sampler.categoricalFeatures(), labelColumn);
        if (format != EventFormat.CSV) {
            return;
        }
        for (int j = 0; j < sampler.categoricalFeatures().size(); j++) {
            if (sampler.categoricalValues().get(j).contains("")) {
                throw new UserError("categorical feature '" + sampler.categoricalFeatures().get(j) + "' has the "
                        + "empty value, which a CSV cell cannot carry (an empty cell is a missing value): use "
                        + "--format jsonl");
            }
        }
    }

    /** One event: its features must be exactly this writer's, all finite. */
    public void write(LabelledEvent event) {
        if (format == EventFormat.JSONL) {
            line.append(new String(EventEncoder.labelled(event), StandardCharsets.UTF_8));
        } else {
            for (String name : features) {
                line.append(Double.toString(event.features().get(name))).append(',');
            }
            for (String name : categorical) {
                appendCell(event.categories().get(name));
                line.append(',');
            }
            appendCell(event.label());
        }
        flushLine();
    }

    private void flushLine() {
        line.append('\n');
        try {
            out.write(line.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        line.setLength(0);
    }

    private void appendCell(String text) {
        boolean quote = !text.isEmpty() && (Character.isWhitespace(text.charAt(0))
                || Character.isWhitespace(text.charAt(text.length() - 1)));
        for (int i = 0; i < text.length() && !quote; i++) {
            char c = text.charAt(i);
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) {
            line.append(text);
            return;
        }
        line.append('"').append(text.replace("\"", "\"\"")).append('"');
    }
}
