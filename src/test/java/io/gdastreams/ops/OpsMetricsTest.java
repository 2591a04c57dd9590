package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.model.Prediction;
import io.gdastreams.service.StreamsApp;
import io.gdastreams.topology.DeadLetterCategory;
import io.gdastreams.topology.ScorerFit;
import io.gdastreams.topology.ScoringSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.hawkular.agent.prometheus.types.Counter;
import org.hawkular.agent.prometheus.types.Gauge;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The figures OpsMetrics exports, on a fixed clock, read back from its Prometheus text. */
class OpsMetricsTest {

    private static final Instant PUBLISHED = Instant.parse("2026-03-01T10:00:00Z");
    /** 12.5 s after publication. */
    private static final Clock NOW = Clock.fixed(PUBLISHED.plusMillis(12_500), ZoneOffset.UTC);

    @Test
    void shouldExportCountsModelAgeAndLatencyAsPrometheusText() throws Exception {
        ModelParameters model = Iris.model("m", 7, Iris.rows());
        ModelParameters stamped = new ModelParameters(model.modelId(), model.version(), model.features(),
                model.totalCount(), model.classes(), model.sources(), PUBLISHED.toString(), model.trainer());
        OpsMetrics metrics = new OpsMetrics(() -> Optional.of(stamped), NOW);
        metrics.deadLettered(DeadLetterCategory.OVERSIZED);
        metrics.deadLettered(DeadLetterCategory.OVERSIZED);
        metrics.predicted(Prediction.Status.SCORED, NOW.millis() - 250);
        metrics.predicted(Prediction.Status.UNSCORED, NOW.millis() + 1000); // a producer clock ahead: 0
        metrics.pendingEvents("0_0", 3);
        metrics.pendingEvents("0_1", 4);
        metrics.pendingEvents("0_1", 0);

        List<MetricFamily> families = PrometheusText.parse(metrics.scrape().getBytes(StandardCharsets.UTF_8));
        assertEquals(2.0, ((Counter) metric(families, "gda_dead_letters_total", Map.of("reason", "oversized")))
                .getValue());
        assertEquals(0.0, ((Counter) metric(families, "gda_dead_letters_total", Map.of("reason", "model_bound")))
                .getValue());
        assertEquals(7, families.stream().filter(f -> f.getName().equals("gda_dead_letters_total"))
                .mapToInt(f -> f.getMetrics().size()).sum(), "one series per category, at 0 before the first");
        assertEquals(1.0, ((Counter) metric(families, "gda_predictions_total", Map.of("status", "scored")))
                .getValue());
        assertEquals(7.0, ((Gauge) metric(families, "gda_model_version", Map.of())).getValue());
        assertEquals(12.5, ((Gauge) metric(families, "gda_model_age_seconds", Map.of())).getValue());
        assertEquals(3.0, ((Gauge) metric(families, "gda_pending_events", Map.of())).getValue());
        Histogram latency = (Histogram) metric(families, "gda_scoring_latency_seconds", Map.of());
        assertEquals(2, latency.getSampleCount());
        assertEquals(0.25, latency.getSampleSum(), 1e-12);
        assertTrue(latency.getBuckets().size() > 2, "buckets of a histogram");
        metrics.close();
    }

    @Test
    void shouldTellATrainersClassesLeftOutAndHeldModelAndNotAScorers() throws Exception {
        ModelParameters model = Iris.model("m", 3, Iris.rows());
        OpsMetrics trainer = new OpsMetrics(null, NOW);
        assertEquals(0.0, gauge(trainer, "gda_model_classes_left_out"), "nothing published, nothing left out");
        trainer.modelPublished(model, Set.of("x", "y"));
        assertEquals(2.0, gauge(trainer, "gda_model_classes_left_out"));
        assertEquals(3.0, gauge(trainer, "gda_model_version"));
        trainer.modelPublished(model, Set.of());
        assertEquals(0.0, gauge(trainer, "gda_model_classes_left_out"));
        assertEquals(0.0, gauge(trainer, "gda_model_held"));
        trainer.modelHeld("model 'm' is held back: …");
        assertEquals(1.0, gauge(trainer, "gda_model_held"));
        assertEquals(Optional.of("model 'm' is held back: …"), trainer.modelHeld());
        trainer.modelHeld(null);
        assertEquals(0.0, gauge(trainer, "gda_model_held"));
        assertEquals(Optional.empty(), trainer.modelHeld());
        trainer.close();

        OpsMetrics scorer = new OpsMetrics(() -> Optional.of(model), NOW);
        for (String trainerOnly : List.of("gda_model_classes_left_out", "gda_model_held")) {
            assertTrue(PrometheusText.parse(scorer.scrape().getBytes(StandardCharsets.UTF_8)).stream()
                    .noneMatch(f -> f.getName().equals(trainerOnly)), "a trainer's figure only: " + trainerOnly);
        }
        ScorerFit fit = ScorerFit.of(ScoringSettings.defaults("m"));
        scorer.scorerFit(fit);
        assertTrue(scorer.scrape().contains("gda_scoring_fit_info{covariance=\"full\",estimator=\"mle\",fit=\""
                + fit.digest() + "\"} 1"), scorer.scrape());
        scorer.close();
    }

    @Test
    void shouldDescribeTheNewestModelOnTheTopicWhicheverTrainerPublishedIt() throws Exception {
        // Three trainers share the load; only the one holding the combiner publishes. Each describes the topic's
        // newest model of its id: version 5 from another instance, then its own 7, then 9 from another again.
        OpsMetrics trainer = OpsMetrics.forTrainer("m", NOW);
        assertTrue(Double.isNaN(gauge(trainer, "gda_model_version")), "nothing on the topic yet");
        trainer.modelRecordSeen(SerdeFactory.model().serializer().serialize("t", Iris.model("m", 5, Iris.rows())));
        assertEquals(5.0, gauge(trainer, "gda_model_version"), "published by another instance");
        trainer.modelPublished(Iris.model("m", 7, Iris.rows()), Set.of());
        assertEquals(7.0, gauge(trainer, "gda_model_version"), "its own, before the topic's view has it");
        trainer.modelRecordSeen(SerdeFactory.model().serializer().serialize("t", Iris.model("m", 9, Iris.rows())));
        assertEquals(9.0, gauge(trainer, "gda_model_version"), "the combiner moved to another instance");
        // Records that are no model of this id change nothing: not JSON, another model id, a tombstone.
        trainer.modelRecordSeen(new byte[] {'{'});
        assertEquals(9.0, gauge(trainer, "gda_model_version"));
        trainer.modelRecordSeen(SerdeFactory.model().serializer().serialize("t", Iris.model("x", 11, Iris.rows())));
        assertEquals(9.0, gauge(trainer, "gda_model_version"));
        trainer.modelRecordSeen(new byte[0]);
        assertEquals(9.0, gauge(trainer, "gda_model_version"));
        trainer.close();
    }

    @Test
    void shouldCountTheRestoresThatStandStillAndTheInputsHeldPastThePatience() throws Exception {
        OpsMetrics metrics = new OpsMetrics(null, NOW);
        assertEquals(0.0, gauge(metrics, "gda_restores_stalled"), "no client yet");
        assertEquals(0.0, gauge(metrics, "gda_inputs_held"), "no client yet");
        var moving = new StreamsApp.Restoring("app-class-stats-changelog-0", "class-stats", 10, 20, null);
        var held = new StreamsApp.Restoring("app-class-stats-changelog-1", "class-stats", 7, 9, "held");
        var input = new StreamsApp.HeldInput("labelled-0", 70, 111, "held by producer 7");
        metrics.follow(() -> List.of(moving, held), () -> List.of(input));
        assertEquals(1.0, gauge(metrics, "gda_restores_stalled"));
        assertEquals(1.0, gauge(metrics, "gda_inputs_held"));
        metrics.follow(List::of, List::of);
        assertEquals(0.0, gauge(metrics, "gda_restores_stalled"), "a new client restores afresh");
        assertEquals(0.0, gauge(metrics, "gda_inputs_held"));
        metrics.close();
    }

    /**
     * A restarted client's metrics replace the old one's, and the old binder's refresh stops with it: none of its
     * meters stays (or comes back), and no refresh thread is left behind once the metrics are closed.
     */
    @Test
    void shouldRebindKafkaStreamsMetricsToANewClientAndStopTheOldOnesRefresh(@TempDir Path dir) throws Exception {
        OpsMetrics metrics = new OpsMetrics(Optional::empty, NOW);
        long before = refreshThreads(); // of anything else in this JVM
        try (KafkaStreams first = client("first", dir); KafkaStreams second = client("second", dir)) {
            metrics.bind(first);
            assertTrue(clientIds(metrics).contains("first-client"), metrics.scrape());
            metrics.bind(second);
            assertEquals(Set.of("second-client"), clientIds(metrics), "only the bound client's meters");
            assertEquals(before + 1, refreshThreads(), "one refresh, the bound client's");
            metrics.close();
            assertEquals(before, refreshThreads(), "no refresh thread of these metrics after close");
        }
    }

    private static KafkaStreams client(String name, Path dir) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in").to("out");
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "ops-metrics-" + name);
        config.put(StreamsConfig.CLIENT_ID_CONFIG, name + "-client");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9"); // nothing there: the client is never started
        config.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve(name).toString());
        // Its clients still try the address once they exist: one refused connection each, not one every 50 ms.
        config.put(StreamsConfig.RECONNECT_BACKOFF_MS_CONFIG, 60_000);
        config.put(StreamsConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 60_000);
        return new KafkaStreams(builder.build(), config);
    }

    /** The client_id label values of the Kafka Streams client-level meters in the scrape. */
    private static Set<String> clientIds(OpsMetrics metrics) {
        Matcher m = Pattern.compile("^kafka_stream_[a-z_]+\\{[^}]*client_id=\"([^\"]+)\"", Pattern.MULTILINE)
                .matcher(metrics.scrape());
        Set<String> ids = new java.util.TreeSet<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    /** Live refresh threads of the binder ({@link OpsMetrics#bind}); a stopped one is waited for by the unbind. */
    private static long refreshThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("gda-streams-metrics") && t.isAlive()).count();
    }

    private static double gauge(OpsMetrics metrics, String name) throws Exception {
        return ((Gauge) metric(PrometheusText.parse(metrics.scrape().getBytes(StandardCharsets.UTF_8)), name,
                Map.of())).getValue();
    }

    @Test
    void shouldSayNaNWithoutAModelOrATimestamp() {
        OpsMetrics none = new OpsMetrics(Optional::empty, NOW);
        assertTrue(Double.isNaN(none.modelAgeSeconds()));
        none.close();
        ModelParameters model = Iris.model("m", 1, Iris.rows());
        ModelParameters unstamped = new ModelParameters(model.modelId(), 1, model.features(), model.totalCount(),
                model.classes(), model.sources(), "not an instant");
        assertTrue(Double.isNaN(OpsMetrics.ageSeconds(unstamped, NOW.instant())));
    }

    private static Metric metric(List<MetricFamily> families, String name, Map<String, String> labels) {
        return families.stream().filter(f -> f.getName().equals(name)).flatMap(f -> f.getMetrics().stream())
                .filter(m -> m.getLabels().equals(labels)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + labels));
    }
}
