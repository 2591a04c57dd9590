package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.settings.AppConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A weakened guarantee is said once at start, on the command's output and as one WARN line on the log. */
class StartupWarningsTest {

    private record Said(List<String> out, List<String> log) {
    }

    /** slf4j-simple writes to whatever System.err is at the time of the call. */
    private static Said emit(AppConfig config) {
        StringWriter out = new StringWriter();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            StartupWarnings.emit(config, "training", new PrintWriter(out, true));
        } finally {
            System.setErr(originalErr);
        }
        return new Said(out.toString().lines().toList(),
                log.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("StartupWarnings")).toList());
    }

    @Test
    void shouldSayAtLeastOnceOnceOnStdoutAndOnceAsAWarnLine() {
        Said said = emit(AppConfig.load(null, Map.of("KAFKA_STREAMS_PROCESSING_GUARANTEE", "at_least_once")));
        assertEquals(1, said.out().size(), said.out().toString());
        assertTrue(said.out().get(0).startsWith("training: WARNING: processing.guarantee=at_least_once: after a"
                + " crash"), said.out().get(0));
        assertEquals(1, said.log().size(), said.log().toString());
        assertTrue(said.log().get(0).contains("[WARN] StartupWarnings - training: processing.guarantee="
                + "at_least_once"), said.log().get(0));
    }

    @Test
    void shouldSayNothingUnderTheDefaultExactlyOnce() {
        Said said = emit(AppConfig.defaults());
        assertEquals(List.of(), said.out());
        assertEquals(List.of(), said.log());
    }
}
