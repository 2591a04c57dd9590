package io.gdastreams.serde;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serde of the model record. Reading is strict because a scorer takes whatever record it reads as the model to
 * score with, and anyone who can write to the model topic can put a record there: a value Jackson would quietly
 * convert ({@code "version": "3"}, {@code 1.5} read as 1, a missing field read as 0 or null) is refused with the
 * reason instead. On top of the JSON types ({@link Json#strictMapper()}), a record must have no null element, a
 * version of at least 1 (the trainer's first version) and no negative count or offset. Whether the numbers make a
 * model (dimensions, symmetry, finite values) is the scorer's check when it compiles the model.
 *
 * <p>The optional fields: {@code categorical} (the category tables): a model without it, as written before
 * categorical features existed and still written for a model without them, reads as a model with none;
 * {@code retracted} (the retractions absorbed): a model without it has none; {@code resetGeneration} and
 * {@code resetDropped} (the reset generation of its statistics, the events resets dropped): a model without them is
 * of generation 0 and dropped none; and per
 * class {@code effectiveCount} with {@code effectiveSampleSize} (both or neither): a class without them is
 * unweighted (W = V = count), as every class was before sample weights and forgetting existed. The strict mapper
 * fills them in where it builds the record ({@link OptionalModelFields}), so a record is read once.
 *
 * <p>A null value (a tombstone) reads as null; the JSON literal {@code null} is invalid.
 */
public final class ModelSerde implements Serde<ModelParameters> {

    private final JsonSerde<ModelParameters> json = new JsonSerde<>(ModelParameters.class, Json.strictMapper());
    private static final ObjectReader READER = Json.strictMapper().readerFor(ModelParameters.class);

    @Override
    public Serializer<ModelParameters> serializer() {
        return json.serializer();
    }

    @Override
    public Deserializer<ModelParameters> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return read(bytes);
            } catch (IllegalArgumentException e) {
                throw new SerializationException("invalid model record from topic " + topic + ": " + e.getMessage(),
                        e.getCause());
            }
        };
    }

    /**
     * A model from its JSON (not null), read as strictly as from the topic: an IllegalArgumentException whose
     * message is the one-line reason when it is not a valid model record (a model file, {@code sample --model}).
     */
    public static ModelParameters read(byte[] bytes) {
        String invalid = Utf8.problem(bytes);
        if (invalid != null) {
            throw new IllegalArgumentException(invalid);
        }
        ModelParameters model;
        try {
            model = READER.readValue(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException(describe(e), e);
        }
        String problem = model == null ? "the value is JSON null" : problem(model);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return model;
    }

    /**
     * One line: the field (as a JSON path) or the position, then Jackson's message without its multi-line
     * location and reference chain (this text is logged and can end up in "no model yet" answers).
     */
    static String describe(IOException e) {
        if (!(e instanceof JsonProcessingException parse)) {
            return e.toString();
        }
        // Jackson suggests enabling coercion ("but might if coercion ... was enabled"): not an option here.
        String message = plain(parse, String.valueOf(parse.getOriginalMessage()).lines().findFirst().orElse("")
                .replaceFirst(" \\(but (might|could) if coercion[^)]*\\)$", ""));
        if (parse instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            StringBuilder path = new StringBuilder("$");
            for (JsonMappingException.Reference step : mapping.getPath()) {
                path.append(step.getFieldName() != null ? "." + step.getFieldName() : "[" + step.getIndex() + "]");
            }
            return path + ": " + message;
        }
        JsonLocation location = parse.getLocation();
        return location == null ? message
                : "line " + location.getLineNr() + ", column " + location.getColumnNr() + ": " + message;
    }

    /**
     * Jackson's words for the common problems in the record's own terms (they are read by whoever wrote the file,
     * not by a Java programmer: "Missing creator property 'version' (index 1); `DeserializationFeature...`
     * enabled" is a field the record lacks); any other message as Jackson gives it.
     */
    private static String plain(JsonProcessingException parse, String message) {
        if (parse instanceof UnrecognizedPropertyException) {
            return "unknown field (a model record has no such field)";
        }
        if (message.startsWith("Missing creator property")) {
            return "required field missing";
        }
        if (message.startsWith("Null value for creator property") || message.startsWith("Cannot map `null` into")) {
            return "may not be null";
        }
        Matcher wrongKind = WRONG_KIND.matcher(message);
        if (wrongKind.lookingAt()) {
            return "expected " + kind(wrongKind.group(1)) + ", found " + switch (wrongKind.group(2)) {
                case "Array" -> "an array";
                case "Object" -> "an object";
                default -> "a " + wrongKind.group(2).toLowerCase(Locale.ROOT);
            };
        }
        return message;
    }

    private static final Pattern WRONG_KIND = Pattern.compile("Cannot deserialize value of type `([^`]+)` from"
            + " ([A-Za-z]+) value");

    /** A Java type as JSON knows it. */
    private static String kind(String javaType) {
        // Jackson names a List field by the class it makes of it (java.util.ArrayList<...>).
        if (javaType.endsWith("[]") || javaType.matches("java\\.util\\.(\\w*List|Collection|\\w*Set)\\b.*")) {
            return "an array";
        }
        return switch (javaType) {
            case "double", "long", "int", "java.lang.Double", "java.lang.Long", "java.lang.Integer" -> "a number";
            case "java.lang.String" -> "a string";
            case "boolean", "java.lang.Boolean" -> "true or false";
            default -> "an object";
        };
    }

    /** What makes a parsed record unusable as a model, or null. */
    static String problem(ModelParameters model) {
        if (model.version() < 1) {
            return "version " + model.version() + " < 1";
        }
        if (model.totalCount() < 0) {
            return "negative totalCount " + model.totalCount();
        }
        if (model.retracted() < 0) {
            return "negative retracted " + model.retracted();
        }
        if (model.leftOut() < 0) {
            return "negative leftOut " + model.leftOut();
        }
        if (model.resetGeneration() < 0 || model.resetDropped() < 0) {
            return "negative resetGeneration " + model.resetGeneration() + " or resetDropped " + model.resetDropped();
        }
        try {
            Math.addExact(Math.addExact(model.totalCount(), Math.multiplyExact(2, model.retracted())),
                    Math.addExact(model.resetDropped(), model.leftOut()));
        } catch (ArithmeticException e) {
            // The events absorbed, which the lineage guard compares, would wrap around.
            return "totalCount + 2·retracted + resetDropped + leftOut overflows";
        }
        if (model.features().contains(null)) {
            return "null feature name";
        }
        String classes = classesProblem(model.classes());
        if (classes != null) {
            return classes;
        }
        String tables = tablesProblem(model);
        if (tables != null) {
            return tables;
        }
        for (Map.Entry<String, Long> source : model.sources().entrySet()) {
            if (source.getValue() == null || source.getValue() < 0) {
                return "sources: offset of partition '" + source.getKey() + "' is " + source.getValue();
            }
        }
        return null;
    }

    /** Null elements of the category tables; their shape and counts are the scorer's check (ModelConversion). */
    private static String tablesProblem(ModelParameters model) {
        for (int j = 0; j < model.categorical().size(); j++) {
            CategoricalTable table = model.categorical().get(j);
            if (table == null) {
                return "categorical table " + j + " is null";
            }
            if (table.values().contains(null)) {
                return "categorical feature '" + table.feature() + "': null value";
            }
            for (long[] row : table.counts()) {
                if (row == null) {
                    return "categorical feature '" + table.feature() + "': null counts";
                }
            }
        }
        return null;
    }

    private static boolean nonNegative(double value) {
        return Double.isFinite(value) && value >= 0;
    }

    private static String classesProblem(List<ClassParameters> classes) {
        for (int k = 0; k < classes.size(); k++) {
            ClassParameters c = classes.get(k);
            if (c == null) {
                return "class " + k + " is null";
            }
            if (c.count() < 0) {
                return "class '" + c.label() + "': negative count " + c.count();
            }
            if (c.carriesWeights() && !(nonNegative(c.effectiveCount()) && nonNegative(c.effectiveSampleSize()))) {
                return "class '" + c.label() + "': effectiveCount " + c.effectiveCount() + " and effectiveSampleSize "
                        + c.effectiveSampleSize() + " must be finite and >= 0";
            }
            for (double[] row : c.covariance()) {
                if (row == null) {
                    return "class '" + c.label() + "': null covariance row";
                }
            }
        }
        return null;
    }
}
