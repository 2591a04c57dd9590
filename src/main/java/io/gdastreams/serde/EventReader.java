package io.gdastreams.serde;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fast path of {@link EventDecoder} for events whose feature names are known in advance (the training schema,
 * a model's features): one streaming pass over the bytes that writes each value straight into a {@code double[]}
 * in layout order, with no tree, no boxing and no map.
 *
 * <p>It only ever <em>accepts</em>. Whenever an event is anything but a plain valid event of this layout (malformed,
 * a wrong type, a bound exceeded, a feature outside the layout, a missing one, a label or value that breaks a
 * rule) it answers false and the caller decodes the event with {@link EventDecoder}, whose refusal and reason are
 * then the ones reported. So the reasons live in one place, and an event accepted here is exactly one
 * {@link EventDecoder} would accept, with the same values to the bit ({@code EventReaderParityTest} checks both
 * over many generated and mutated events). The parser is the project mapper's (same number parsing and bounds),
 * without its duplicate detector: duplicates are found here, see {@link #parser}; trailing tokens are refused as
 * there.
 *
 * <p>Before the parser, the plainest events (no layout of categorical features, no other root field, ASCII strings
 * without escapes) are read straight from their bytes by {@link EventScanner}, which accepts less still and leaves
 * everything else to this reader's Jackson path.
 *
 * <p>A reader is immutable (one per schema or model version); an {@link EventFields} belongs to one thread.
 */
public final class EventReader {

    /** Where a value of the layout goes. */
    private record Slot(boolean categorical, int index) {
    }

    /** The continuous features, in layout order (a value's index in {@link EventFields#point}). */
    private final String[] continuous;
    /** The categorical features, in layout order (a value's index in {@link EventFields#categories}). */
    private final String[] categorical;
    private final Map<String, Slot> slots;
    private final int maxFeatures;
    /** False when a layout name could never be accepted (then {@link EventDecoder} decides every event). */
    private final boolean usable;
    /** Reads the plainest events without Jackson; null when the layout has categorical features. */
    private final EventScanner scanner;

    /**
     * A reader of events with exactly these {@code continuous} and {@code categorical} features (labelled), or a
     * subset of {@code continuous} (unlabelled); {@code maxFeatures} is {@code gda.max.features}.
     */
    public EventReader(List<String> continuous, List<String> categorical, int maxFeatures) {
        this.continuous = continuous.toArray(String[]::new);
        this.categorical = categorical.toArray(String[]::new);
        this.maxFeatures = maxFeatures;
        this.slots = new HashMap<>();
        boolean ok = !continuous.isEmpty();
        for (int i = 0; i < this.continuous.length; i++) {
            ok &= validName(this.continuous[i]) && slots.put(this.continuous[i], new Slot(false, i)) == null;
        }
        for (int j = 0; j < this.categorical.length; j++) {
            ok &= validName(this.categorical[j]) && slots.put(this.categorical[j], new Slot(true, j)) == null;
        }
        this.usable = ok;
        this.scanner = categorical.isEmpty() ? new EventScanner(this.continuous, maxFeatures) : null;
    }

    private static boolean validName(String name) {
        return !name.isBlank() && UnicodeText.problem(name) == null;
    }

    /** A holder for this reader's events. */
    public EventFields newFields() {
        return new EventFields(continuous.length, categorical.length);
    }

    /**
     * Reads a labelled event carrying every feature of the layout and no other into {@code out}: true, or false
     * when {@link EventDecoder#decodeLabelled} must decide (it refuses the event, or accepts a feature set other
     * than the layout, which the caller then checks as before).
     */
    public boolean readLabelled(byte[] bytes, EventFields out) {
        if (!usable || bytes == null || bytes.length == 0) {
            return false;
        }
        if (scanner != null && scanner.readLabelled(bytes, out)) {
            return true;
        }
        if (Utf8.problem(bytes) != null) {
            return false; // Jackson would decode some ill-formed sequences: the decoder refuses them
        }
        try (JsonParser p = EventTokens.parser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            String label = null;
            double weight = 1.0;
            boolean retract = false;
            boolean features = false;
            int seen = 0;
            out.skipped.clear();
            for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
                JsonToken value = p.nextToken();
                int bit = switch (field) {
                    case "label" -> 1;
                    case "features" -> 2;
                    case "weight" -> 4;
                    case "retract" -> 8;
                    default -> 0;
                };
                if ((seen & bit) != 0) {
                    return false;
                }
                seen |= bit;
                switch (field) {
                    case "label" -> {
                        if (value != JsonToken.VALUE_STRING) {
                            return false;
                        }
                        label = p.getText();
                    }
                    case "features" -> {
                        if (value != JsonToken.START_OBJECT || !readFeatures(p, out, false)) {
                            return false;
                        }
                        features = true;
                    }
                    case "weight" -> {
                        if (!value.isNumeric()) {
                            return false;
                        }
                        weight = p.getDoubleValue();
                        if (!WeightLiteral.accepts(weight, p)) {
                            return false; // negative, too small (1e-400 reads as 0), too large or not finite
                        }
                    }
                    case "retract" -> {
                        if (value != JsonToken.VALUE_TRUE && value != JsonToken.VALUE_FALSE) {
                            return false;
                        }
                        retract = value == JsonToken.VALUE_TRUE;
                    }
                    default -> {
                        // A retraction that names its event's offset is rare: the decoder reads and checks it.
                        if (field.equals(RetractsOffsetField.NAME) || !EventTokens.skippable(field, value, out, p)) {
                            return false;
                        }
                    }
                }
            }
            if (p.nextToken() != null || !features || label == null || EventDecoder.labelProblem(label) != null) {
                return false;
            }
            out.label = label;
            out.weight = weight;
            out.retract = retract;
            return out.observed == continuous.length && allCategories(out);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Reads an unlabelled event whose features are among the layout's continuous ones into {@code out}: those it
     * lacks or gives as null are NaN. False when {@link EventDecoder#decodeUnlabelled} must decide.
     */
    public boolean readUnlabelled(byte[] bytes, EventFields out) {
        if (!usable || categorical.length > 0 || bytes == null || bytes.length == 0) {
            return false;
        }
        if (scanner.readUnlabelled(bytes, out)) {
            return true;
        }
        if (Utf8.problem(bytes) != null) {
            return false; // as in readLabelled
        }
        try (JsonParser p = EventTokens.parser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            String id = null;
            boolean features = false;
            int seen = 0;
            out.skipped.clear();
            for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
                JsonToken value = p.nextToken();
                int bit = field.equals("id") ? 1 : field.equals("features") ? 2 : 0;
                if ((seen & bit) != 0) {
                    return false;
                }
                seen |= bit;
                switch (field) {
                    case "id" -> {
                        if (value == JsonToken.VALUE_STRING) {
                            id = p.getText();
                            if (UnicodeText.problem(id) != null) {
                                return false; // the decoder says why
                            }
                        } else if (value == JsonToken.VALUE_NUMBER_INT) {
                            id = EventTokens.integerText(p);
                        } else if (value == JsonToken.VALUE_NULL) {
                            id = null;
                        } else {
                            return false;
                        }
                    }
                    case "features" -> {
                        if (value != JsonToken.START_OBJECT || !readFeatures(p, out, true)) {
                            return false;
                        }
                        features = true;
                    }
                    default -> {
                        if (!EventTokens.skippable(field, value, out, p)) {
                            return false;
                        }
                    }
                }
            }
            if (p.nextToken() != null || !features || out.observed == 0) {
                return false;
            }
            out.id = id;
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Reads the features object (the parser is on its START_OBJECT); false at the first thing the layout or the
     * rules do not allow. {@code nullMeansMissing}: unlabelled events may give null for a feature they lack.
     */
    private boolean readFeatures(JsonParser p, EventFields out, boolean nullMeansMissing) throws IOException {
        Arrays.fill(out.point, Double.NaN);
        Arrays.fill(out.categories, null);
        Arrays.fill(out.seen, false);
        out.absent.clear();
        int given = 0;
        int observed = 0;
        int expected = 0; // events usually list the features in layout order: try the next name before hashing
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            JsonToken value = p.nextToken();
            if (++given > maxFeatures) {
                return false;
            }
            int index;
            boolean isCategorical;
            if (expected < continuous.length && name.equals(continuous[expected])) {
                index = expected;
                isCategorical = false;
            } else {
                Slot slot = slots.get(name);
                if (slot == null) {
                    // An unlabelled event may give null for a name the layout lacks: missing, like any null.
                    if (nullMeansMissing && value == JsonToken.VALUE_NULL && validName(name)
                            && !out.absent.contains(name)) {
                        out.absent.add(name);
                        continue;
                    }
                    return false;
                }
                index = slot.index();
                isCategorical = slot.categorical();
            }
            int seenAt = isCategorical ? continuous.length + index : index;
            if (out.seen[seenAt]) {
                return false; // a duplicate, which the decoder's parser refuses
            }
            out.seen[seenAt] = true;
            if (!isCategorical) {
                expected = index + 1;
            }
            if (value == JsonToken.VALUE_NULL && nullMeansMissing) {
                continue;
            }
            if (isCategorical) {
                String category = EventTokens.category(p, value);
                if (category == null) {
                    return false;
                }
                out.categories[index] = category;
                continue;
            }
            if (!value.isNumeric()) {
                return false;
            }
            double x = p.getDoubleValue();
            if (!(Math.abs(x) <= EventDecoder.MAX_ABS_VALUE)) {
                return false; // too large, or not finite
            }
            out.point[index] = x;
            observed++;
        }
        out.observed = observed;
        return given > 0;
    }

    private boolean allCategories(EventFields out) {
        for (String value : out.categories) {
            if (value == null) {
                return false;
            }
        }
        return true;
    }
}
