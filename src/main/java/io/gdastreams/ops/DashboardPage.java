package io.gdastreams.ops;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The dashboard at {@code GET /}: one HTML page and one script of our own (plain JavaScript, SVG and canvas, no
 * library and no build step), shipped as resources of the jar beside this class. The page polls
 * {@code /api/summary} ({@link DashboardSummary}) and {@code /api/regions} ({@link DecisionRegions}).
 */
final class DashboardPage {

    static final OpsServer.Reply HTML = new OpsServer.Reply(200, "text/html; charset=utf-8",
            resource("dashboard.html"));
    static final OpsServer.Reply SCRIPT = new OpsServer.Reply(200, "text/javascript; charset=utf-8",
            resource("dashboard.js"));

    private DashboardPage() {
    }

    private static byte[] resource(String name) {
        try (InputStream in = DashboardPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
