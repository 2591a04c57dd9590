package io.gdastreams.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The published JSON Schemas of docs/schemas/, loaded from the checkout (the files users read, not copies), and a
 * validator (draft 2020-12) that says what is wrong with an instance.
 */
final class JsonSchemas {

    static final Path DIR = Path.of("docs/schemas");
    static final String LABELLED_EVENT = "labelled-event";
    static final String UNLABELLED_EVENT = "unlabelled-event";
    static final String MODEL = "model";
    static final String PREDICTION = "prediction";
    static final String DEAD_LETTER = "dead-letter";
    static final String MODEL_METRICS = "model-metrics";
    static final List<String> ALL = List.of(LABELLED_EVENT, UNLABELLED_EVENT, MODEL, PREDICTION, DEAD_LETTER,
            MODEL_METRICS);

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private JsonSchemas() {
    }

    /** The text of docs/schemas/NAME.schema.json as a tree. */
    static JsonNode document(String name) {
        try {
            return Json.mapper().readTree(Files.readAllBytes(DIR.resolve(name + ".schema.json")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Schema schema(String name) {
        return REGISTRY.getSchema(document(name));
    }

    /** The 2020-12 meta-schema (bundled with the validator: no network). */
    static Schema metaSchema() {
        return REGISTRY.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()));
    }

    /** What schema NAME finds wrong with {@code instance}; empty when it is valid. */
    static List<String> problems(String name, JsonNode instance) {
        return problems(schema(name), instance);
    }

    static List<String> problems(Schema schema, JsonNode instance) {
        return schema.validate(instance).stream().map(Error::toString).toList();
    }

    static JsonNode parse(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
