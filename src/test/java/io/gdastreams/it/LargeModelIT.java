package io.gdastreams.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.Role;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.service.TopicProvisioner;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.settings.RecordSizeLimits;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingTopology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * d = 256 features, K = 10 classes, 4 partitions, end to end on the shared broker (which runs with Kafka's default
 * message.max.bytes of 1 MiB) with the product's own Kafka Streams settings ({@link AppConfig#defaults()}) and
 * topics ({@link TopicProvisioner}). A partial snapshot here is 2.7 MB and a model 13.7 MB of JSON: with Kafka's
 * default limits the training thread dies on the first snapshot.
 */
@ExtendWith(KafkaBrokerExtension.class)
class LargeModelIT {

    private static final int D = 256;
    private static final int K = 10;
    private static final int PARTITIONS = 4;
    /** Well above d, so that every class covariance is non-singular and the scorer uses it as it is. */
    private static final int EVENTS_PER_CLASS = 400;
    private static final int SCORED_PER_CLASS = 2;
    private static final long SEED = 256_010L;
    /** Model vs two-pass reference, relative to the scale of the entry (see {@link #assertClose}). */
    private static final double MODEL_TOLERANCE = 1e-12;
    /** log p(x) vs an independent Cholesky of the reference covariances (d = 256, condition ~10³). */
    private static final double LOG_DENSITY_TOLERANCE = 1e-9;
    private static final double PROBABILITY_TOLERANCE = 1e-9;
    private static final Duration TIMEOUT = PipelineUnderTest.TIMEOUT;
    private static final Duration PUBLISH_INTERVAL = Duration.ofSeconds(5);
    private static final List<String> FEATURES = IntStream.range(0, D)
            .mapToObj(j -> String.format("f%03d", j)).toList();

    @Test
    void shouldTrainAndScoreTwoHundredFiftySixFeaturesAndTenClassesWithTheProductsSettings(
            KafkaBroker broker, @TempDir Path stateDir) throws Exception {
        AppConfig config = productConfig(broker, stateDir);
        Topics topics = config.topics();
        TopicProvisioner.ensure(broker.admin(), TopicProvisioner.plan(topics, config.partitions(),
                config.replicationFactor()));
        SyntheticClasses data = new SyntheticClasses(new Random(SEED));
        List<double[]> training = new ArrayList<>();
        List<Integer> trainingLabels = new ArrayList<>();
        for (int i = 0; i < K * EVENTS_PER_CLASS; i++) {
            trainingLabels.add(i % K);
            training.add(data.sample(i % K));
        }
        try (KafkaProducer<byte[], byte[]> producer = broker.producer();
             StreamsInstances instances = new StreamsInstances()) {
            for (int i = 0; i < training.size(); i++) {
                producer.send(new ProducerRecord<>(topics.labelled().name(), i % PARTITIONS, key("train-" + i),
                        labelledJson(training.get(i), label(trainingLabels.get(i)))));
            }
            producer.flush();

            AtomicReference<Throwable> failure = new AtomicReference<>();
            Properties trainingProperties = config.streamsProperties(Role.TRAINING);
            instances.start(TrainingTopology.build(config.trainingSettings(),
                    GroupCommittedInput::open), trainingProperties,
                    streams -> streams.setUncaughtExceptionHandler(e -> {
                        failure.compareAndSet(null, e);
                        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
                    }));
            ModelParameters model = awaitModelAbsorbingAll(broker, topics, failure);

            assertEquals(config.modelId(), model.modelId());
            assertEquals((long) K * EVENTS_PER_CLASS, model.totalCount());
            assertEquals(K, model.classes().size());
            for (ClassParameters c : model.classes()) {
                int k = Integer.parseInt(c.label().substring("class-".length()));
                assertEquals(EVENTS_PER_CLASS, c.count(), c.label());
                assertEquals(1.0 / K, c.prior(), MODEL_TOLERANCE, c.label());
                TwoPass reference = TwoPass.of(training, trainingLabels, k);
                assertClose(reference, c);
            }
            String applicationId = trainingProperties.getProperty("application.id");
            assertTopicsAllowTheRecordBound(broker, List.of(topics.model().name(),
                    TrainingTopology.partials(applicationId).name(),
                    applicationId + "-" + TrainingTopology.COMBINER_STORE + "-changelog",
                    applicationId + "-" + TrainingTopology.CLASS_STATS_STORE + "-changelog"));

            KafkaStreams scorer = instances.start(ScoringTopology.build(config.scoringSettings()),
                    config.streamsProperties(Role.SCORING), streams -> streams.setUncaughtExceptionHandler(e -> {
                        failure.compareAndSet(null, e);
                        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
                    }));
            awaitModelInForce(scorer, config.modelId(), model.version(), failure);
            Map<String, Integer> scoredLabels = new TreeMap<>();
            Map<String, double[]> scoredEvents = new HashMap<>();
            for (int k = 0; k < K; k++) {
                for (int s = 0; s < SCORED_PER_CLASS; s++) {
                    String id = "score-" + k + "-" + s;
                    double[] x = data.sample(k);
                    scoredLabels.put(id, k);
                    scoredEvents.put(id, x);
                    producer.send(new ProducerRecord<>(topics.unlabelled().name(), scoredLabels.size() % PARTITIONS,
                            key(id), unlabelledJson(id, x)));
                }
            }
            producer.flush();
            List<ConsumerRecord<String, Prediction>> predictions = broker.readUntil(topics.predictions().name(),
                    SerdeFactory.string().deserializer(), topics.predictions().valueDeserializer(),
                    records -> failIfDied(failure) && records.size() >= scoredLabels.size(), TIMEOUT);
            assertEquals(scoredLabels.size(), predictions.size(), "one prediction per event");
            ReferenceScorer reference = new ReferenceScorer(training, trainingLabels);
            for (ConsumerRecord<String, Prediction> record : predictions) {
                Prediction p = record.value();
                assertEquals(Prediction.Status.SCORED, p.status(), () -> "unscored: " + p.reason());
                assertEquals(model.version(), p.modelVersion());
                double[] x = scoredEvents.get(p.id());
                assertNotNull(x, p.id());
                double[] logJoint = reference.logJoint(x);
                double logDensity = ReferenceScorer.logSumExp(logJoint);
                assertEquals(logDensity, p.logDensity(), LOG_DENSITY_TOLERANCE * Math.abs(logDensity), p.id());
                assertEquals(label(scoredLabels.get(p.id())), p.label(), p.id());
                for (int k = 0; k < K; k++) {
                    assertEquals(Math.exp(logJoint[k] - logDensity), p.probabilities().get(label(k)),
                            PROBABILITY_TOLERANCE, p.id() + " p(" + label(k) + ")");
                }
            }
        }
    }

    /** The product's defaults; only names (unique per test), the broker address and the state directory differ. */
    private static AppConfig productConfig(KafkaBroker broker, Path stateDir) {
        AppConfig config = AppConfig.defaults();
        Map<ConfigKey, String> names = Map.of(ConfigKey.TOPIC_LABELLED, "labelled", ConfigKey.TOPIC_UNLABELLED,
                "unlabelled", ConfigKey.TOPIC_MODEL, "model", ConfigKey.TOPIC_PREDICTIONS, "predictions",
                ConfigKey.TOPIC_DEAD_LETTERS, "dead-letters", ConfigKey.APPLICATION_ID, "large",
                ConfigKey.MODEL_ID, "model-id");
        for (Map.Entry<ConfigKey, String> name : names.entrySet()) {
            config = config.with(name.getKey(), UniqueNames.of(name.getValue()), "test");
        }
        // Every accepted snapshot publishes a version (13.7 MB of JSON here); docs/TRAINING.md advises a longer
        // interval at large d. 5 s: the 4 partitions are absorbed in one snapshot each, a handful of versions.
        return config.with(ConfigKey.FEATURES, String.join(",", FEATURES), "test")
                .with(ConfigKey.PUBLISH_INTERVAL_MS, Long.toString(PUBLISH_INTERVAL.toMillis()), "test")
                .with(ConfigKey.PARTITIONS, Integer.toString(PARTITIONS), "test")
                .withKafka("bootstrap.servers", broker.bootstrapServers())
                .withKafka("state.dir", stateDir.toString());
    }

    private static ModelParameters awaitModelAbsorbingAll(KafkaBroker broker, Topics topics,
                                                          AtomicReference<Throwable> failure) {
        List<ConsumerRecord<String, ModelParameters>> models = broker.readModelsUntilAbsorbed(topics.labelled(),
                topics.model(), TIMEOUT, () -> failIfDied(failure));
        return models.get(models.size() - 1).value();
    }

    private static boolean failIfDied(AtomicReference<Throwable> failure) {
        if (failure.get() != null) {
            throw new AssertionError("a stream thread died", failure.get());
        }
        return true;
    }

    private static void awaitModelInForce(KafkaStreams scorer, String modelId, long version,
                                          AtomicReference<Throwable> failure) {
        Await.until("the scorer holds model version " + version, TIMEOUT, () -> {
            failIfDied(failure);
            try {
                ReadOnlyKeyValueStore<String, ModelParameters> store = scorer.store(StoreQueryParameters
                        .fromNameAndType(ScoringTopology.MODEL_STORE, QueryableStoreTypes.keyValueStore()));
                ModelParameters model = store.get(modelId);
                return model != null && model.version() >= version;
            } catch (InvalidStateStoreException e) {
                return false; // not queryable until the instance runs
            }
        }, () -> "scorer " + scorer.state());
    }

    /** The topic-level max.message.bytes that lets records beyond the broker's 1 MiB default through. */
    private static void assertTopicsAllowTheRecordBound(KafkaBroker broker, List<String> names)
            throws ExecutionException, InterruptedException {
        List<ConfigResource> resources = names.stream()
                .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList();
        Map<ConfigResource, Config> configs = broker.admin().describeConfigs(resources).all().get();
        for (ConfigResource resource : resources) {
            assertEquals(Integer.toString(RecordSizeLimits.MAX_RECORD_BYTES),
                    configs.get(resource).get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG).value(), resource.name());
        }
    }

    private static byte[] key(String id) {
        return id.getBytes(StandardCharsets.UTF_8);
    }

    private static String label(int k) {
        return "class-" + k;
    }

    private static byte[] labelledJson(double[] x, String label) {
        return ("{\"features\": " + featuresJson(x) + ", \"label\": \"" + label + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] unlabelledJson(String id, double[] x) {
        return ("{\"id\": \"" + id + "\", \"features\": " + featuresJson(x) + "}").getBytes(StandardCharsets.UTF_8);
    }

    /** Double.toString round-trips, so the topology sees exactly the doubles of the reference. */
    private static String featuresJson(double[] x) {
        StringBuilder json = new StringBuilder("{");
        for (int j = 0; j < x.length; j++) {
            json.append(j == 0 ? "" : ", ").append('"').append(FEATURES.get(j)).append("\": ").append(x[j]);
        }
        return json.append('}').toString();
    }

    /**
     * Model entry vs reference, relative to the scale of the variables involved: a covariance entry to
     * sqrt(Σ_ii Σ_jj) (off-diagonal entries can be near zero), a mean to max(|μ_j|, σ_j).
     */
    private static void assertClose(TwoPass reference, ClassParameters c) {
        for (int i = 0; i < D; i++) {
            double sigma = Math.sqrt(reference.covariance[i][i]);
            double meanScale = Math.max(Math.abs(reference.mean[i]), sigma);
            assertEquals(reference.mean[i], c.mean()[i], MODEL_TOLERANCE * meanScale, c.label() + " mean " + i);
            for (int j = 0; j < D; j++) {
                double scale = Math.sqrt(reference.covariance[i][i] * reference.covariance[j][j]);
                assertEquals(reference.covariance[i][j], c.covariance()[i][j], MODEL_TOLERANCE * scale,
                        c.label() + " covariance " + i + "," + j);
            }
        }
    }

    /** Ten well-separated classes with correlated coordinates: x_j = μ_kj + z_j + 0.5 z_(j-1). */
    private static final class SyntheticClasses {
        private final Random random;
        private final double[][] means = new double[K][D];

        SyntheticClasses(Random random) {
            this.random = random;
            for (double[] mean : means) {
                for (int j = 0; j < D; j++) {
                    mean[j] = 20 * random.nextDouble() - 10;
                }
            }
        }

        double[] sample(int k) {
            double[] x = new double[D];
            double previous = 0;
            for (int j = 0; j < D; j++) {
                double z = random.nextGaussian();
                x[j] = means[k][j] + z + 0.5 * previous;
                previous = z;
            }
            return x;
        }
    }

    /** Mean, then MLE covariance from the deviations: the textbook two-pass estimate. */
    private record TwoPass(double[] mean, double[][] covariance) {
        static TwoPass of(List<double[]> xs, List<Integer> labels, int k) {
            double[] mean = new double[D];
            int n = 0;
            for (int i = 0; i < xs.size(); i++) {
                if (labels.get(i) == k) {
                    n++;
                    for (int j = 0; j < D; j++) {
                        mean[j] += xs.get(i)[j];
                    }
                }
            }
            for (int j = 0; j < D; j++) {
                mean[j] /= n;
            }
            double[][] covariance = new double[D][D];
            double[] delta = new double[D];
            for (int i = 0; i < xs.size(); i++) {
                if (labels.get(i) != k) {
                    continue;
                }
                for (int j = 0; j < D; j++) {
                    delta[j] = xs.get(i)[j] - mean[j];
                }
                for (int a = 0; a < D; a++) {
                    for (int b = 0; b < D; b++) {
                        covariance[a][b] += delta[a] * delta[b];
                    }
                }
            }
            for (double[] row : covariance) {
                for (int b = 0; b < D; b++) {
                    row[b] /= n;
                }
            }
            return new TwoPass(mean, covariance);
        }
    }

    /** QDA from the two-pass estimates with a Cholesky factorisation of its own (equal priors 1/K). */
    private static final class ReferenceScorer {
        private final double[][] means = new double[K][];
        private final double[][][] factors = new double[K][][];
        private final double[] halfLogDets = new double[K];

        ReferenceScorer(List<double[]> xs, List<Integer> labels) {
            for (int k = 0; k < K; k++) {
                TwoPass estimate = TwoPass.of(xs, labels, k);
                means[k] = estimate.mean();
                factors[k] = cholesky(estimate.covariance());
                for (int j = 0; j < D; j++) {
                    halfLogDets[k] += Math.log(factors[k][j][j]);
                }
            }
        }

        /** log π_k + log N(x; μ_k, Σ_k) for every k. */
        double[] logJoint(double[] x) {
            double[] out = new double[K];
            for (int k = 0; k < K; k++) {
                double[][] l = factors[k];
                double[] y = new double[D];
                double squared = 0;
                for (int i = 0; i < D; i++) {
                    double s = x[i] - means[k][i];
                    for (int j = 0; j < i; j++) {
                        s -= l[i][j] * y[j];
                    }
                    y[i] = s / l[i][i];
                    squared += y[i] * y[i];
                }
                out[k] = Math.log(1.0 / K) - 0.5 * (D * Math.log(2 * Math.PI) + squared) - halfLogDets[k];
            }
            return out;
        }

        static double logSumExp(double[] values) {
            double max = Double.NEGATIVE_INFINITY;
            for (double v : values) {
                max = Math.max(max, v);
            }
            double sum = 0;
            for (double v : values) {
                sum += Math.exp(v - max);
            }
            return max + Math.log(sum);
        }

        private static double[][] cholesky(double[][] a) {
            double[][] l = new double[D][D];
            for (int i = 0; i < D; i++) {
                for (int j = 0; j <= i; j++) {
                    double s = a[i][j];
                    for (int m = 0; m < j; m++) {
                        s -= l[i][m] * l[j][m];
                    }
                    if (i == j) {
                        assertTrue(s > 0, "reference covariance is positive definite");
                        l[i][i] = Math.sqrt(s);
                    } else {
                        l[i][j] = s / l[j][j];
                    }
                }
            }
            return l;
        }
    }
}
