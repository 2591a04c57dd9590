package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.ModelSerde;
import io.gdastreams.topology.InternalTopics;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApplicationResetTest {

    /**
     * Kafka Streams names its internal topics <application.id>-<store or node>-changelog | -repartition; reset takes
     * exactly ours, because an application id may begin with another's (gda.application.id=fraud-training makes the
     * trainer id fraud-training-training, whose topics begin with fraud-training-).
     */
    @Test
    void shouldTakeExactlyTheApplicationsOwnInternalTopics() {
        assertEquals(Set.of("fraud-training-class-stats-changelog", "fraud-training-model-combiner-changelog",
                "fraud-training-prequential-window-changelog", "fraud-training-scoring-pending-changelog",
                "fraud-training-class-stats-partials-repartition"), InternalTopics.of("fraud-training"));
        assertFalse(InternalTopics.of("fraud-training").contains("fraud-training-training-class-stats-changelog"));
        assertTrue(InternalTopics.isChangelogOf("fraud-training-class-stats-changelog", "class-stats"));
        assertFalse(InternalTopics.isChangelogOf("fraud-training-class-stats-partials-repartition", "class-stats"));
    }

    @Test
    void shouldFindTheStateDirectoryUnderStateDir() {
        Properties streams = new Properties();
        streams.put("state.dir", "/var/lib/gda");
        assertEquals(Path.of("/var/lib/gda/app-training"), ApplicationReset.stateDirectory(streams, "app-training"));
        assertEquals(Path.of(System.getProperty("java.io.tmpdir"), "kafka-streams", "app-training"),
                ApplicationReset.stateDirectory(new Properties(), "app-training"));
    }

    /** What a hand-over changes: the version (one above), the publication time and the trainer (none). */
    private static final List<String> CHANGED = List.of("version", "updatedAt", "trainer");

    /**
     * A model with every component away from its default (and so written to the JSON): weighted classes,
     * a weighted category table, retractions, a reset generation and the events it dropped, a class left out.
     */
    private static ModelParameters everyFieldSet() {
        List<ClassParameters> classes = List.of(
                new ClassParameters("a", 22, 18.5 / 30.0, new double[] {1.25, -0.5},
                        new double[][] {{2.0, 0.25}, {0.25, 1.5}}, 18.5, 16.25),
                new ClassParameters("b", 14, 11.5 / 30.0, new double[] {-3.0, 4.75},
                        new double[][] {{0.5, -0.125}, {-0.125, 3.0}}, 11.5, 9.75));
        CategoricalTable colour = new CategoricalTable("colour", List.of("blue", "red"),
                List.of(new long[] {15, 7}, new long[] {4, 10}), List.of(new double[] {12.5, 6.0},
                        new double[] {3.5, 8.0}));
        return new ModelParameters("iris", 7, List.of("x1", "x2"), 36, classes, Map.of("0", 25L, "1", 19L),
                "2026-11-25T10:00:00Z", "gda-streams-training", List.of(colour), 3, 2, 61, 5);
    }

    /**
     * The hand-over, as reset --execute does it (the model read from the topic, handed over, written back and read
     * by a scorer), keeps every component but the version, the publication time and the trainer: the lineage
     * (sources, retractions, reset generation, events dropped) and the content. The components are enumerated from
     * the record, so a component added later is checked too, and must be set in the fixture.
     */
    @Test
    void shouldRefuseToHandOverAModelOfTheLastVersion() {
        ModelParameters last = everyFieldSet().republished(Long.MAX_VALUE, "2026-11-25T10:00:00Z",
                "gda-streams-training");
        RunFailure e = assertThrows(RunFailure.class, () -> ApplicationReset.handOver(last, Instant.EPOCH));
        assertTrue(e.getMessage().startsWith("cannot hand model 'iris' over: its version is 9223372036854775807"),
                e.getMessage());
    }

    @Test
    void shouldHandTheModelOverWithEveryLineageFieldUnchangedButTheVersion() throws Exception {
        ModelParameters published = everyFieldSet();
        ModelSerde serde = new ModelSerde();
        ModelParameters read = ModelSerde.read(serde.serializer().serialize("model", published));
        Instant now = Instant.parse("2026-11-25T17:30:00Z");
        ModelParameters released = ModelSerde.read(serde.serializer().serialize("model",
                ApplicationReset.handOver(read, now)));

        assertEquals(8, released.version());
        assertEquals("2026-11-25T17:30:00Z", released.updatedAt());
        assertEquals("", released.trainer());
        assertEquals(3, released.retracted());
        assertEquals(2, released.resetGeneration());
        assertEquals(61, released.resetDropped());
        assertEquals(published.eventsAbsorbed(), released.eventsAbsorbed());
        assertEquals(36 + 2 * 3 + 61 + 5, released.eventsAbsorbed());
        assertTrue(released.classes().get(0).carriesWeights() && released.categorical().get(0).weights() != null);
        List<String> checked = new ArrayList<>();
        for (RecordComponent component : ModelParameters.class.getRecordComponents()) {
            Object before = component.getAccessor().invoke(published);
            assertNotDefault(component.getName(), before);
            if (!CHANGED.contains(component.getName())) {
                assertSameValue(component.getName(), before, component.getAccessor().invoke(released));
                checked.add(component.getName());
            }
        }
        assertEquals(List.of("modelId", "features", "totalCount", "classes", "sources", "categorical", "retracted",
                "resetGeneration", "resetDropped", "leftOut"), checked);
    }

    private static void assertNotDefault(String name, Object value) {
        assertTrue(value != null && !Objects.equals(value, 0L) && !Objects.equals(value, "")
                && !(value instanceof List<?> list && list.isEmpty())
                && !(value instanceof Map<?, ?> map && map.isEmpty()), name + " is set in the fixture: " + value);
    }

    /** Equal values, records and collections compared component by component, arrays element by element. */
    private static void assertSameValue(String path, Object expected, Object actual) throws Exception {
        if (expected != null && expected.getClass().isRecord()) {
            assertEquals(expected.getClass(), actual.getClass(), path);
            for (RecordComponent c : expected.getClass().getRecordComponents()) {
                assertSameValue(path + "." + c.getName(), c.getAccessor().invoke(expected),
                        c.getAccessor().invoke(actual));
            }
        } else if (expected instanceof List<?> list) {
            List<?> other = (List<?>) actual;
            assertEquals(list.size(), other.size(), path);
            for (int i = 0; i < list.size(); i++) {
                assertSameValue(path + "[" + i + "]", list.get(i), other.get(i));
            }
        } else if (expected instanceof Map<?, ?> map) {
            Map<?, ?> other = (Map<?, ?>) actual;
            assertEquals(map.keySet(), other.keySet(), path);
            for (Object key : map.keySet()) {
                assertSameValue(path + "." + key, map.get(key), other.get(key));
            }
        } else {
            assertTrue(Objects.deepEquals(expected, actual), path + ": " + expected + " vs " + actual);
        }
    }
}
