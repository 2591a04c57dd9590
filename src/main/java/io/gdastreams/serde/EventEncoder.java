package io.gdastreams.serde;

import io.gdastreams.model.LabelledEvent;

/**
 * Records → the JSON of the event topics, the inverse of {@link EventDecoder}: {@code {"features": {"name":
 * number, ...}, "label": "..."}} (README, "Topics"). Features are written in the map's iteration order; numbers as
 * the shortest decimal that reads back as the same double, so what is written is exactly what is decoded.
 */
public final class EventEncoder {

    private EventEncoder() {
    }

    /** One labelled event as UTF-8 JSON; its features must be finite (the decoder refuses anything else). */
    public static byte[] labelled(LabelledEvent event) {
        return Json.toBytes(event);
    }
}
