package io.gdastreams.serde;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.NumberOutput;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.gdastreams.model.Prediction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the common scored prediction — every class listed, the default decision rule, no imputed values, no
 * explanation, no categorical part — straight from the posterior array, without a {@link Prediction} record or a
 * map per event: the scorer's hot path. What does not change between the events of one model version (the label
 * texts, the probability field names, the model id and version, the excluded classes) is encoded once, in a
 * {@link Template}; per event only the id and five numbers are written into a buffer this writer reuses.
 *
 * <p>The bytes are those {@link PredictionWriter} writes for {@link Template#prediction} of the same arguments
 * (itself the project mapper's output): the constant parts are encoded by the mapper's own generator, a finite
 * double is written by {@link ShortestDouble} straight into the buffer (the text of the generator's fast writer,
 * {@link NumberOutput#toString(double, boolean)}), a non-finite one is that text quoted, as {@code
 * QUOTE_NON_NUMERIC_NUMBERS} does, and an id that is not plain printable ASCII is escaped by the
 * generator. {@code PosteriorWriterTest} compares the two byte for byte.
 *
 * <p>One instance per stream task (it is not thread-safe); a {@link Template} is immutable and shared.
 */
public final class PosteriorWriter {

    private static final byte[] SCORED_START = ascii("{\"status\":\"scored\"");
    private static final byte[] ID = ascii(",\"id\":");
    private static final byte[] LOG_DENSITY = ascii("},\"logDensity\":");
    private static final byte[] OUTLIER_TRUE = ascii(",\"outlier\":true");
    private static final byte[] OUTLIER_FALSE = ascii(",\"outlier\":false");
    /** A prediction of three classes and a short id is about 170 bytes; the buffer grows when needed. */
    private static final int INITIAL_CAPACITY = 512;

    private byte[] buffer = new byte[INITIAL_CAPACITY];
    private int length;

    /**
     * The JSON of {@code template.prediction(id, chosen, probabilities, logDensity, outlier)}, written without
     * building it. {@code probabilities}: p(k | x) in the template's label order; {@code chosen}: the index of the
     * predicted label; {@code id} and {@code outlier} may be null (left out).
     */
    public byte[] write(Template template, String id, int chosen, double[] probabilities, double logDensity,
                        Boolean outlier) {
        if (probabilities.length != template.names.length) {
            throw new IllegalArgumentException("expected " + template.names.length + " probabilities, got "
                    + probabilities.length);
        }
        length = 0;
        append(SCORED_START);
        if (id != null) {
            append(ID);
            string(id);
        }
        append(template.labels[chosen]);
        for (int k = 0; k < probabilities.length; k++) {
            append(template.names[k]);
            number(probabilities[k]);
        }
        append(LOG_DENSITY);
        number(logDensity);
        append(template.model);
        if (outlier != null) {
            append(outlier ? OUTLIER_TRUE : OUTLIER_FALSE);
        }
        append(template.end);
        return Arrays.copyOf(buffer, length);
    }

    private void string(String text) {
        int n = text.length();
        ensure(n + 2);
        int start = length;
        buffer[length++] = '"';
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            // Printable ASCII other than the quote and the backslash is written as is by the generator.
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                length = start;
                append(Template.quoted(text));
                return;
            }
            buffer[length++] = (byte) c;
        }
        buffer[length++] = '"';
    }

    private void number(double value) {
        if (Double.isFinite(value)) {
            ensure(ShortestDouble.MAX_LENGTH);
            length = ShortestDouble.write(value, buffer, length); // no String per number
            return;
        }
        String text = NumberOutput.toString(value, true); // NaN, Infinity, -Infinity: quoted, as the generator
        ensure(text.length() + 2);
        buffer[length++] = '"';
        for (int i = 0; i < text.length(); i++) {
            buffer[length++] = (byte) text.charAt(i);
        }
        buffer[length++] = '"';
    }

    private void append(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, length, bytes.length);
        length += bytes.length;
    }

    private void ensure(int more) {
        if (length + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The constant parts of one model version's common scored predictions, encoded once. Immutable.
     */
    public static final class Template {

        private final List<String> labelTexts;
        private final String modelId;
        private final long modelVersion;
        private final Map<String, String> excluded;
        private final Integer otherExcluded;
        /** Per class k: {@code ,"label":"<k>","probabilities":{}. */
        private final byte[][] labels;
        /** Per class k: {@code "<k>":}, with a leading comma from the second class on. */
        private final byte[][] names;
        /** {@code ,"modelId":"…","modelVersion":v} (the id part only when there is one). */
        private final byte[] model;
        /** {@code ,"excluded":{…},"otherExcluded":n} when there are excluded classes, then the closing brace. */
        private final byte[] end;

        /**
         * The template of a model with {@code labels} (the scored classes, in model order; at least one), id
         * {@code modelId} (may be null) and version {@code modelVersion}, whose predictions carry {@code excluded}
         * (label → reason; null or empty: none) and {@code otherExcluded} (null: none) as
         * {@link Prediction#scored(String, String, Map, Double, Integer, double, String, long, Boolean, Map, Integer)}
         * takes them.
         */
        public Template(List<String> labels, String modelId, long modelVersion, Map<String, String> excluded,
                        Integer otherExcluded) {
            if (labels.isEmpty()) {
                throw new IllegalArgumentException("a scored prediction needs at least one class");
            }
            this.labelTexts = List.copyOf(labels);
            this.modelId = modelId;
            this.modelVersion = modelVersion;
            this.excluded = excluded == null || excluded.isEmpty() ? null : new LinkedHashMap<>(excluded);
            this.otherExcluded = otherExcluded;
            int n = labelTexts.size();
            this.labels = new byte[n][];
            this.names = new byte[n][];
            for (int k = 0; k < n; k++) {
                String label = labelTexts.get(k);
                this.labels[k] = concat(ascii(",\"label\":"), quoted(label), ascii(",\"probabilities\":{"));
                this.names[k] = concat(ascii(k == 0 ? "" : ","), fieldName(label), ascii(":"));
            }
            byte[] id = modelId == null ? new byte[0] : concat(ascii(",\"modelId\":"), quoted(modelId));
            this.model = concat(id, ascii(",\"modelVersion\":" + NumberOutput.toString(modelVersion)));
            byte[] excludedPart = new byte[0];
            if (this.excluded != null) {
                excludedPart = ascii(",\"excluded\":{");
                boolean first = true;
                for (Map.Entry<String, String> entry : this.excluded.entrySet()) {
                    excludedPart = concat(excludedPart, ascii(first ? "" : ","), fieldName(entry.getKey()),
                            ascii(":"), quoted(entry.getValue()));
                    first = false;
                }
                excludedPart = concat(excludedPart, ascii("}"));
                if (otherExcluded != null) {
                    excludedPart = concat(excludedPart, ascii(",\"otherExcluded\":" + otherExcluded));
                }
            }
            this.end = concat(excludedPart, ascii("}"));
        }

        /** The classes, in the order of the probabilities {@link PosteriorWriter#write} takes. */
        public List<String> labels() {
            return labelTexts;
        }

        /**
         * The record {@link PosteriorWriter#write} writes for these arguments (for the callers that need the record
         * rather than its bytes: the HTTP scorer, the observers of an answer, tests).
         */
        public Prediction prediction(String id, int chosen, double[] probabilities, double logDensity,
                                     Boolean outlier) {
            Map<String, Double> listed = new LinkedHashMap<>(probabilities.length * 4 / 3 + 1);
            for (int k = 0; k < probabilities.length; k++) {
                listed.put(labelTexts.get(k), probabilities[k]);
            }
            return Prediction.scored(id, labelTexts.get(chosen), listed, null, null, logDensity, modelId,
                    modelVersion, outlier, excluded, otherExcluded);
        }

        /** {@code text} as the mapper's generator writes a string value, quotes included. */
        static byte[] quoted(String text) {
            return generated(g -> g.writeString(text), 0, 0);
        }

        /** {@code text} as the mapper's generator writes a field name, quotes included. */
        private static byte[] fieldName(String text) {
            // Written as the only field of an object, {"…":0}: the name is what lies between '{' and ":0}".
            return generated(g -> {
                g.writeStartObject();
                g.writeFieldName(text);
                g.writeNumber(0);
                g.writeEndObject();
            }, 1, 3);
        }

        private interface Writing {
            void write(JsonGenerator g) throws IOException;
        }

        private static byte[] generated(Writing writing, int skipStart, int skipEnd) {
            try (ByteArrayBuilder bytes = new ByteArrayBuilder()) {
                try (JsonGenerator g = Json.mapper().createGenerator(bytes, JsonEncoding.UTF8)) {
                    writing.write(g);
                }
                byte[] all = bytes.toByteArray();
                return Arrays.copyOfRange(all, skipStart, all.length - skipEnd);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static byte[] concat(byte[]... parts) {
            int n = 0;
            for (byte[] part : parts) {
                n += part.length;
            }
            byte[] all = new byte[n];
            int at = 0;
            for (byte[] part : parts) {
                System.arraycopy(part, 0, all, at, part.length);
                at += part.length;
            }
            return all;
        }
    }
}
