package io.gdastreams.topology;

import static io.gdastreams.topology.TrainingFixtures.assertModelEquals;
import static io.gdastreams.topology.TrainingFixtures.goldenIrisMle;
import static io.gdastreams.topology.TrainingFixtures.labelledJson;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.math.PooledClasses;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * PartialStatsProcessor as four tasks of a 4-partition topic (MockProcessorContext with record metadata), and its
 * state: every update is written through to the store, and a re-initialised processor continues from the store.
 */
class TrainingPartialStatsProcessorTest {

    private static final String TOPIC = "labelled-events";
    private static final TrainingSettings SETTINGS = TrainingSettings.defaults(Topics.defaults())
            .withModelId("iris").withPublishInterval(Duration.ofSeconds(1));

    /** One task: its processor, context and store. */
    private static final class Task {
        final int partition;
        final TrainingSettings settings;
        /** The trainer's global store of the newest model on the model topic. */
        final KeyValueStore<String, byte[]> published;
        final MockProcessorContext<String, TrainingOutput> context;
        final KeyValueStore<String, byte[]> store;
        PartialStatsProcessor processor;
        long nextOffset;
        /** The group's committed offset on the partition: every processed record is committed (null before). */
        Long committedOffset;
        /** The committed offset as the processor reads it; every offset of the test topic holds a record. */
        final CommittedInput.Source committedInput = configs -> new CommittedInput() {
            @Override
            public OptionalLong committedOffset(String topic, int p) {
                assertEquals(TOPIC, topic);
                assertEquals(partition, p);
                return committedOffset == null ? OptionalLong.empty() : OptionalLong.of(committedOffset);
            }

            @Override
            public boolean hasRecords(String topic, int p, long from, long to) {
                return from < to;
            }
        };

        Task(int partition) {
            this(partition, StreamsConfig.AT_LEAST_ONCE);
        }

        Task(int partition, String guarantee) {
            this(partition, guarantee, SETTINGS);
        }

        Task(int partition, String guarantee, TrainingSettings settings) {
            this.partition = partition;
            this.settings = settings;
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "training-test");
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
            context = new MockProcessorContext<>(props, new TaskId(0, partition), null);
            context.setCurrentSystemTimeMs(0L);
            store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TrainingTopology.CLASS_STATS_STORE),
                    SerdeFactory.string(), SerdeFactory.rawBytes()).withLoggingDisabled().build();
            store.init(context.getStateStoreContext(), store);
            context.addStateStore(store);
            published = Stores.keyValueStoreBuilder(
                    Stores.inMemoryKeyValueStore(TrainingTopology.PUBLISHED_STORE), SerdeFactory.string(),
                    SerdeFactory.rawBytes()).withLoggingDisabled().build();
            published.init(context.getStateStoreContext(), published);
            context.addStateStore(published);
            restartProcessor();
        }

        /** From now on writes of class statistics fail with {@code failure}, as a fenced producer's would. */
        void failStoreWrites(RuntimeException failure) {
            @SuppressWarnings("unchecked")
            KeyValueStore<String, byte[]> failing = (KeyValueStore<String, byte[]>) java.lang.reflect.Proxy.newProxyInstance(
                    KeyValueStore.class.getClassLoader(), new Class<?>[] {KeyValueStore.class}, (proxy, method, args) -> {
                        if (method.getName().equals("put") && ((String) args[0]).startsWith("class:")) {
                            throw failure;
                        }
                        try {
                            return method.invoke(store, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            context.addStateStore(failing);
            context.resetForwards();
            restartProcessor();
        }

        /** What the store holds now, as a committed transaction would have left it. */
        Map<String, byte[]> committed() {
            Map<String, byte[]> copy = new HashMap<>();
            try (var all = store.all()) {
                all.forEachRemaining(kv -> copy.put(kv.key, kv.value.clone()));
            }
            return copy;
        }

        /** A crash and restore: the store holds {@code committed} again, and the processor starts anew. */
        void restoreAndRestart(Map<String, byte[]> committed) {
            processor.close();
            try (var all = store.all()) {
                all.forEachRemaining(kv -> store.delete(kv.key));
            }
            committed.forEach(store::put);
            restartProcessor();
        }

        void restartProcessor() {
            processor = new PartialStatsProcessor(settings, committedInput);
            processor.init(context);
        }

        void send(byte[] value) {
            context.setRecordMetadata(TOPIC, partition, nextOffset);
            processor.process(new Record<>(("k" + (nextOffset + 1)).getBytes(StandardCharsets.UTF_8), value, 0L));
            nextOffset++;
            committedOffset = nextOffset;
        }

        /** Runs the publish punctuator and returns the snapshots it emitted. */
        List<PartialSnapshot> punctuate() {
            return punctuateAt(1000L);
        }

        /** Runs the publish punctuator at wall-clock time {@code now} and returns the snapshots it emitted. */
        List<PartialSnapshot> punctuateAt(long now) {
            context.resetForwards();
            context.setCurrentSystemTimeMs(now);
            // The newest processor's: a restarted task's context still lists its predecessor's punctuator first.
            var punctuators = context.scheduledPunctuators();
            punctuators.get(punctuators.size() - 1).getPunctuator().punctuate(now);
            List<PartialSnapshot> snapshots = new ArrayList<>();
            for (var forward : context.forwarded()) {
                if (forward.record().value() instanceof TrainingOutput.Partial partial) {
                    // Every snapshot tells the combiner how its sender is configured (SettingsAgreement).
                    var header = forward.record().headers().lastHeader(StateSettings.HEADER);
                    assertArrayEquals(StateSettings.of(settings).encoded(), header == null ? null : header.value());
                    snapshots.add(SerdeFactory.partialSnapshot().deserializer().deserialize(null, partial.snapshot()));
                }
            }
            return snapshots;
        }
    }

    @Test
    void shouldSendOneCumulativeSnapshotPerPartitionWhoseMergeIsTheBatchMle() {
        List<Task> tasks = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            tasks.add(new Task(p));
        }
        List<LabelledRow> rows = Iris.rows();
        for (int i = 0; i < rows.size(); i++) {
            tasks.get(i % 4).send(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
        }

        List<PartialSnapshot> sent = new ArrayList<>();
        List<String> features = null;
        for (Task task : tasks) {
            List<PartialSnapshot> snapshots = task.punctuate();
            assertEquals(1, snapshots.size());
            PartialSnapshot snapshot = snapshots.get(0);
            assertEquals(task.partition, snapshot.progress().partition());
            assertEquals(task.nextOffset, snapshot.progress().nextOffset());
            assertEquals(task.nextOffset, snapshot.progress().applied());
            assertEquals(0, snapshot.progress().deadLettered());
            assertEquals(task.nextOffset, snapshot.classCount());
            assertEquals("iris", snapshot.modelId());
            features = snapshot.progress().features();
            sent.add(snapshot);
            assertTrue(task.punctuate().isEmpty(), "nothing changed, nothing sent");
        }
        assertModelEquals(goldenIrisMle(), modelOf(features,
                PooledClasses.of(sent.stream().map(PartialSnapshot::classes).toList(), label -> true)));
    }

    /**
     * A task with nothing new at a tick re-sends its last snapshot once (the combiner counts it as the partition's
     * word that it is quiet), but not after a restart: the restart's own snapshot is already an equal re-send, and
     * the tick after it has nothing to say.
     */
    @Test
    void shouldSendTheQuietWordOnceAfterNewsButNotAfterARestartsOwnResend() {
        Task task = new Task(0); // publish interval 1 s: ticks at every whole second
        List<LabelledRow> rows = Iris.rows();
        for (int i = 0; i < 5; i++) {
            task.send(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
        }
        PartialSnapshot news = single(task.punctuateAt(1_000));
        assertEquals(5, news.progress().applied());
        assertEquals(news.progress(), single(task.punctuateAt(2_000)).progress(), "the quiet word: the same snapshot");
        assertTrue(task.punctuateAt(3_000).isEmpty(), "the quiet word is sent once");

        task.context.setCurrentSystemTimeMs(3_500);
        task.restartProcessor(); // the same store, a new processor: Kafka Streams re-created the task
        assertEquals(news.progress(), single(task.punctuateAt(4_000)).progress(), "a restart re-sends its state");
        assertTrue(task.punctuateAt(5_000).isEmpty(), "no quiet word after the restart's own re-send");

        task.send(labelledJson(Iris.FEATURES, rows.get(5).x(), rows.get(5).label()));
        assertEquals(6, single(task.punctuateAt(6_000)).progress().applied());
        assertEquals(6, single(task.punctuateAt(7_000)).progress().applied(), "news again, then the quiet word");
        assertTrue(task.punctuateAt(8_000).isEmpty());
    }

    /** Kafka Streams may call init again on the same processor (a revived task): that too is a restart. */
    @Test
    void shouldSendNoQuietWordAfterARevivedProcessorsFirstSnapshot() {
        Task task = new Task(1);
        List<LabelledRow> rows = Iris.rows();
        task.send(labelledJson(Iris.FEATURES, rows.get(0).x(), rows.get(0).label())); // news, not yet snapshotted
        task.processor.init(task.context); // revived: the state is read again from the store
        assertEquals(1, single(task.punctuateAt(1_000)).progress().applied(), "the stored state re-sent");
        assertTrue(task.punctuateAt(2_000).isEmpty(), "no quiet word: that snapshot was the revival's re-send");
    }

    private static PartialSnapshot single(List<PartialSnapshot> snapshots) {
        assertEquals(1, snapshots.size(), snapshots.toString());
        return snapshots.get(0);
    }

    @Test
    void shouldWriteEveryUpdateThroughToTheStore() {
        Task task = new Task(2);
        List<LabelledRow> rows = Iris.rows();
        for (int i = 0; i < 10; i++) {
            task.send(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
            assertEquals(i + 1, RunningGaussian.fromBytes(task.store.get("class:setosa")).count(),
                    "the class in the store after event " + i);
            assertArrayEquals(ProgressCounters.encode(new PartitionProgress(2, i + 1, i + 1, 0, Iris.FEATURES)),
                    task.store.get(PartitionState.PROGRESS_KEY), "the progress in the store after event " + i);
        }
    }

    @Test
    void shouldContinueFromTheStoreWhenTheTaskIsRestoredAndReinitialised() {
        Task task = new Task(1);
        List<LabelledRow> rows = Iris.rows();
        for (int i = 0; i < 75; i++) {
            task.send(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
        }
        Map<String, byte[]> committed = task.committed();
        task.send(labelledJson(Iris.FEATURES, rows.get(75).x(), rows.get(75).label())); // never committed
        task.restoreAndRestart(committed); // aborted transaction: the store is restored from the changelog
        task.nextOffset = 75;               // ...and the record is read again
        task.committedOffset = 75L;
        for (int i = 75; i < rows.size(); i++) {
            task.send(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
        }
        PartialSnapshot snapshot = task.punctuate().get(0);
        assertEquals(150, snapshot.progress().applied());
        assertEquals(150, snapshot.progress().nextOffset());
        assertModelEquals(goldenIrisMle(), modelOf(snapshot.progress().features(), snapshot.classes()));
    }

    @Test
    void shouldRefuseToContinueFromAStoreWhoseStatisticsLostEventsTheProgressCounts() {
        Task task = new Task(0);
        List<LabelledRow> rows = Iris.rows();
        for (int i = 0; i < 20; i++) {
            task.send(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
        }
        Map<String, byte[]> committed = task.committed();
        committed.remove("class:setosa"); // what a lost class entry would look like: progress says 20 applied
        task.restoreAndRestart(committed);

        TrainingStateException e = assertThrows(TrainingStateException.class,
                () -> task.send(labelledJson(Iris.FEATURES, rows.get(20).x(), rows.get(20).label())));
        assertTrue(e.getMessage().contains("20 applied events up to offset 20 but its class statistics hold 0"),
                e.getMessage());
    }

    @Test
    void shouldReadTheProgressOfTheEarlierJsonLayoutAndRewriteIt() {
        Task task = new Task(3);
        List<LabelledRow> rows = Iris.rows();
        for (int i = 0; i < 5; i++) {
            task.send(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
        }
        Map<String, byte[]> committed = task.committed();
        committed.remove(PartitionState.SCHEMA_KEY);
        committed.put(PartitionState.PROGRESS_KEY, SerdeFactory.partitionProgress().serializer()
                .serialize(null, new PartitionProgress(3, 5, 5, 0, Iris.FEATURES)));
        task.restoreAndRestart(committed);

        task.send(labelledJson(Iris.FEATURES, rows.get(5).x(), rows.get(5).label()));

        PartialSnapshot snapshot = task.punctuate().get(0);
        assertEquals(new PartitionProgress(3, 6, 6, 0, Iris.FEATURES), snapshot.progress());
        assertArrayEquals(ProgressCounters.encode(snapshot.progress()),
                task.store.get(PartitionState.PROGRESS_KEY));
    }

    @Test
    void shouldRefuseAStoreWithAnUnreadableEntryAndLeaveTheStoreAsItIs() {
        Task task = new Task(3);
        List<LabelledRow> rows = Iris.rows();
        task.send(labelledJson(Iris.FEATURES, rows.get(0).x(), rows.get(0).label()));
        Map<String, byte[]> committed = task.committed();
        committed.put("class:setosa", new byte[] {1, 0, 0, 0, 4, 0}); // damaged on disk
        task.restoreAndRestart(committed);
        task.context.resetForwards();

        TrainingStateException e = assertThrows(TrainingStateException.class,
                () -> task.send(labelledJson(Iris.FEATURES, rows.get(1).x(), rows.get(1).label())));

        assertTrue(e.getMessage().startsWith("the training state of partition 3 is damaged: unreadable statistics of"
                + " class 'setosa'"), e.getMessage());
        assertStoreHolds(committed, task);
        assertTrue(task.context.forwarded().isEmpty(), "nothing is dead-lettered or sent from a damaged state");
    }

    /**
     * What a restore that stopped early leaves of a compacted changelog, as seen in a fault run: class entries
     * whose progress and schema had not been restored yet. Dropping the entries (the earlier behaviour) wrote
     * the loss into the changelog.
     */
    @Test
    void shouldRefuseClassStatisticsWithoutTheirProgressAndLeaveTheStoreAsItIs() {
        Task task = new Task(1);
        List<LabelledRow> rows = Iris.rows();
        for (int i = 0; i < 12; i++) {
            task.send(labelledJson(Iris.FEATURES, rows.get(i * 12).x(), rows.get(i * 12).label()));
        }
        Map<String, byte[]> partial = task.committed();
        partial.remove(PartitionState.PROGRESS_KEY);
        partial.remove(PartitionState.SCHEMA_KEY);
        task.restoreAndRestart(partial);

        TrainingStateException e = assertThrows(TrainingStateException.class, task::punctuate);

        assertTrue(e.getMessage().startsWith("the training state of partition 1 is damaged: statistics of class"),
                e.getMessage());
        assertStoreHolds(partial, task);
    }

    /** The store as Kafka Streams' bug leaves it: an old state, restored as if complete. */
    @Test
    void shouldRefuseAnOldStateWhoseRecordsTheGroupHasCommittedUnderEitherGuarantee() {
        for (String guarantee : List.of(StreamsConfig.EXACTLY_ONCE_V2, StreamsConfig.AT_LEAST_ONCE)) {
            Task task = new Task(2, guarantee);
            List<LabelledRow> rows = Iris.rows();
            Map<String, byte[]> old = null;
            for (int i = 0; i < 30; i++) {
                if (i == 20) {
                    old = task.committed();
                }
                task.send(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
            }
            task.restoreAndRestart(old);
            task.context.resetForwards();

            TrainingStateException e = assertThrows(TrainingStateException.class,
                    () -> task.send(labelledJson(Iris.FEATURES, rows.get(30).x(), rows.get(30).label())), guarantee);

            assertTrue(e.getMessage().startsWith("the training state of labelled-events-2 reaches offset 20 but the"
                    + " consumer group committed offset 30"), e.getMessage());
            assertStoreHolds(old, task);
            assertTrue(task.context.forwarded().isEmpty(), guarantee + ": nothing sent from the old state");
            assertThrows(TrainingStateException.class, task::punctuate, "nor a snapshot when no record comes");
        }
    }

    @Test
    void shouldRefuseUnderExactlyOnceAStateAheadOfTheCommittedOffsetButGoOnUnderAtLeastOnce() {
        List<LabelledRow> rows = Iris.rows();
        Task exactlyOnce = new Task(0, StreamsConfig.EXACTLY_ONCE_V2);
        Task atLeastOnce = new Task(0, StreamsConfig.AT_LEAST_ONCE);
        for (Task task : List.of(exactlyOnce, atLeastOnce)) {
            for (int i = 0; i < 10; i++) {
                task.send(labelledJson(Iris.FEATURES, rows.get(i).x(), rows.get(i).label()));
            }
            task.committedOffset = 4L; // the input offsets were reset behind the state's back
            task.nextOffset = 4;
            task.restoreAndRestart(task.committed());
        }

        TrainingStateException e = assertThrows(TrainingStateException.class,
                () -> exactlyOnce.send(labelledJson(Iris.FEATURES, rows.get(4).x(), rows.get(4).label())));
        assertTrue(e.getMessage().contains("reaches offset 10 but the consumer group committed offset 4"),
                e.getMessage());
        atLeastOnce.send(labelledJson(Iris.FEATURES, rows.get(4).x(), rows.get(4).label()));
        assertEquals(11, atLeastOnce.punctuate().get(0).progress().applied(),
                "at-least-once counts the re-read record again, as documented");
    }

    private static void assertStoreHolds(Map<String, byte[]> expected, Task task) {
        Map<String, byte[]> actual = task.committed();
        assertEquals(new TreeMap<>(expected).keySet(), new TreeMap<>(actual).keySet(), "the store's keys");
        expected.forEach((key, value) -> assertArrayEquals(value, actual.get(key), "the store's entry " + key));
    }

    @Test
    void shouldLetAFailureOfTheStoreReachKafkaStreamsInsteadOfDeadLetteringTheEvent() {
        Task task = new Task(1);
        task.send(labelledJson(Iris.FEATURES, Iris.rows().get(0).x(), Iris.rows().get(0).label()));
        // The write-through happens while the record is processed: a fenced producer surfaces there.
        task.failStoreWrites(new TaskMigratedException("producer fenced"));

        assertThrows(TaskMigratedException.class,
                () -> task.send(labelledJson(Iris.FEATURES, Iris.rows().get(1).x(), Iris.rows().get(1).label())));
        assertTrue(task.context.forwarded().stream().noneMatch(f -> f.record().value() instanceof TrainingOutput.Rejected),
                "nothing dead-lettered: the record is processed again after the task is revived");
    }

    /**
     * Combiner and tasks overshot the size bound together, and the combiner left this task's class out of a model
     * whose published classes fill the bound: no later version can take the class, so its next events are refused
     * with the reason rather than learnt by no model. While the bound is not full they are applied.
     */
    @Test
    void shouldRefuseEventsOfAnAdmittedClassThatAFullPublishedModelLeavesOut() {
        List<String> ab = List.of("a", "b");
        long limit = ModelSizeBound.HEADER_BYTES + ModelSizeBound.classBytes(ab.size()) * 5 / 2 + 2 * (6 + 3);
        TrainingSettings settings = SETTINGS.withMaxModelBytes(limit);
        assertEquals(2, ModelSizeBound.maxClasses(ab, settings));
        Task task = new Task(1, StreamsConfig.AT_LEAST_ONCE, settings);
        task.send(labelledJson(ab, new double[] {1, 2}, "k3")); // no model yet: admitted
        task.send(labelledJson(ab, new double[] {2, 1}, "k3"));

        publish(task, ab, "k1"); // one published class: the bound is not full, k3 may still come in
        task.send(labelledJson(ab, new double[] {3, 3}, "k3"));
        publish(task, ab, "k1", "k2"); // full, without k3
        task.context.resetForwards();
        task.send(labelledJson(ab, new double[] {4, 2}, "k3"));

        List<DeadLetter> letters = new ArrayList<>();
        task.context.forwarded().forEach(f -> {
            if (f.record().value() instanceof TrainingOutput.Rejected r) {
                letters.add(r.deadLetter());
            }
        });
        assertEquals(1, letters.size());
        assertEquals("model size limit: label 'k3' is left out of model 'iris', whose 2 published classes are as many"
                + " as a model of d = 2 may have within the record limit of " + limit + " bytes"
                + " (producer.max.request.size; docs/TRAINING.md, 'Model size')", letters.get(0).reason());
        PartitionProgress progress = task.punctuate().get(0).progress();
        assertEquals(3, progress.applied());
        assertEquals(1, progress.deadLettered());
    }

    /** Puts a model of {@code labels} (two points each) in the task's store of the newest published model. */
    private static void publish(Task task, List<String> features, String... labels) {
        Map<String, RunningGaussian> classes = new TreeMap<>();
        for (String label : labels) {
            RunningGaussian stats = new RunningGaussian(features.size());
            stats.update(new double[] {0, 1});
            stats.update(new double[] {1, 0});
            classes.put(label, stats);
        }
        task.published.put("iris", SerdeFactory.model().serializer().serialize(null, modelOf(features, classes)));
    }

    /** The MLE model of merged statistics, as the combiner publishes it. */
    private static ModelParameters modelOf(List<String> features, Map<String, RunningGaussian> classes) {
        return ModelParameters.ofStatistics("iris", 1, features, classes, new HashMap<>(), "", "");
    }
}
