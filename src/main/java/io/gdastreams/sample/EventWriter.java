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
 * <p>CSV follows RFC 4180 as {@code replay} reads it: a cell is quoted when it holds a comma, a double quote, a line
 * break or leading or trailing white space (which an unquoted cell loses), with {@code ""} for a quote inside.
 */
public final class EventWriter {

    /** The CSV column of the class label, after the features. */
    public static final String LABEL_COLUMN = "label";

    private final Writer out;
    private final EventFormat format;
    private final List<String> features;
    private final StringBuilder line = new StringBuilder();

    /**
     * A writer of events with {@code features} (in column order) to {@code out}; writes the CSV header at once. A
     * feature named {@value #LABEL_COLUMN} cannot be a CSV column beside the label: a user error.
     */
    public EventWriter(Writer out, EventFormat format, List<String> features) {
        this.out = out;
        this.format = format;
        this.features = List.copyOf(features);
        check(format, features);
        if (format == EventFormat.CSV) {
            for (String name : features) {
                appendCell(name);
                line.append(',');
            }
            appendCell(LABEL_COLUMN);
            flushLine();
        }
    }

    /** A user error when events with {@code features} cannot be written in {@code format} (before a file is opened). */
    public static void check(EventFormat format, List<String> features) {
        if (format == EventFormat.CSV && features.contains(LABEL_COLUMN)) {
            throw new UserError("the model has a feature named '" + LABEL_COLUMN + "', the CSV column of the class: "
                    + "use --format jsonl");
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
