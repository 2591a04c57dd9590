package io.gdastreams.ops;

import io.gdastreams.config.Role;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.service.StreamsApp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Liveness and readiness of one process, from the Kafka Streams client that runs now and, for a scorer, whether a
 * model in force can score. An answer is a status code and a small JSON object (no configuration in it, so no
 * secret).
 */
final class Health {

    /** A health answer: HTTP status and JSON body (as a map, written by Jackson). */
    record Answer(int status, Map<String, Object> body) {

        /** Why not live or not ready; null when it is. */
        String reason() {
            return (String) body.get("reason");
        }
    }

    /** What health needs of the running Kafka Streams client: its state and its restores in progress. */
    interface Client {
        KafkaStreams.State state();

        List<StreamsApp.Restoring> restoring();

        /** The partitions it reads that a transaction holds (none when not watched). */
        default List<StreamsApp.HeldInput> heldInputs() {
            return List.of();
        }
    }

    private final Role role;
    private final Supplier<Optional<ModelParameters>> model;
    private final Supplier<Optional<String>> notScoring;
    private final Supplier<Optional<String>> modelHeld;
    /** Null until the first client starts (topics are being created). */
    private volatile Client app;

    /**
     * @param model      the model in force, shown in readiness answers
     * @param notScoring a scorer's: why it cannot score now (no model in force, or none of its classes scorable),
     *                   empty when it can; it is not ready until then. A trainer's is always empty.
     */
    Health(Role role, Supplier<Optional<ModelParameters>> model, Supplier<Optional<String>> notScoring) {
        this(role, model, notScoring, Optional::empty);
    }

    /**
     * @param modelHeld a trainer's: why its model combiner (when this process runs it) holds the next version back;
     *                  shown in readiness answers, which stay 200: the trainer runs, and publishes once it clears
     */
    Health(Role role, Supplier<Optional<ModelParameters>> model, Supplier<Optional<String>> notScoring,
           Supplier<Optional<String>> modelHeld) {
        this.role = role;
        this.model = model;
        this.notScoring = notScoring;
        this.modelHeld = modelHeld;
    }

    /** The client that runs from now on. */
    void follow(StreamsApp app) {
        follow(new Client() {
            @Override
            public KafkaStreams.State state() {
                return app.state();
            }

            @Override
            public List<StreamsApp.Restoring> restoring() {
                return app.restoring();
            }

            @Override
            public List<StreamsApp.HeldInput> heldInputs() {
                return app.heldInputs();
            }
        });
    }

    void follow(Client client) {
        this.app = client;
    }

    /** 200 while Kafka Streams is not in ERROR or NOT_RUNNING (also while topics are created and it starts). */
    Answer live() {
        Client current = app;
        KafkaStreams.State state = current == null ? null : current.state();
        boolean live = state != KafkaStreams.State.ERROR && state != KafkaStreams.State.NOT_RUNNING;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", live ? "live" : "down");
        body.put("role", role.toString());
        body.put("state", state == null ? "STARTING" : state.name());
        return new Answer(live ? 200 : 503, body);
    }

    /**
     * 200 when RUNNING and (scorer) a model in force can score; else 503 with the reason. Either way with any restore
     * progress and any partition read that a transaction holds.
     */
    Answer ready() {
        Client current = app;
        KafkaStreams.State state = current == null ? null : current.state();
        Optional<ModelParameters> inForce = model.get();
        Map<String, Object> body = new LinkedHashMap<>();
        String reason = null;
        if (state != KafkaStreams.State.RUNNING) {
            reason = state == null ? "starting (topics, then Kafka Streams)"
                    : state == KafkaStreams.State.REBALANCING ? "Kafka Streams is REBALANCING (assigning partitions,"
                    + " restoring state)" : "Kafka Streams is " + state;
        } else {
            reason = notScoring.get().orElse(null);
        }
        body.put("status", reason == null ? "ready" : "not ready");
        body.put("role", role.toString());
        body.put("state", state == null ? "STARTING" : state.name());
        if (reason != null) {
            body.put("reason", reason);
        }
        inForce.ifPresent(m -> body.put("model", Map.of("modelId", m.modelId(), "version", m.version())));
        modelHeld.get().ifPresent(held -> body.put("modelHeld", held));
        List<StreamsApp.Restoring> restoring = current == null ? List.of() : current.restoring();
        if (!restoring.isEmpty()) {
            body.put("restoring", restoring.stream().map(r -> {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("changelog", r.changelog());
                entry.put("store", r.store());
                entry.put("position", r.position());
                entry.put("end", r.end());
                if (r.stalled() != null) {
                    entry.put("stalled", r.stalled());
                }
                return entry;
            }).toList());
        }
        List<StreamsApp.HeldInput> held = current == null ? List.of() : current.heldInputs();
        if (!held.isEmpty()) {
            // Ready all the same: the service runs, and reads on by itself once the transaction ends.
            body.put("heldInputs", held.stream().map(h -> {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("partition", h.partition());
                entry.put("lastStableOffset", h.lastStable());
                entry.put("endOffset", h.end());
                entry.put("held", h.report());
                return entry;
            }).toList());
        }
        return new Answer(reason == null ? 200 : 503, body);
    }
}
