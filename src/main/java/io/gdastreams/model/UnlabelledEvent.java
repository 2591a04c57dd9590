package io.gdastreams.model;

import java.util.Map;

/** An event to classify; {@code id} may be null (the record key is used then). */
public record UnlabelledEvent(String id, Map<String, Double> features) {
}
