package io.gdastreams.serde;

import java.util.Objects;

/** Either a decoded value or the reason it could not be decoded (never both). */
public record Decoded<T>(T value, String error) {

    public Decoded {
        if ((value == null) == (error == null)) {
            throw new IllegalArgumentException("exactly one of value and error must be set");
        }
    }

    public static <T> Decoded<T> ok(T value) {
        return new Decoded<>(Objects.requireNonNull(value), null);
    }

    public static <T> Decoded<T> failed(String error) {
        return new Decoded<>(null, Objects.requireNonNull(error));
    }

    public boolean isOk() {
        return value != null;
    }
}
