package io.gdastreams.topology;

import static io.gdastreams.topology.CombinerFixtures.PARTIALS;
import static io.gdastreams.topology.CombinerFixtures.context;
import static io.gdastreams.topology.CombinerFixtures.encode;
import static io.gdastreams.topology.CombinerFixtures.lastPunctuator;
import static io.gdastreams.topology.CombinerFixtures.models;
import static io.gdastreams.topology.CombinerFixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.Forgetting;
import io.gdastreams.math.Statistics;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.settings.AppConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settings a trainer instance sends with its snapshots ({@link StateSettings}) and the combiner's hold while
 * instances differ ({@link SettingsAgreement}): docs/RELIABILITY.md, "Instances of one application share one
 * configuration".
 */
class SettingsAgreementTest {

    private static final List<String> AB = List.of("a", "b");
    private static final TrainingSettings SETTINGS = TrainingSettings.defaults(Topics.defaults()).withModelId("m");

    @TempDir
    Path dir;

    /** The settings of a trainer configured by {@code lines} (a properties file), read as {@code train} reads it. */
    private TrainingSettings configured(String... lines) throws IOException {
        Path file = dir.resolve("app.properties");
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return AppConfig.load(file, Map.of()).trainingSettings();
    }

    private static String text(TrainingSettings settings) {
        return new String(StateSettings.of(settings).encoded(), StandardCharsets.UTF_8);
    }

    @Test
    void shouldSendTheKeysThatShapeTheStateAsConfigured() throws IOException {
        assertEquals("""
                gda.features=
                gda.categorical.features=
                gda.statistics=full
                gda.forgetting.half-life.ms=none
                gda.drift.action=alert
                """, text(configured()));
        assertEquals("""
                gda.features=x2,x1
                gda.categorical.features=colour
                gda.statistics=diagonal
                gda.forgetting.half-life.ms=60000
                gda.drift.action=reset
                gda.drift.delta=0.25
                gda.drift.lambda=40
                gda.drift.warmup.events=300
                gda.covariance=diag
                gda.estimator=unbiased
                gda.reg.param=0.5
                gda.variance.floor=1.0E-6
                gda.min.count=5
                gda.priors=none
                gda.categorical.alpha=0.5
                """, text(configured("gda.features=x2,x1", "gda.categorical.features=colour",
                "gda.categorical.max.values=12", "gda.max.classes=7", "gda.max.features=64",
                "gda.statistics=diagonal", "gda.covariance=diag", "gda.forgetting.half-life.ms=60000", "gda.prequential=true",
                "gda.drift.action=reset", "gda.drift.delta=0.25", "gda.drift.lambda=40",
                "gda.drift.warmup.events=300", "gda.estimator=unbiased", "gda.reg.param=0.5",
                "gda.variance.floor=1e-6", "gda.min.count=5", "gda.categorical.alpha=0.5")));
        // Priors are compared by label, whatever order they were written in.
        assertEquals(text(configured("gda.prequential=true", "gda.drift.action=reset", "gda.priors=b:0.75,a:0.25")),
                text(configured("gda.prequential=true", "gda.drift.action=reset", "gda.priors=a:0.25,b:0.75")));
        assertTrue(text(configured("gda.prequential=true", "gda.drift.action=reset", "gda.priors=b:0.75,a:0.25"))
                .contains("gda.priors=a:0.25,b:0.75\n"));
        // Evaluation that only alerts resets nothing: its thresholds and fit, and the publish interval, shape no
        // state; bounds refuse events (dead-lettered) but keep what is kept in the same form.
        assertEquals(text(configured()), text(configured("gda.prequential=true", "gda.drift.lambda=10",
                "gda.covariance=tied", "gda.publish.interval.ms=250", "gda.forgetting.half-life.ms=",
                "gda.max.classes=7", "gda.max.features=64", "gda.categorical.max.values=12")));
        assertEquals("gda.forgetting.half-life.ms=1500.5", text(configured("gda.forgetting.half-life.ms=1500.5"))
                .lines().filter(l -> l.startsWith("gda.forgetting")).findFirst().orElseThrow());
    }

    @Test
    void shouldCompareOnlyTheKeysBothSendAndReadNothingFromAnUnreadableHeader() {
        StateSettings ours = StateSettings.of(SETTINGS);
        StateSettings same = read(StateSettings.of(SETTINGS).encoded());
        assertEquals(List.of(), ours.differencesFrom(same));
        StateSettings forgetting = read(StateSettings.of(SETTINGS.withForgetting(new Forgetting(60_000))).encoded());
        assertEquals(List.of(new StateSettings.Difference("gda.forgetting.half-life.ms", "60000", "none")),
                ours.differencesFrom(forgetting));
        // An earlier release that sends fewer keys (or a later one that sends more) differs only where both speak.
        StateSettings fewer = read("gda.statistics=diagonal\ngda.unknown.key=1\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(new StateSettings.Difference("gda.statistics", "diagonal", "full")),
                ours.differencesFrom(fewer));

        assertTrue(readHeaders(new RecordHeaders()).isEmpty(), "no header: nothing known");
        assertTrue(readHeaders(headers("no key value lines".getBytes(StandardCharsets.UTF_8))).isEmpty());
        assertTrue(readHeaders(new RecordHeaders().add(StateSettings.HEADER, null)).isEmpty());
        byte[] huge = new byte[StateSettings.MAX_HEADER_BYTES + 1];
        Arrays.fill(huge, (byte) 'x');
        huge[1] = '=';
        assertTrue(readHeaders(headers(huge)).isEmpty(), "a header longer than any this class writes");
        assertArrayEquals(StateSettings.of(SETTINGS).encoded(), StateSettings.of(SETTINGS).encoded());
    }

    @Test
    void shouldSendALongFeatureListAsADigestThatStillTellsOrderAndContent() {
        List<String> many = IntStream.range(0, 200).mapToObj(i -> "feature_" + i).toList();
        List<String> reversed = new ArrayList<>(many);
        java.util.Collections.reverse(reversed);
        String digest = feature(SETTINGS.withFeatures(many));
        assertTrue(digest.matches("200 names, sha256:[0-9a-f]{16}"), digest);
        assertEquals(digest, feature(SETTINGS.withFeatures(List.copyOf(many))));
        assertNotEquals(digest, feature(SETTINGS.withFeatures(reversed)), "another order is another schema");
        assertTrue(StateSettings.of(SETTINGS.withFeatures(many)).encoded().length < 512, "small whatever the schema");
        assertEquals("a,b", feature(SETTINGS.withFeatures(AB)));
        assertTrue(StateSettings.plain("a\nb").startsWith("sha256:"), "a line break cannot break the lines");
    }

    @Test
    void shouldHoldTheModelWhileAPartitionsNewestSnapshotComesFromAnInstanceConfiguredOtherwise() {
        MockProcessorContext<String, TrainingOutput> context = context();
        List<String> held = new ArrayList<>();
        ModelCombiner combiner = new ModelCombiner(SETTINGS, heldInto(held));
        combiner.init(context);
        TrainingSettings odd = SETTINGS.withForgetting(new Forgetting(60_000)).withStatistics(Statistics.FULL);
        process(combiner, context, 0, snapshot(1, AB, new double[][] {{3, 4}}), odd, 0);
        process(combiner, context, 1, snapshot(2, AB, new double[][] {{5, 7}}), odd, 0);
        process(combiner, context, 2, snapshot(0, AB, new double[][] {{1, 2}}), SETTINGS, 0);
        lastPunctuator(context).punctuate(5_000);
        assertEquals(List.of(), models(context), "no model mixes state made under two settings");
        String reason = "model 'm' is held back: the instances of application 'training-test' run with different"
                + " settings (partitions [1, 2] from an instance with gda.forgetting.half-life.ms=60000 (here:"
                + " none); 'here' is this instance, which publishes). Every instance of one application must run"
                + " with the same settings (docs/RELIABILITY.md, 'Instances of one application share one"
                + " configuration'); the model is published again once every partition's newest snapshot comes"
                + " from an instance configured as this one";
        assertEquals(reason, held.get(held.size() - 1));
        int said = held.size();
        lastPunctuator(context).punctuate(6_000);
        assertEquals(said, held.size(), "said once while it lasts");

        // Partition 1's task moves to an instance configured as this one: partition 2 still holds the model.
        process(combiner, context, 3, snapshot(1, AB, new double[][] {{3, 4}, {4, 4}}), SETTINGS, 7_000);
        lastPunctuator(context).punctuate(8_000);
        assertEquals(List.of(), models(context));
        assertTrue(held.get(held.size() - 1).contains("(partition 2 from an instance with"), held.toString());
        // An earlier release sends no settings: nothing known, nothing held on its account.
        process(combiner, context, 4, snapshot(2, AB, new double[][] {{5, 7}, {6, 6}}), null, 9_000);
        lastPunctuator(context).punctuate(12_000);
        List<ModelParameters> published = models(context);
        assertEquals(1, published.size());
        assertEquals(Map.of("0", 1L, "1", 2L, "2", 2L), published.get(0).sources());
        assertEquals(null, held.get(held.size() - 1), "published: nothing held any more");
    }

    @Test
    void shouldStillHoldAfterTheCombinerRestartsOrMovesWhileTheOddPartitionIsQuiet() {
        MockProcessorContext<String, TrainingOutput> context = context();
        KeyValueStore<String, byte[]> store = context.getStateStore(TrainingTopology.COMBINER_STORE);
        TrainingSettings odd = SETTINGS.withForgetting(new Forgetting(60_000));
        ModelCombiner combiner = new ModelCombiner(SETTINGS);
        combiner.init(context);
        process(combiner, context, 0, snapshot(1, AB, new double[][] {{3, 4}}), odd, 0);
        process(combiner, context, 1, snapshot(0, AB, new double[][] {{1, 2}}), SETTINGS, 0);
        lastPunctuator(context).punctuate(5_000);
        assertEquals(List.of(), models(context));
        assertArrayEquals(StateSettings.of(odd).encoded(), store.get(CombinerState.SETTINGS_PREFIX + 1),
                "who trains partition 1 is kept with its snapshot");
        assertEquals(null, store.get(CombinerState.SETTINGS_PREFIX + 2));

        // The combiner restarts (or its task moves to an instance configured alike); partition 1 is quiet: no
        // snapshot says anything new, and the model stays held, without publishing again at start.
        combiner.close();
        ModelCombiner restarted = new ModelCombiner(SETTINGS);
        restarted.init(context);
        context.setCurrentSystemTimeMs(10_000);
        lastPunctuator(context).punctuate(10_000);
        lastPunctuator(context).punctuate(20_000);
        assertEquals(List.of(), models(context), "a restart forgets nothing of who trains partition 1");

        // The combiner's task moves to the odd instance: judged by its settings, partition 0 is the odd one.
        List<String> held = new ArrayList<>();
        ModelCombiner onOdd = new ModelCombiner(odd, heldInto(held));
        onOdd.init(context);
        context.setCurrentSystemTimeMs(30_000);
        lastPunctuator(context).punctuate(30_000);
        assertEquals(List.of(), models(context));
        assertTrue(held.get(0).contains("(partition 0 from an instance with gda.forgetting.half-life.ms=none (here:"
                + " 60000);"), held.get(0));

        // Partition 1's task goes to an instance configured as the combiner's first home, and that combiner is back.
        ModelCombiner back = new ModelCombiner(SETTINGS);
        back.init(context);
        process(back, context, 2, snapshot(1, AB, new double[][] {{3, 4}}), SETTINGS, 40_000);
        lastPunctuator(context).punctuate(40_000);
        assertEquals(1, models(context).size(), "the quiet word of the new owner ends the hold");
        assertArrayEquals(StateSettings.of(SETTINGS).encoded(), store.get(CombinerState.SETTINGS_PREFIX + 1));
    }

    @Test
    void shouldSayAtOnceWhenAnOddInstanceTakesAQuietPartitionOverAndWhenTheyAgreeAgain() {
        MockProcessorContext<String, TrainingOutput> context = context();
        List<String> held = new ArrayList<>();
        ModelCombiner combiner = new ModelCombiner(SETTINGS, heldInto(held));
        combiner.init(context);
        process(combiner, context, 0, snapshot(0, AB, new double[][] {{1, 2}}), SETTINGS, 0);
        process(combiner, context, 1, snapshot(1, AB, new double[][] {{3, 4}}), SETTINGS, 0);
        lastPunctuator(context).punctuate(5_000);
        int published = models(context).size();
        assertEquals(Map.of("0", 1L, "1", 1L), models(context).get(published - 1).sources());
        // Partition 1's task moves to an odd instance, which re-sends the same snapshot: nothing to publish, but
        // every later version would wait on it, so it is said now.
        process(combiner, context, 2, snapshot(1, AB, new double[][] {{3, 4}}),
                SETTINGS.withStatistics(Statistics.DIAGONAL), 6_000);
        assertEquals(1, held.size());
        assertTrue(held.get(0).contains("(partition 1 from an instance with gda.statistics=diagonal (here: full);"),
                held.get(0));
        // News of partition 0 waits.
        process(combiner, context, 3, snapshot(0, AB, new double[][] {{1, 2}, {2, 2}}), SETTINGS, 7_000);
        lastPunctuator(context).punctuate(10_000);
        assertEquals(published, models(context).size());
        // The task moves back: the hold ends, and the news is published.
        process(combiner, context, 4, snapshot(1, AB, new double[][] {{3, 4}}), SETTINGS, 11_000);
        assertEquals(null, held.get(held.size() - 1));
        lastPunctuator(context).punctuate(15_000);
        assertEquals(published + 1, models(context).size());
        assertEquals(Map.of("0", 2L, "1", 1L), models(context).get(published).sources());
    }

    @Test
    void shouldHoldForAnInstanceWhoseSnapshotsAreRefusedForAnotherSchemaFromTheFirstOn() {
        MockProcessorContext<String, TrainingOutput> context = context();
        List<String> held = new ArrayList<>();
        ModelCombiner combiner = new ModelCombiner(SETTINGS.withFeatures(AB), heldInto(held));
        combiner.init(context);
        TrainingSettings odd = SETTINGS.withFeatures(List.of("a", "c"));
        process(combiner, context, 0, snapshot(1, List.of("a", "c"), new double[][] {{3, 4}}), odd, 0);
        process(combiner, context, 1, snapshot(0, AB, new double[][] {{1, 2}}), SETTINGS.withFeatures(AB), 0);
        lastPunctuator(context).punctuate(5_000);
        assertEquals(List.of(), models(context), "not a model of partition 0 alone while partition 1 is refused");
        assertTrue(held.get(held.size() - 1).contains("(partition 1 from an instance with gda.features=a,c (here:"
                + " a,b);"), held.toString());
    }

    @Test
    void shouldForgetWhoSentASnapshotDiscardedAtLoadForAnotherSchema() {
        MockProcessorContext<String, TrainingOutput> context = context();
        KeyValueStore<String, byte[]> store = context.getStateStore(TrainingTopology.COMBINER_STORE);
        TrainingSettings before = SETTINGS.withFeatures(List.of("a", "z"));
        store.put(CombinerState.PARTIAL_PREFIX + 0, encode(snapshot(0, List.of("a", "z"), new double[][] {{1, 2}})));
        store.put(CombinerState.SETTINGS_PREFIX + 0, StateSettings.of(before).encoded());
        // Every instance stopped and started again with gda.features=a,b: the documented way to change it.
        List<String> held = new ArrayList<>();
        ModelCombiner combiner = new ModelCombiner(SETTINGS.withFeatures(AB), heldInto(held));
        combiner.init(context);
        lastPunctuator(context).punctuate(5_000);
        assertEquals(List.of(), held, "no disagreement from a sender known under the old schema only");
        assertEquals(null, store.get(CombinerState.SETTINGS_PREFIX + 0));
    }

    @Test
    void shouldTellTheObserverNothingIsHeldWhenTheCombinerTaskLeavesThisProcess() {
        MockProcessorContext<String, TrainingOutput> context = context();
        List<String> held = new ArrayList<>();
        ModelCombiner combiner = new ModelCombiner(SETTINGS, heldInto(held));
        combiner.init(context);
        process(combiner, context, 0, snapshot(0, AB, new double[][] {{1, 2}}),
                SETTINGS.withStatistics(Statistics.DIAGONAL), 5_000);
        lastPunctuator(context).punctuate(5_000);
        assertEquals(1, held.size());
        assertTrue(held.get(0).contains("gda.statistics=diagonal (here: full)"), held.get(0));
        combiner.close();
        assertEquals(2, held.size());
        assertEquals(null, held.get(1));
    }

    /** Partition snapshot {@code snapshot} at offset {@code offset} of the partials, sent by a trainer {@code from}. */
    private static void process(ModelCombiner combiner, MockProcessorContext<String, TrainingOutput> context,
                                long offset, io.gdastreams.model.PartialSnapshot snapshot, TrainingSettings from,
                                long now) {
        context.setCurrentSystemTimeMs(now);
        context.setRecordMetadata(PARTIALS, 0, offset);
        Headers headers = from == null ? new RecordHeaders() : headers(StateSettings.of(from).encoded());
        combiner.process(new Record<>("m", encode(snapshot), now, headers));
    }

    /** An observer that adds every {@code modelHeld} call's reason (null: cleared) to {@code held}. */
    private static StreamObserver heldInto(List<String> held) {
        return new StreamObserver() {
            @Override
            public void modelHeld(String reason) {
                held.add(reason);
            }
        };
    }

    private static Headers headers(byte[] value) {
        return new RecordHeaders().add(StateSettings.HEADER, value);
    }

    private static StateSettings read(byte[] value) {
        return readHeaders(headers(value)).orElseThrow();
    }

    /** The settings the combiner reads from a record's headers. */
    private static java.util.Optional<StateSettings> readHeaders(Headers headers) {
        return StateSettings.decode(StateSettings.headerValue(headers));
    }

    private static String feature(TrainingSettings settings) {
        String text = new String(StateSettings.of(settings).encoded(), StandardCharsets.UTF_8);
        return text.lines().filter(l -> l.startsWith("gda.features=")).findFirst().orElseThrow()
                .substring("gda.features=".length());
    }
}
