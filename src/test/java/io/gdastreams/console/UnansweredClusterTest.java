package io.gdastreams.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.RunFailure;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * consume and produce against a cluster that does not answer (port 9, discard, where nothing listens): both say so
 * in the same words within about their --timeout. Before, produce answered after Kafka's default 60 s admin close,
 * and consume with Kafka's "Timeout expired while fetching topic metadata".
 */
class UnansweredClusterTest {

    private static final String NOWHERE = "127.0.0.1:9";
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** The timeout plus a client's start and close, far below the 60 s the admin close waited. */
    private static final Duration BOUND = Duration.ofSeconds(15);

    private static Properties client() {
        Properties client = new Properties();
        client.setProperty("bootstrap.servers", NOWHERE);
        return client;
    }

    @Test
    void consumeShouldSayNoAnswerWithinItsTimeout() {
        long start = System.nanoTime();
        RunFailure e = assertThrows(RunFailure.class, () -> TopicPrinter.run(new TopicPrinter.Request("t", false,
                false, 0, null, NOWHERE, client(), TIMEOUT), new PrintWriter(new StringWriter())));
        assertEquals("no answer from 127.0.0.1:9 within 1 s", e.getMessage());
        assertTrue(System.nanoTime() - start < BOUND.toNanos(), "took " + (System.nanoTime() - start) / 1e9 + " s");
    }

    @Test
    void produceShouldSayNoAnswerWithinItsTimeout() {
        long start = System.nanoTime();
        RunFailure e = assertThrows(RunFailure.class, () -> LineProducer.run(new BufferedReader(new StringReader(
                "{}\n")), "t", null, NOWHERE, client(), TIMEOUT));
        assertEquals("no answer from 127.0.0.1:9 within 1 s", e.getMessage());
        assertTrue(System.nanoTime() - start < BOUND.toNanos(), "took " + (System.nanoTime() - start) / 1e9 + " s");
    }
}
