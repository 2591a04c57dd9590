package io.gdastreams.model;

import java.util.Map;

/**
 * A decoded unlabelled event that arrived before any model existed, held by the scorer until the first model
 * arrives (the value of the scorer's pending store).
 *
 * @param key       the original record key, byte for byte (null when the record had none)
 * @param id        event id, else the record key as text; may be null
 * @param features  feature values by name (missing features are simply absent)
 * @param timestamp the original record timestamp, kept on the eventual output
 */
public record PendingEvent(byte[] key, String id, Map<String, Double> features, long timestamp) {
}
