package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gdastreams.config.Role;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.Json;
import io.gdastreams.service.StreamsApp;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/** Liveness and readiness in each state of the client, with and without a model, and while restoring. */
class HealthTest {

    private final AtomicReference<KafkaStreams.State> state = new AtomicReference<>();
    private final AtomicReference<List<StreamsApp.Restoring>> restoring = new AtomicReference<>(List.of());
    private final AtomicReference<ModelParameters> model = new AtomicReference<>();
    private final AtomicReference<List<StreamsApp.HeldInput>> held = new AtomicReference<>(List.of());
    /** Why the model in force scores nothing (null: it scores), as the scorer's cache would say. */
    private final AtomicReference<String> unscorable = new AtomicReference<>();

    private Health scorer() {
        Health health = new Health(Role.SCORING, () -> Optional.ofNullable(model.get()),
                () -> model.get() == null ? Optional.of("no model in force: model 'm' not published")
                        : Optional.ofNullable(unscorable.get()));
        return following(health);
    }

    /** {@code health} following a client whose state, restores and held inputs are this test's fields. */
    private Health following(Health health) {
        health.follow(new Health.Client() {
            @Override
            public KafkaStreams.State state() {
                return state.get();
            }

            @Override
            public List<StreamsApp.Restoring> restoring() {
                return restoring.get();
            }

            @Override
            public List<StreamsApp.HeldInput> heldInputs() {
                return held.get();
            }
        });
        return health;
    }

    /** A held input is reported, and the service stays ready: it runs, and reads on once the transaction ends. */
    @Test
    void shouldListTheInputsATransactionHoldsAndStayReady() {
        Health health = scorer();
        state.set(KafkaStreams.State.RUNNING);
        model.set(Iris.model("m", 4, Iris.rows()));
        assertEquals(null, health.ready().body().get("heldInputs"), "none held: not listed");
        held.set(List.of(new StreamsApp.HeldInput("unlabelled-2", 70, 111, "scoring: input partition unlabelled-2 has"
                + " stood at its last stable offset 70 for 5 min")));
        Health.Answer answer = health.ready();
        assertEquals(200, answer.status());
        assertEquals("[{\"partition\":\"unlabelled-2\",\"lastStableOffset\":70,\"endOffset\":111,\"held\":"
                + "\"scoring: input partition unlabelled-2 has stood at its last stable offset 70 for 5 min\"}]",
                new String(Json.toBytes(answer.body().get("heldInputs"))));
    }

    @Test
    void shouldBeLiveUnlessInErrorOrNotRunning() {
        Health health = scorer();
        for (KafkaStreams.State s : KafkaStreams.State.values()) {
            state.set(s);
            boolean down = s == KafkaStreams.State.ERROR || s == KafkaStreams.State.NOT_RUNNING;
            assertEquals(down ? 503 : 200, health.live().status(), s.name());
            assertEquals(s.name(), health.live().body().get("state"));
        }
        Health starting = new Health(Role.TRAINING, Optional::empty, Optional::empty);
        assertEquals(200, starting.live().status(), "live while topics are created, before the first client");
        assertEquals(503, starting.ready().status());
    }

    @Test
    void shouldBeReadyWhenRunningWithAModelAndSayWhyNotOtherwise() {
        Health health = scorer();
        state.set(KafkaStreams.State.REBALANCING);
        restoring.set(List.of(new StreamsApp.Restoring("app-scoring-pending-changelog-1", "scoring-pending", 40,
                100, null)));
        Health.Answer restoringAnswer = health.ready();
        assertEquals(503, restoringAnswer.status());
        assertEquals("{\"status\":\"not ready\",\"role\":\"scoring\",\"state\":\"REBALANCING\",\"reason\":\"Kafka"
                + " Streams is REBALANCING (assigning partitions, restoring state)\",\"restoring\":[{\"changelog\":"
                + "\"app-scoring-pending-changelog-1\",\"store\":\"scoring-pending\",\"position\":40,\"end\":100}]}",
                new String(Json.toBytes(restoringAnswer.body())));
        restoring.set(List.of(new StreamsApp.Restoring("app-scoring-pending-changelog-1", "scoring-pending", 40,
                100, "held by a transaction")));
        assertEquals("[{changelog=app-scoring-pending-changelog-1, store=scoring-pending, position=40, end=100,"
                + " stalled=held by a transaction}]", health.ready().body().get("restoring").toString(),
                "a stalled restore says what holds it");

        state.set(KafkaStreams.State.RUNNING);
        restoring.set(List.of());
        Health.Answer noModel = health.ready();
        assertEquals(503, noModel.status());
        assertEquals("no model in force: model 'm' not published", noModel.body().get("reason"));

        model.set(Iris.model("m", 4, Iris.rows()));
        unscorable.set("no scorable class in model version 4: setosa (count 1 below minimum 2)");
        Health.Answer cannotScore = health.ready();
        assertEquals(503, cannotScore.status(), "a model in force that scores nothing: events wait, so not ready");
        assertEquals("no scorable class in model version 4: setosa (count 1 below minimum 2)",
                cannotScore.body().get("reason"));
        assertEquals(Map.of("modelId", "m", "version", 4L), cannotScore.body().get("model"));

        unscorable.set(null);
        Health.Answer ready = health.ready();
        assertEquals(200, ready.status());
        assertEquals(Map.of("modelId", "m", "version", 4L), ready.body().get("model"));
        assertFalse(ready.body().containsKey("reason"));
    }

    /** A trainer whose combiner holds the next version back says why, and stays ready: it runs. */
    @Test
    void shouldSayWhyATrainerHoldsItsModelBackAndStayReady() {
        AtomicReference<String> modelHeld = new AtomicReference<>();
        Health trainer = following(new Health(Role.TRAINING, () -> Optional.ofNullable(model.get()),
                Optional::empty, () -> Optional.ofNullable(modelHeld.get())));
        state.set(KafkaStreams.State.RUNNING);
        assertEquals("{\"status\":\"ready\",\"role\":\"training\",\"state\":\"RUNNING\"}",
                new String(Json.toBytes(trainer.ready().body())));
        modelHeld.set("model 'm' is held back: the instances of application 'a-training' run with different settings");
        Health.Answer held = trainer.ready();
        assertEquals(200, held.status());
        assertEquals("{\"status\":\"ready\",\"role\":\"training\",\"state\":\"RUNNING\",\"modelHeld\":\"model"
                + " 'm' is held back: the instances of application 'a-training' run with different settings\"}",
                new String(Json.toBytes(held.body())));
    }
}
