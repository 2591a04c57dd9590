package io.gdastreams.model;

/**
 * A record that could not be used, with why and where it came from. Key and value are kept byte for byte
 * (base64; null when the record had none).
 */
public record DeadLetter(String reason, String topic, int partition, long offset, String keyBase64,
                         String valueBase64) {
}
