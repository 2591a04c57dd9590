package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringFixtures.MODEL_ID;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.HostileRecords;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event held until a model exists is answered with its record headers, as an event scored at once is (a trace id
 * must not depend on when the model came): kept in the held entry within the bound every output keeps.
 */
class HeldEventHeadersTest {

    private static final byte[] TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            .getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    @Test
    void shouldAnswerAHeldEventWithTheHeadersItCameWith() {
        try (ScoringHarness h = new ScoringHarness(ScoringSettings.defaults(MODEL_ID), dir)) {
            byte[] event = HostileRecords.validEvent(Iris.rows().get(0).x(), null);
            h.send("traced", event, new RecordHeaders().add("traceparent", TRACE).add("flag", null));
            h.send("huge", event, new RecordHeaders().add("blob", new byte[1 << 20]));
            h.send("plain", event, new RecordHeaders());
            h.send("unknown", "{\"features\": {\"no_such_feature\": 1.0}}".getBytes(StandardCharsets.UTF_8),
                    new RecordHeaders().add("traceparent", TRACE));
            assertEquals(List.of(), h.predictionRecords(), "held: no model yet");

            h.publish(irisModel(1));
            h.send("after", event, new RecordHeaders().add("traceparent", TRACE));
            List<TestRecord<byte[], Prediction>> answers = h.predictionRecords();
            assertEquals(List.of("traced", "huge", "plain", "unknown", "after"), answers.stream()
                    .map(r -> new String(r.key(), StandardCharsets.UTF_8)).toList());
            assertEquals(List.of(Prediction.Status.SCORED, Prediction.Status.SCORED, Prediction.Status.SCORED,
                    Prediction.Status.UNSCORED, Prediction.Status.SCORED),
                    answers.stream().map(r -> r.value().status()).toList());
            assertHeaders(answers.get(0).headers(), "traceparent", TRACE, "flag", null);
            assertHeaders(answers.get(1).headers()); // over the bound: none, as for an event scored at once
            assertHeaders(answers.get(2).headers());
            assertHeaders(answers.get(3).headers(), "traceparent", TRACE);
            assertHeaders(answers.get(4).headers(), "traceparent", TRACE);
            List<TestRecord<byte[], DeadLetter>> letters = h.deadLetterRecords();
            assertEquals(1, letters.size());
            assertHeaders(letters.get(0).headers(), "traceparent", TRACE);
        }
    }

    @Test
    void shouldKeepTheHeadersInTheHeldEntryAndNothingForNone() {
        List<PendingEvent.Header> kept = HeldEvents.keptHeaders(new RecordHeaders().add("a", new byte[] {1, 2})
                .add("a", null).add("é", new byte[0]));
        PendingEvent entry = new PendingEvent(null, "x", null, 7L, "t", 0, 3L, new byte[] {'{', '}'}, kept);
        byte[] bytes = SerdeFactory.pendingEvent().serializer().serialize("changelog", entry);
        PendingEvent restored = SerdeFactory.pendingEvent().deserializer().deserialize("changelog", bytes);
        assertHeaders(HeldEvents.headers(restored), "a", new byte[] {1, 2}, "a", null, "é", new byte[0]);
        assertNull(HeldEvents.keptHeaders(new RecordHeaders()), "no headers: nothing added to the entry");
        assertNull(HeldEvents.keptHeaders(new RecordHeaders().add("blob", new byte[1 << 20])));
    }

    /** {@code headers} are exactly the given (name, value) pairs, in order. */
    private static void assertHeaders(Headers headers, Object... pairs) {
        List<Header> all = new ArrayList<>();
        headers.forEach(all::add);
        assertEquals(pairs.length / 2, all.size(), all.toString());
        for (int i = 0; i < all.size(); i++) {
            assertEquals(pairs[2 * i], all.get(i).key());
            assertArrayEquals((byte[]) pairs[2 * i + 1], all.get(i).value());
        }
    }
}
