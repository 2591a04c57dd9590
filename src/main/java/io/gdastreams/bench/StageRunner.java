package io.gdastreams.bench;

import io.gdastreams.app.TopicProvisioner;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import io.gdastreams.topology.TrainingTopology;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * Runs the stages of one benchmark against one cluster. Each stage gets its own topics (created with
 * {@code message.timestamp.type=LogAppendTime}, so every timestamp read back is the broker's append time) and
 * its own application id, and goes through the same steps:
 * <ol>
 *   <li>pre-load the input topic with N events and wait until all are acknowledged (the producer is not
 *       measured);</li>
 *   <li>start the application; the clock starts when it reaches RUNNING;</li>
 *   <li>wait until it is done: its committed input offsets reach the end (passthrough, scoring), or a model
 *       absorbs every event (training); the clock stops at the broker append time of the last output record /
 *       of that model;</li>
 *   <li>with the application caught up, send a few events at a steady rate and measure per-event latency
 *       (append → output append) or model freshness (append → append of the first model version whose
 *       lineage offset for the event's partition is past the event's offset).</li>
 * </ol>
 */
final class StageRunner implements AutoCloseable {

    static final String MODEL_ID = "bench";
    private static final String THROUGHPUT_KEY_PREFIX = "e";
    private static final String LATENCY_KEY_PREFIX = "l";
    private static final Duration POLL = Duration.ofMillis(100);
    /** Prediction JSON starts with its status (the record's first component). */
    private static final String SCORED_PREFIX = "{\"status\":\"scored\"";
    private static final long ADMIN_TIMEOUT_SECONDS = 60;

    private final String bootstrapServers;
    private final BenchSettings settings;
    private final SyntheticStream stream;
    private final String runId;
    private final Path stateDirectory;
    private final Duration stageTimeout;
    private final PrintWriter progress;
    private final Admin admin;

    StageRunner(String bootstrapServers, BenchSettings settings, String runId, Path stateDirectory,
                Duration stageTimeout, PrintWriter progress) {
        this.bootstrapServers = bootstrapServers;
        this.settings = settings;
        this.stream = new SyntheticStream(settings.classes(), settings.features(), settings.seed());
        this.runId = runId;
        this.stateDirectory = stateDirectory;
        this.stageTimeout = stageTimeout;
        this.progress = progress;
        Properties adminProperties = new Properties();
        adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        this.admin = Admin.create(adminProperties);
    }

    /** The passthrough baseline over labelled events. */
    StageResult passthrough() {
        Topics topics = createTopics(Stage.PASSTHROUGH);
        long[] ends = preload(topics.labelled(), i -> stream.labelled(i));
        Topology topology = PassthroughTopology.build(topics.labelled(), topics.predictions());
        return runToOutput(Stage.PASSTHROUGH, topology, topics.labelled(), topics.predictions(), ends, value -> true,
                i -> stream.labelled(i));
    }

    /** Training; also returns the model that absorbed the N pre-loaded events (the scorer's fixed model). */
    TrainingRun training() {
        Topics topics = createTopics(Stage.TRAINING);
        long[] ends = preload(topics.labelled(), i -> stream.labelled(i));
        // The bench's dimension is the user's choice: the feature bound follows it rather than refuse it.
        TrainingSettings trainingSettings = settings.training(topics).withModelId(MODEL_ID)
                .withMaxFeatures(maxFeatures()).withFeatures(stream.featureNames())
                .withPublishInterval(settings.publishInterval());
        try (RunningApp app = start(Stage.TRAINING, TrainingTopology.build(trainingSettings));
             ModelWatcher models = new ModelWatcher(topics.model())) {
            ModelAt absorbed = models.awaitTotal(settings.events(), app);
            double seconds = (absorbed.appendTime() - app.runningAt()) / 1000.0;
            progress.printf("  training: model v%d absorbed %d events%n", absorbed.model().version(),
                    absorbed.model().totalCount());
            Percentiles freshness = freshness(topics.labelled(), models, app);
            return new TrainingRun(new StageResult(Stage.TRAINING.label(), settings.events(), seconds,
                    app.startupSeconds(), freshness), absorbed.model());
        }
    }

    /** Scoring with {@code model} pre-published and no trainer running. */
    StageResult scoring(ModelParameters model) {
        Topics topics = createTopics(Stage.SCORING);
        try (KafkaProducer<byte[], byte[]> producer = producer(0)) {
            producer.send(new ProducerRecord<>(topics.model(), MODEL_ID.getBytes(StandardCharsets.UTF_8),
                    SerdeFactory.model().serializer().serialize(topics.model(), model))).get();
        } catch (InterruptedException | ExecutionException e) {
            throw failure("cannot publish the model for scoring", e);
        }
        long[] ends = preload(topics.unlabelled(), i -> stream.unlabelled(THROUGHPUT_KEY_PREFIX, i));
        ScoringSettings scoringSettings = settings.scoring(topics)
                .withMaxFeatures(maxFeatures());
        return runToOutput(Stage.SCORING, ScoringTopology.build(scoringSettings), topics.unlabelled(),
                topics.predictions(), ends, StageRunner::isScoredPrediction,
                i -> stream.unlabelled(LATENCY_KEY_PREFIX, i));
    }

    private int maxFeatures() {
        return Math.max(settings.configuredMaxFeatures(), stream.featureNames().size());
    }

    record TrainingRun(StageResult result, ModelParameters model) {
    }

    /**
     * A scoring stage that answered "unscored" (no model, unknown feature) would do far less work per event:
     * its throughput would be meaningless, so every throughput output must be a scored prediction.
     */
    static boolean isScoredPrediction(byte[] value) {
        return value != null && new String(value, 0, Math.min(value.length, SCORED_PREFIX.length()),
                StandardCharsets.UTF_8).equals(SCORED_PREFIX);
    }

    private StageResult runToOutput(Stage stage, Topology topology, String input, String output, long[] ends,
                                    Predicate<byte[]> validOutput, IntFunction<byte[]> latencyEvent) {
        try (RunningApp app = start(stage, topology);
             KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            awaitCommitted(app, input, ends);
            List<TopicPartition> partitions = partitionsOf(consumer, output);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long seen = 0;
            long firstAppend = Long.MAX_VALUE;
            long invalid = 0;
            byte[] firstInvalid = null;
            long lastAppend = Long.MIN_VALUE;
            long deadline = System.nanoTime() + stageTimeout.toNanos();
            while (seen < settings.events()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    seen++;
                    firstAppend = Math.min(firstAppend, record.timestamp());
                    lastAppend = Math.max(lastAppend, record.timestamp());
                    if (!validOutput.test(record.value())) {
                        invalid++;
                        firstInvalid = firstInvalid == null ? record.value() : firstInvalid;
                    }
                }
                checkDeadline(deadline, stage, "reading " + settings.events() + " outputs, saw " + seen);
            }
            if (seen != settings.events()) {
                throw new IllegalStateException(stage.label() + ": " + seen + " outputs for " + settings.events()
                        + " events");
            }
            if (invalid > 0) {
                throw new IllegalStateException(stage.label() + ": " + invalid + " of " + seen
                        + " outputs are not what the stage should produce, e.g. "
                        + (firstInvalid == null ? "null" : new String(firstInvalid, StandardCharsets.UTF_8)));
            }
            // One stream thread can start processing while the client as a whole is still REBALANCING: on a
            // loaded machine a small N can then be done before RUNNING. The clock starts at whichever came first.
            double seconds = (lastAppend - Math.min(app.runningAt(), firstAppend)) / 1000.0;
            Percentiles latency = latency(input, consumer, app, latencyEvent);
            return new StageResult(stage.label(), settings.events(), seconds, app.startupSeconds(), latency);
        }
    }

    /** Paced events through a caught-up application: input append → output append, per event. */
    private Percentiles latency(String input, KafkaConsumer<byte[], byte[]> consumer, RunningApp app,
                                IntFunction<byte[]> event) {
        int n = settings.latencyEvents();
        long[] appended = sendPaced(input, event, n, null);
        long[] latencies = new long[n];
        boolean[] done = new boolean[n];
        int remaining = n;
        long deadline = System.nanoTime() + stageTimeout.toNanos();
        while (remaining > 0) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                String key = new String(record.key(), StandardCharsets.UTF_8);
                if (key.startsWith(LATENCY_KEY_PREFIX)) {
                    int i = Integer.parseInt(key.substring(LATENCY_KEY_PREFIX.length()));
                    if (!done[i]) {
                        done[i] = true;
                        latencies[i] = record.timestamp() - appended[i];
                        remaining--;
                    }
                }
            }
            app.checkHealthy();
            checkDeadline(deadline, app.stage(), "waiting for latency outputs, " + remaining + " missing");
        }
        return Percentiles.of(latencies);
    }

    /**
     * Paced labelled events through a caught-up trainer: for each, the first model version (in publication
     * order) whose lineage offset for the event's partition is past the event's offset.
     */
    private Percentiles freshness(String input, ModelWatcher models, RunningApp app) {
        int n = settings.latencyEvents();
        int[] partitionOf = new int[n];
        long[] offsetOf = new long[n];
        long[] appended = sendPaced(input, i -> stream.labelled(settings.events() + i), n,
                (i, metadata) -> {
                    partitionOf[i] = metadata.partition();
                    offsetOf[i] = metadata.offset();
                });
        List<ModelAt> versions = models.collectUntilTotal(settings.events() + n, app);
        long[] freshness = new long[n];
        for (int i = 0; i < n; i++) {
            String partition = Integer.toString(partitionOf[i]);
            freshness[i] = -1;
            for (ModelAt version : versions) {
                Long absorbedUpTo = version.model().sources().get(partition);
                if (absorbedUpTo != null && absorbedUpTo > offsetOf[i]) {
                    freshness[i] = version.appendTime() - appended[i];
                    break;
                }
            }
            if (freshness[i] < 0) {
                throw new IllegalStateException("no model includes " + partition + "@" + offsetOf[i]);
            }
        }
        return Percentiles.of(freshness);
    }

    interface SendListener {
        void sent(int i, org.apache.kafka.clients.producer.RecordMetadata metadata);
    }

    /** Sends n events at {@code latencyRate}/s, one at a time (no linger); returns their append times. */
    private long[] sendPaced(String topic, IntFunction<byte[]> event, int n, SendListener listener) {
        long[] appended = new long[n];
        AtomicReference<Exception> error = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(0)) {
            long start = System.nanoTime();
            long intervalNanos = 1_000_000_000L / settings.latencyRate();
            for (int i = 0; i < n; i++) {
                long due = start + i * intervalNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                int index = i;
                producer.send(new ProducerRecord<>(topic, SyntheticStream.key(LATENCY_KEY_PREFIX, i), event.apply(i)),
                        (metadata, e) -> {
                            if (e != null) {
                                error.compareAndSet(null, e);
                            } else {
                                appended[index] = metadata.timestamp();
                                if (listener != null) {
                                    listener.sent(index, metadata);
                                }
                            }
                        });
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted while sending latency events", e);
        }
        if (error.get() != null) {
            throw failure("cannot send latency events", error.get());
        }
        return appended;
    }

    /** Sends the N throughput events as fast as the producer goes; returns the end offset per partition. */
    private long[] preload(String topic, IntFunction<byte[]> event) {
        long[] ends = new long[settings.partitions()];
        AtomicReference<Exception> error = new AtomicReference<>();
        AtomicLong bytes = new AtomicLong();
        long started = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = producer(20)) {
            int first = primePartitions(producer, topic, event, ends, bytes);
            for (int i = first; i < settings.events(); i++) {
                byte[] value = event.apply(i);
                bytes.addAndGet(value.length);
                producer.send(new ProducerRecord<>(topic, SyntheticStream.key(THROUGHPUT_KEY_PREFIX, i), value),
                        (metadata, e) -> {
                            if (e != null) {
                                error.compareAndSet(null, e);
                            } else {
                                synchronized (ends) {
                                    ends[metadata.partition()] = Math.max(ends[metadata.partition()],
                                            metadata.offset() + 1);
                                }
                            }
                        });
            }
            producer.flush();
        }
        if (error.get() != null) {
            throw failure("cannot pre-load " + topic, error.get());
        }
        progress.printf("  pre-loaded %d events (%.1f MB) into %s in %.1f s%n", settings.events(),
                bytes.get() / 1e6, topic, (System.nanoTime() - started) / 1e9);
        progress.flush();
        return ends;
    }

    /**
     * Sends the first events one at a time until every partition has one. A freshly created partition can
     * answer the first pipelined batches with NOT_LEADER_OR_FOLLOWER; the idempotent producer's retry then
     * hit OutOfOrderSequenceException on this broker and the batches expired (seen in 3 of 5 runs). Once each
     * partition has taken a record, pipelining is safe. Returns the index of the next event to send.
     */
    private int primePartitions(KafkaProducer<byte[], byte[]> producer, String topic, IntFunction<byte[]> event,
                                long[] ends, AtomicLong bytes) {
        boolean[] primed = new boolean[ends.length];
        int primedCount = 0;
        int i = 0;
        try {
            while (primedCount < ends.length && i < settings.events()) {
                byte[] value = event.apply(i);
                bytes.addAndGet(value.length);
                var metadata = producer.send(new ProducerRecord<>(topic,
                        SyntheticStream.key(THROUGHPUT_KEY_PREFIX, i), value)).get();
                ends[metadata.partition()] = metadata.offset() + 1;
                if (!primed[metadata.partition()]) {
                    primed[metadata.partition()] = true;
                    primedCount++;
                }
                i++;
            }
        } catch (InterruptedException | ExecutionException e) {
            throw failure("cannot pre-load " + topic, e);
        }
        return i;
    }

    /** Waits until the application's committed offsets on {@code input} reach {@code ends}. */
    private void awaitCommitted(RunningApp app, String input, long[] ends) {
        long deadline = System.nanoTime() + stageTimeout.toNanos();
        while (true) {
            Map<TopicPartition, OffsetAndMetadata> committed;
            try {
                committed = admin.listConsumerGroupOffsets(app.applicationId()).partitionsToOffsetAndMetadata()
                        .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                throw failure("cannot read the committed offsets of " + app.applicationId(), e);
            }
            boolean done = true;
            for (int p = 0; p < ends.length; p++) {
                OffsetAndMetadata offset = committed.get(new TopicPartition(input, p));
                done &= offset != null && offset.offset() >= ends[p];
            }
            if (done) {
                return;
            }
            app.checkHealthy();
            checkDeadline(deadline, app.stage(), "waiting for committed offsets " + committed);
            sleep(POLL);
        }
    }

    private Topics createTopics(Stage stage) {
        String prefix = "bench-" + runId + "-" + stage.label() + "-";
        Topics topics = new Topics(prefix + "labelled", prefix + "unlabelled", prefix + "model",
                prefix + "predictions", prefix + "dead-letters");
        Map<String, String> appendTime = Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");
        List<NewTopic> plan = new ArrayList<>();
        for (String name : List.of(topics.labelled(), topics.unlabelled(), topics.predictions(),
                topics.deadLetters())) {
            plan.add(new NewTopic(name, settings.partitions(), (short) 1).configs(appendTime));
        }
        Map<String, String> modelConfig = new HashMap<>(appendTime);
        modelConfig.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        plan.add(new NewTopic(topics.model(), 1, (short) 1).configs(modelConfig));
        try {
            admin.createTopics(plan).all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw failure("cannot create the topics of stage " + stage.label(), e);
        }
        TopicProvisioner.awaitServed(admin, plan.stream().map(NewTopic::name).toList());
        return topics;
    }

    private RunningApp start(Stage stage, Topology topology) {
        Properties properties = settings.streamsProperties(stage.label());
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench-" + runId + "-" + stage.label());
        properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDirectory.resolve(stage.label()).toString());
        properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, settings.threads());
        properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, settings.guarantee());
        properties.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        return new RunningApp(stage, topology, properties, stageTimeout);
    }

    private KafkaProducer<byte[], byte[]> producer(int lingerMs) {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static List<TopicPartition> partitionsOf(KafkaConsumer<?, ?> consumer, String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic, Duration.ofSeconds(ADMIN_TIMEOUT_SECONDS))
                .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
        return partitions;
    }

    private static void checkDeadline(long deadline, Stage stage, String what) {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException(stage.label() + ": timed out " + what);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static IllegalStateException failure(String message, Exception cause) {
        Throwable root = cause instanceof ExecutionException && cause.getCause() != null ? cause.getCause() : cause;
        return new IllegalStateException(message + ": " + root, root);
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(10));
    }

    /** One model record read back, with its broker append time. */
    record ModelAt(ModelParameters model, long appendTime) {
    }

    /** Reads the model topic from the beginning (committed records only). */
    private final class ModelWatcher implements AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer = consumer();
        private final Deserializer<ModelParameters> models = SerdeFactory.model().deserializer();

        ModelWatcher(String topic) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
        }

        ModelAt awaitTotal(long total, RunningApp app) {
            List<ModelAt> versions = collectUntilTotal(total, app);
            return versions.get(versions.size() - 1);
        }

        /** Every model read from now on, up to and including the first with {@code totalCount >= total}. */
        List<ModelAt> collectUntilTotal(long total, RunningApp app) {
            List<ModelAt> versions = new ArrayList<>();
            long deadline = System.nanoTime() + stageTimeout.toNanos();
            while (true) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    ModelParameters model = models.deserialize(record.topic(), record.value());
                    versions.add(new ModelAt(model, record.timestamp()));
                    if (model.totalCount() >= total) {
                        // Later models of the same poll belong to the next phase; none exist before it starts.
                        return versions;
                    }
                }
                app.checkHealthy();
                checkDeadline(deadline, Stage.TRAINING, "waiting for a model of " + total + " events");
            }
        }

        @Override
        public void close() {
            consumer.close(Duration.ofSeconds(10));
        }
    }
}
