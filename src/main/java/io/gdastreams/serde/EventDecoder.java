package io.gdastreams.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.UnlabelledEvent;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads untrusted event bytes into validated events, or says precisely what is wrong with them. Feature
 * order is preserved as written (the first labelled event can fix the schema). Labels and feature names must be
 * valid Unicode ({@link UnicodeText}): they are written as UTF-8 downstream, where an unpaired surrogate is lost.
 */
public final class EventDecoder {

    /**
     * Why a JSON number is not finite: the parser refuses NaN and Infinity tokens, so only a literal beyond the range
     * of a double (1e400) gets here, and it reads as Infinity, which the reason would otherwise quote.
     */
    private static final String OVERFLOW = "it overflows a double (magnitude above 1.8e308)";

    /**
     * Values beyond this magnitude are refused. The scatter matrix sums n products of deviations up to 2·10¹⁰⁰,
     * so it stays finite for any count below ~10¹⁰⁸; at 10¹⁵⁰ about 2·10⁸ events would overflow it and turn a
     * class's statistics into ±Inf/NaN for good.
     */
    public static final double MAX_ABS_VALUE = 1e100;

    /**
     * Largest sample weight. With values up to {@link #MAX_ABS_VALUE} a scatter entry grows by at most
     * w·4·10²⁰⁰ per event and V = Σw² by w²; at 10¹² both stay finite for any realistic count (below ~10⁹⁵).
     */
    public static final double MAX_WEIGHT = 1e12;

    /**
     * Smallest positive sample weight. The statistics keep V = Σw²: below ~10⁻¹⁵⁴ a weight's square underflows (and
     * V with it, so a class of such weights had an effective sample size of 0); from 10⁻¹⁰⁰ the squares stay normal
     * doubles with room for decay.
     */
    public static final double MIN_POSITIVE_WEIGHT = 1e-100;

    /** Whether {@code w} is a sample weight: 0, or in [{@link #MIN_POSITIVE_WEIGHT}, {@link #MAX_WEIGHT}]. */
    public static boolean isWeight(double w) {
        return w == 0.0 || (w >= MIN_POSITIVE_WEIGHT && w <= MAX_WEIGHT); // NaN fails both
    }

    /**
     * Longest label (UTF-16 characters). A label is repeated in every model and prediction, once per class; this
     * bound (with no control characters, which JSON would escape to 6 bytes) keeps a prediction of
     * {@code gda.max.classes} classes within a broker record.
     */
    public static final int MAX_LABEL_CHARS = 256;

    /**
     * Default of {@code gda.max.features}: the most features an event may carry (declared, with its reason, in
     * {@link ConfigKey#MAX_FEATURES}). The bound is checked before anything else looks at the features.
     */
    public static final int DEFAULT_MAX_FEATURES = ConfigValues.DEFAULTS.intValue(ConfigKey.MAX_FEATURES);

    /** The configuration key of the feature bound, named in the reason of a refused event. */
    public static final String MAX_FEATURES_KEY = ConfigKey.MAX_FEATURES.key();

    private EventDecoder() {
    }

    /** As {@link #decodeLabelled(byte[], int)} with the default feature bound {@link #DEFAULT_MAX_FEATURES}. */
    public static Decoded<LabelledEvent> decodeLabelled(byte[] bytes) {
        return decodeLabelled(bytes, DEFAULT_MAX_FEATURES);
    }

    /** A labelled event of at most {@code maxFeatures} features ({@code gda.max.features}), or why not. */
    public static Decoded<LabelledEvent> decodeLabelled(byte[] bytes, int maxFeatures) {
        return decodeLabelled(bytes, maxFeatures, Set.of());
    }

    /**
     * A labelled event of at most {@code maxFeatures} features, whose features named in {@code categorical}
     * ({@code gda.categorical.features}) carry a JSON string or boolean and the others a number; or why not.
     */
    public static Decoded<LabelledEvent> decodeLabelled(byte[] bytes, int maxFeatures, Set<String> categorical) {
        Decoded<JsonNode> root = parseObject(bytes);
        if (!root.isOk()) {
            return Decoded.failed(root.error());
        }
        JsonNode labelNode = root.value().get("label");
        if (labelNode == null || labelNode.isNull()) {
            return Decoded.failed("missing label");
        }
        if (!labelNode.isTextual()) {
            return Decoded.failed("label must be a JSON string, got " + labelNode.getNodeType().name().toLowerCase());
        }
        String label = labelNode.textValue();
        String problem = labelProblem(label);
        if (problem != null) {
            return Decoded.failed(problem);
        }
        Map<String, String> categories = categorical.isEmpty() ? Map.of() : new LinkedHashMap<>();
        Decoded<Map<String, Double>> features = readFeatures(root.value(), false, maxFeatures, categorical,
                categories);
        if (!features.isOk()) {
            return Decoded.failed(features.error());
        }
        JsonNode weightNode = root.value().get("weight");
        double weight = LabelledEvent.DEFAULT_WEIGHT;
        if (weightNode != null) {
            String weightProblem = weightProblem(weightNode, bytes);
            if (weightProblem != null) {
                return Decoded.failed(weightProblem);
            }
            weight = weightNode.doubleValue();
        }
        JsonNode retractNode = root.value().get("retract");
        if (retractNode != null && !retractNode.isBoolean()) {
            return Decoded.failed("retract must be true or false, got " + abbreviate(retractNode.toString()));
        }
        boolean retract = retractNode != null && retractNode.booleanValue();
        JsonNode offsetNode = root.value().get(RetractsOffsetField.NAME);
        String offsetProblem = offsetNode == null ? null : RetractsOffsetField.problem(offsetNode, retract);
        if (offsetProblem != null) {
            return Decoded.failed(offsetProblem);
        }
        long retractsOffset = offsetNode == null ? LabelledEvent.NO_OFFSET : offsetNode.longValue();
        return Decoded.ok(new LabelledEvent(features.value(), label, categories, weight, retract, retractsOffset));
    }

    /** Why {@code node} cannot be a sample weight ({@link #isWeight}), or null. */
    private static String weightProblem(JsonNode node, byte[] bytes) {
        if (!node.isNumber()) {
            return "weight must be a number, got " + abbreviate(node.toString());
        }
        double w = node.doubleValue();
        if (!Double.isFinite(w)) {
            return "weight is not finite: " + OVERFLOW;
        }
        if (w < 0) {
            return "weight is negative: " + abbreviate(node.toString());
        }
        if (w > MAX_WEIGHT) {
            return "weight exceeds " + MAX_WEIGHT + ": " + abbreviate(node.toString());
        }
        if (w == 0.0 && !WeightLiteral.writtenAsZero(bytes)) {
            return "weight is below " + MIN_POSITIVE_WEIGHT + " and not 0: the number written underflows a double";
        }
        if (!isWeight(w)) {
            return "weight is below " + MIN_POSITIVE_WEIGHT + " and not 0: " + abbreviate(node.toString());
        }
        return null;
    }

    /**
     * Why {@code label} cannot be a class label, or null when it can: blank, not valid Unicode, longer than
     * {@link #MAX_LABEL_CHARS} or containing a control character. The scorer applies the same rules to the labels
     * of a model it reads, so that the size bound of a prediction holds for any model it accepts.
     */
    public static String labelProblem(String label) {
        if (label.isBlank()) {
            return "label is blank";
        }
        String unicode = UnicodeText.problem(label);
        if (unicode != null) {
            return "label is not valid Unicode: " + unicode;
        }
        if (label.length() > MAX_LABEL_CHARS) {
            return "label too long: " + label.length() + " characters > " + MAX_LABEL_CHARS + ": "
                    + abbreviate(label);
        }
        // Every ISO control character is in the BMP (and no surrogate is one): a char loop finds the first one, as a
        // code-point scan would, without the stream this check used to allocate per event.
        for (int i = 0; i < label.length(); i++) {
            if (Character.isISOControl(label.charAt(i))) {
                return String.format("label contains a control character (U+%04X)", (int) label.charAt(i));
            }
        }
        return null;
    }

    /** As {@link #decodeUnlabelled(byte[], int)} with the default feature bound {@link #DEFAULT_MAX_FEATURES}. */
    public static Decoded<UnlabelledEvent> decodeUnlabelled(byte[] bytes) {
        return decodeUnlabelled(bytes, DEFAULT_MAX_FEATURES);
    }

    /**
     * An unlabelled event of at most {@code maxFeatures} features, or why not. Unlabelled events may give a
     * feature as JSON null: it is then treated as missing (marginalised), and still counts towards the bound.
     */
    public static Decoded<UnlabelledEvent> decodeUnlabelled(byte[] bytes, int maxFeatures) {
        return decodeUnlabelled(bytes, maxFeatures, Set.of());
    }

    /**
     * As {@link #decodeUnlabelled(byte[], int)}, with the features named in {@code categorical} read as a JSON string
     * or boolean (null: missing).
     */
    public static Decoded<UnlabelledEvent> decodeUnlabelled(byte[] bytes, int maxFeatures, Set<String> categorical) {
        Decoded<JsonNode> root = parseObject(bytes);
        if (!root.isOk()) {
            return Decoded.failed(root.error());
        }
        JsonNode idNode = root.value().get("id");
        if (idNode != null && !idNode.isNull() && !idNode.isTextual() && !idNode.isIntegralNumber()) {
            return Decoded.failed("id must be a string or an integer");
        }
        if (idNode != null && idNode.isTextual() && UnicodeText.problem(idNode.textValue()) != null) {
            // Echoed in the answer, where an unpaired surrogate would be written as '?' or refused downstream.
            return Decoded.failed("id is not valid Unicode: " + UnicodeText.problem(idNode.textValue()));
        }
        String id = idOf(root.value());
        Map<String, String> categories = categorical.isEmpty() ? Map.of() : new LinkedHashMap<>();
        Decoded<Map<String, Double>> features = readFeatures(root.value(), true, maxFeatures, categorical,
                categories);
        if (!features.isOk()) {
            return Decoded.failed(features.error(), id); // the answer to it still names the event
        }
        return Decoded.ok(new UnlabelledEvent(id, features.value(), categories));
    }

    /** The event's id (a string, or an integer as its digits), or null when it has none it can be known by. */
    private static String idOf(JsonNode root) {
        JsonNode id = root.get("id");
        return id != null && (id.isTextual() || id.isIntegralNumber()) ? id.asText() : null;
    }

    private static Decoded<JsonNode> parseObject(byte[] bytes) {
        if (bytes == null) {
            return Decoded.failed("null value (tombstone) where an event was expected");
        }
        if (bytes.length == 0) {
            return Decoded.failed("empty value");
        }
        String invalid = Utf8.problem(bytes);
        if (invalid != null) {
            return Decoded.failed("malformed JSON: " + invalid);
        }
        JsonNode node;
        try {
            node = Json.mapper().readTree(bytes);
        } catch (JsonProcessingException e) {
            return Decoded.failed("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            return Decoded.failed("unreadable value: " + e.getMessage());
        }
        if (node == null || node.isMissingNode()) {
            return Decoded.failed("empty value");
        }
        if (!node.isObject()) {
            return Decoded.failed("expected a JSON object, got " + node.getNodeType().name().toLowerCase());
        }
        return Decoded.ok(node);
    }

    /** Reads the continuous features; the categorical ones (named in {@code categorical}) go to {@code categories}. */
    private static Decoded<Map<String, Double>> readFeatures(JsonNode root, boolean nullMeansMissing,
                                                            int maxFeatures, Set<String> categorical,
                                                            Map<String, String> categories) {
        JsonNode node = root.get("features");
        if (node == null || node.isNull()) {
            return Decoded.failed("missing features");
        }
        if (!node.isObject()) {
            return Decoded.failed("features must be a JSON object of name → number");
        }
        if (node.isEmpty()) {
            return Decoded.failed("features is empty");
        }
        if (node.size() > maxFeatures) {
            return Decoded.failed("too many features: " + node.size() + " > " + maxFeatures + " ("
                    + MAX_FEATURES_KEY + ")");
        }
        // Sized for every field up front: growing a 16-entry map twice showed up as HashMap.resize in JFR.
        Map<String, Double> features = new LinkedHashMap<>(node.size() * 4 / 3 + 1);
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String name = field.getKey();
            JsonNode value = field.getValue();
            if (name.isBlank()) {
                return Decoded.failed("blank feature name");
            }
            // Jackson's byte parser refuses an unpaired surrogate in a field name as malformed JSON today (unlike
            // in a string value); checked here as well so that the guarantee does not hang on the parser.
            String unicode = UnicodeText.problem(name);
            if (unicode != null) {
                return Decoded.failed("feature name is not valid Unicode: " + unicode);
            }
            if (value.isNull() && nullMeansMissing) {
                continue;
            }
            if (categorical.contains(name)) {
                String problem = categoryProblem(name, value);
                if (problem != null) {
                    return Decoded.failed(problem);
                }
                categories.put(name, value.isBoolean() ? Boolean.toString(value.booleanValue()) : value.textValue());
                continue;
            }
            if (!value.isNumber()) {
                return Decoded.failed("feature '" + abbreviate(name) + "' is not a number: "
                        + abbreviate(value.toString()));
            }
            double x = value.doubleValue();
            if (!Double.isFinite(x)) {
                return Decoded.failed("feature '" + abbreviate(name) + "' is not finite: " + OVERFLOW);
            }
            if (Math.abs(x) > MAX_ABS_VALUE) {
                return Decoded.failed("feature '" + abbreviate(name) + "' magnitude exceeds " + MAX_ABS_VALUE
                        + " (its square would overflow): " + abbreviate(value.toString()));
            }
            features.put(name, x);
        }
        if (features.isEmpty() && categories.isEmpty()) {
            return Decoded.failed("every feature is null");
        }
        return Decoded.ok(features);
    }

    /**
     * Why {@code value} cannot be the value of categorical feature {@code name}, or null. A value is a JSON string or
     * boolean (read as "true"/"false"); like a label it is repeated in the model and in predictions, so it follows
     * the label's rules of length, Unicode and control characters (an empty string is a value).
     */
    private static String categoryProblem(String name, JsonNode value) {
        if (value.isBoolean()) {
            return null;
        }
        if (!value.isTextual()) {
            return "feature '" + abbreviate(name) + "' is categorical (" + ConfigKey.CATEGORICAL_FEATURES.key()
                    + ") but its value is " + (value.isNumber() ? "a number" : "not a string or boolean") + ": "
                    + abbreviate(value.toString());
        }
        String problem = categoryTextProblem(value.textValue());
        return problem == null ? null : "value of categorical feature '" + abbreviate(name) + "': " + problem;
    }

    /** Why {@code text} cannot be a categorical value (the rules of a label, but blank is allowed), or null. */
    static String categoryTextProblem(String text) {
        String problem = text.isEmpty() ? null : labelProblem(text);
        return problem == null || problem.equals("label is blank") ? null : problem.replace("label", "value");
    }

    private static String abbreviate(String text) {
        return UnicodeText.cut(text, 64);
    }
}
