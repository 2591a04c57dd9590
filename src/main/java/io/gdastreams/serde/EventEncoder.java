package io.gdastreams.serde;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.model.LabelledEvent;
import java.util.Map;

/**
 * Records → the JSON of the event topics, the inverse of {@link EventDecoder}: {@code {"features": {"name":
 * number, ..., "categorical name": "value", ...}, "label": "..."}} (README, "Topics"). The numeric features are
 * written in the map's iteration order, numbers as the shortest decimal that reads back as the same double, so what
 * is written is exactly what is decoded; then the categorical values as JSON strings, as a trainer with those
 * features in {@code gda.categorical.features} reads them.
 */
public final class EventEncoder {

    private EventEncoder() {
    }

    /** One labelled event as UTF-8 JSON; its features must be finite (the decoder refuses anything else). */
    public static byte[] labelled(LabelledEvent event) {
        ObjectNode root = Json.mapper().createObjectNode();
        ObjectNode features = root.putObject("features");
        for (Map.Entry<String, Double> feature : event.features().entrySet()) {
            features.put(feature.getKey(), feature.getValue());
        }
        for (Map.Entry<String, String> category : event.categories().entrySet()) {
            features.put(category.getKey(), category.getValue());
        }
        root.put("label", event.label());
        return Json.toBytes(root);
    }
}
