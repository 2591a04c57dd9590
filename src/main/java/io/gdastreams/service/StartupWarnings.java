package io.gdastreams.service;

import io.gdastreams.settings.AppConfig;
import java.io.PrintWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settings that are valid but weaken a guarantee ({@link AppConfig#warnings()}), said once when a command
 * starts: as a WARN line on the log (where operators of a service look) and as a line on the command's own
 * output (where the person who started it looks).
 */
public final class StartupWarnings {

    private static final Logger LOG = LoggerFactory.getLogger(StartupWarnings.class);

    private StartupWarnings() {
    }

    public static void emit(AppConfig config, String role, PrintWriter out) {
        for (String warning : config.warnings()) {
            LOG.warn("{}: {}", role, warning);
            out.println(role + ": WARNING: " + warning);
        }
        out.flush();
    }
}
