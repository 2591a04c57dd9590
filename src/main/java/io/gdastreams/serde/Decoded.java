package io.gdastreams.serde;

import java.util.Objects;

/**
 * Either a decoded value or the reason it could not be decoded (never both); a refusal may carry the id the value
 * gave itself when that much could still be read ({@code id}, else null), so that an answer to it names the event.
 */
public record Decoded<T>(T value, String error, String id) {

    public Decoded {
        if ((value == null) == (error == null)) {
            throw new IllegalArgumentException("exactly one of value and error must be set");
        }
    }

    public static <T> Decoded<T> ok(T value) {
        return new Decoded<>(Objects.requireNonNull(value), null, null);
    }

    public static <T> Decoded<T> failed(String error) {
        return failed(error, null);
    }

    /** A refusal of a value whose own id ({@code id}, may be null) could still be read. */
    public static <T> Decoded<T> failed(String error, String id) {
        return new Decoded<>(null, Objects.requireNonNull(error), id);
    }

    public boolean isOk() {
        return value != null;
    }
}
