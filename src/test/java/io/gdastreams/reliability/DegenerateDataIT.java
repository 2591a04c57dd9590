package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import io.gdastreams.topology.TrainingTopology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Degenerate classes streamed through a real trainer and two scorers with different fit options: a class with
 * one sample, identical points, collinear features, fewer samples than dimensions (d &gt; n_k), and a class that
 * appears late. Every prediction stays finite with probabilities summing to 1, and says which classes its scorer
 * left out and why ({@code excluded}); the two scorers exclude different classes from the same model.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DegenerateDataIT {

    private static final String MODEL_ID = "degenerate";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final double SUM_TOLERANCE = 1e-12;
    private static final long SEED = 4_2026L;
    /** Naive Bayes with unbiased variances and at least 4 observations per class. */
    private static final FitOptions STRICT = FitOptions.defaults().withCovarianceType(CovarianceType.DIAG)
            .withEstimator(Estimator.UNBIASED).withMinCount(4);

    @TempDir
    Path stateDir;

    private final List<KafkaStreams> running = new ArrayList<>();
    private int probes;

    @AfterEach
    void stop() {
        running.forEach(s -> s.close(Duration.ofSeconds(30)));
    }

    private void start(KafkaBroker broker, String name, Topology topology) {
        KafkaStreams streams = new KafkaStreams(topology,
                broker.streamsProperties(KafkaBroker.uniqueName(name), stateDir.resolve(name)));
        streams.start();
        running.add(streams);
    }

    @Test
    void shouldKeepPredictionsFiniteAndNameExcludedClassesWhateverTheClassesLookLike(KafkaBroker broker)
            throws Exception {
        Topics qda = new Topics(KafkaBroker.uniqueName("labelled"), KafkaBroker.uniqueName("unlabelled"),
                KafkaBroker.uniqueName("model"), KafkaBroker.uniqueName("predictions-qda"),
                KafkaBroker.uniqueName("dead-letters"));
        Topics strict = new Topics(qda.labelled().name(), qda.unlabelled().name(), qda.model().name(),
                KafkaBroker.uniqueName("predictions-strict"), qda.deadLetters().name());
        broker.createTopics(Map.of(qda.labelled().name(), 1, qda.unlabelled().name(), 1, qda.model().name(), 1, qda.predictions().name(), 1,
                strict.predictions().name(), 1, qda.deadLetters().name(), 1));
        start(broker, "degenerate-train", TrainingTopology.build(TrainingSettings.defaults(qda).withModelId(MODEL_ID)
                .withFeatures(HostileRecords.FEATURES).withPublishInterval(Duration.ofMillis(200)),
                        GroupCommittedInput::open));
        start(broker, "degenerate-qda", ScoringTopology.build(ScoringSettings.defaults(MODEL_ID).withTopics(qda)));
        start(broker, "degenerate-strict", ScoringTopology.build(ScoringSettings.defaults(MODEL_ID)
                .withTopics(strict).withFitOptions(STRICT)));

        Random random = new Random(SEED);
        List<LabelledRow> rows = new ArrayList<>();
        rows.add(new LabelledRow(new double[] {9, -9, 9, -9}, "single"));
        for (int i = 0; i < 3; i++) {
            rows.add(new LabelledRow(new double[] {1, 1, 1, 1}, "twins"));
        }
        for (int i = 0; i < 12; i++) {
            double t = random.nextGaussian();
            rows.add(new LabelledRow(new double[] {t, 2 * t + 1, -t, 3 * t - 2}, "line"));
        }
        for (int i = 0; i < 3; i++) {
            rows.add(new LabelledRow(gaussian(random, 4, 1), "few"));
        }
        for (int i = 0; i < 40; i++) {
            rows.add(new LabelledRow(gaussian(random, -3, 2), "normal"));
        }
        List<double[]> queries = List.of(new double[] {9, -9, 9, -9}, new double[] {1, 1, 1, 1},
                new double[] {0.5, 2, -0.5, -0.5}, new double[] {4, 4, 4, 4}, new double[] {-3, -3, -3, -3},
                new double[] {1e6, -1e6, 1e6, -1e6}, new double[] {1e-300, 0, 0, 0});

        try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            long version = train(broker, producer, qda, rows);
            check(broker, producer, qda, strict, version, queries, "phase 1",
                    Map.of("single", "count 1 below minimum 2"),
                    Map.of("single", "count 1 below minimum 4", "twins", "count 3 below minimum 4",
                            "few", "count 3 below minimum 4"));

            rows.add(new LabelledRow(new double[] {20, 20, 20, 20}, "late"));
            version = train(broker, producer, qda, rows.subList(rows.size() - 1, rows.size()));
            check(broker, producer, qda, strict, version, queries, "late class, 1 sample",
                    Map.of("single", "count 1 below minimum 2", "late", "count 1 below minimum 2"),
                    Map.of("single", "count 1 below minimum 4", "twins", "count 3 below minimum 4",
                            "few", "count 3 below minimum 4", "late", "count 1 below minimum 4"));

            List<LabelledRow> late = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                late.add(new LabelledRow(gaussian(random, 20, 0.5), "late"));
            }
            version = train(broker, producer, qda, late);
            check(broker, producer, qda, strict, version, queries, "late class, 10 samples",
                    Map.of("single", "count 1 below minimum 2"),
                    Map.of("single", "count 1 below minimum 4", "twins", "count 3 below minimum 4",
                            "few", "count 3 below minimum 4"));
        }
    }

    private static double[] gaussian(Random random, double centre, double scale) {
        double[] x = new double[4];
        for (int i = 0; i < 4; i++) {
            x[i] = centre + scale * random.nextGaussian();
        }
        return x;
    }

    /** Sends labelled rows and returns the version of the model that absorbed them. */
    private static long train(KafkaBroker broker, KafkaProducer<byte[], byte[]> producer, Topics topics,
                              List<LabelledRow> rows) throws Exception {
        for (LabelledRow row : rows) {
            producer.send(new ProducerRecord<>(topics.labelled().name(), null,
                    HostileRecords.validEvent(row.x(), row.label()))).get();
        }
        long end = broker.endOffsets(topics.labelled()).get(0);
        List<ConsumerRecord<String, ModelParameters>> models = broker.readUntil(topics.model(), r -> !r.isEmpty() && r.get(r.size() - 1).value().sources().getOrDefault("0", -1L) == end, TIMEOUT);
        ModelParameters model = models.get(models.size() - 1).value();
        assertEquals(end, model.totalCount(), "every degenerate event is a valid event and counted");
        return model.version();
    }

    /**
     * Waits until both scorers answer with model {@code version} (probe events), then scores {@code queries} and
     * checks every answer: finite, summing to 1 over the included classes, and naming the excluded ones.
     */
    private void check(KafkaBroker broker, KafkaProducer<byte[], byte[]> producer, Topics qda, Topics strict,
                       long version, List<double[]> queries, String phase, Map<String, String> qdaExcluded,
                       Map<String, String> strictExcluded) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!(answeredWith(broker, qda.predictions().name(), version) && answeredWith(broker, strict.predictions().name(),
                version))) {
            assertTrue(System.nanoTime() < deadline, phase + ": scorers never reached model version " + version);
            producer.send(new ProducerRecord<>(qda.unlabelled().name(), ("probe-" + probes++).getBytes(StandardCharsets.UTF_8),
                    HostileRecords.validEvent(new double[] {0, 0, 0, 0}, "-"))).get();
            Thread.sleep(200);
        }
        Set<String> keys = new TreeSet<>();
        for (int i = 0; i < queries.size(); i++) {
            String key = phase + "-" + i;
            keys.add(key);
            producer.send(new ProducerRecord<>(qda.unlabelled().name(), key.getBytes(StandardCharsets.UTF_8),
                    HostileRecords.validEvent(queries.get(i), "-"))).get();
        }
        assertAnswers(broker, qda.predictions().name(), keys, version, qdaExcluded, phase + " qda");
        assertAnswers(broker, strict.predictions().name(), keys, version, strictExcluded, phase + " strict");
    }

    private boolean answeredWith(KafkaBroker broker, String topic, long version) {
        if (probes == 0) {
            return false;
        }
        List<ConsumerRecord<byte[], byte[]>> all = broker.readAll(topic, TIMEOUT);
        return all.stream().map(r -> SerdeFactory.prediction().deserializer().deserialize("p", r.value()))
                .anyMatch(p -> p.id() != null && p.id().startsWith("probe-") && p.modelVersion() != null
                        && p.modelVersion() == version);
    }

    private static void assertAnswers(KafkaBroker broker, String topic, Set<String> keys, long version,
                                      Map<String, String> excluded, String phase) {
        List<ConsumerRecord<byte[], byte[]>> all = broker.readUntil(topic, SerdeFactory.rawBytes().deserializer(),
                SerdeFactory.rawBytes().deserializer(),
                r -> r.stream().filter(x -> keys.contains(new String(x.key(), StandardCharsets.UTF_8))).count()
                        == keys.size(), TIMEOUT);
        Map<String, Prediction> answers = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : all) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            if (keys.contains(key)) {
                answers.put(key, SerdeFactory.prediction().deserializer().deserialize("p", r.value()));
            }
        }
        for (Map.Entry<String, Prediction> e : answers.entrySet()) {
            Prediction p = e.getValue();
            String what = phase + " " + e.getKey() + ": " + p;
            assertEquals(Prediction.Status.SCORED, p.status(), what);
            assertEquals(version, p.modelVersion(), what);
            assertTrue(Double.isFinite(p.logDensity()), what);
            double sum = 0;
            for (double v : p.probabilities().values()) {
                assertTrue(Double.isFinite(v) && v >= 0 && v <= 1, what);
                sum += v;
            }
            assertEquals(1.0, sum, SUM_TOLERANCE, what);
            assertEquals(excluded, p.excluded() == null ? Map.of() : p.excluded(), what);
            for (String label : excluded.keySet()) {
                assertTrue(!p.probabilities().containsKey(label), what);
            }
        }
        System.out.printf("degenerate %s: %d answers, classes %s, excluded %s%n", phase, answers.size(),
                answers.values().iterator().next().probabilities().keySet(), excluded.keySet());
    }
}
