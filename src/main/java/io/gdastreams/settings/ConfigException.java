package io.gdastreams.settings;

import io.gdastreams.lifecycle.UserError;

/** Invalid configuration: the message names the key, the offending value and where it came from. */
public final class ConfigException extends UserError {

    public ConfigException(String message) {
        super(message);
    }
}
