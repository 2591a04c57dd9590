package io.gdastreams.app;

/** Invalid configuration: the message names the key, the offending value and where it came from. */
public final class ConfigException extends UserError {

    public ConfigException(String message) {
        super(message);
    }
}
