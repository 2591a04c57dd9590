package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.MetricsRecord.DriftAlarm;
import io.gdastreams.model.MetricsRecord.Window;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

/**
 * The one codec of the metrics topic: records round-trip, the fields that place a record are required and the
 * others may be absent (files of windows written by scripts), and what is not a window or alarm is no record.
 * That the trainer's bytes are those of the writer before this codec: topology.PrequentialRecordBytesTest.
 */
class MetricsJsonTest {

    private static final Window WINDOW = new Window("iris", 2, 60_000, 61_000, 3, 2 / 3.0, 0.625, 0.6041666666666666,
            new TreeMap<>(Map.of("b", 1.0, "a", 0.5)), new TreeMap<>(Map.of("b", 1L, "a", 2L)),
            new MetricsRecord.Versions(3, 4), 2, 1, 5);
    private static final Window EMPTY = new Window("iris", 0, 0, 1000, 0, null, null, null, new TreeMap<>(),
            new TreeMap<>(), null, 12, 0, 0);
    private static final DriftAlarm ALERT = new DriftAlarm("iris", 1, 1_700_000_123_456L, "page-hinkley", 50.7, 50,
            0.1, 0);
    private static final DriftAlarm RESET = new DriftAlarm("iris", 1, 5, "page-hinkley", 66.5, 50, 0.05, 3);

    @Test
    void writesTheDocumentedFieldsInOrder() {
        assertEquals("{\"type\":\"window\",\"modelId\":\"iris\",\"partition\":2,\"windowStart\":60000,"
                + "\"windowEnd\":61000,\"count\":3,\"accuracy\":0.6666666666666666,\"logLoss\":0.625,"
                + "\"brier\":0.6041666666666666,\"recall\":{\"a\":0.5,\"b\":1.0},\"support\":{\"a\":2,\"b\":1},"
                + "\"modelVersions\":[3,4],\"noModel\":2,\"unscorable\":1,\"late\":5}", MetricsJson.write(WINDOW));
        assertEquals("{\"type\":\"window\",\"modelId\":\"iris\",\"partition\":0,\"windowStart\":0,\"windowEnd\":1000,"
                + "\"count\":0,\"accuracy\":null,\"logLoss\":null,\"brier\":null,\"recall\":{},\"support\":{},"
                + "\"modelVersions\":null,\"noModel\":12,\"unscorable\":0,\"late\":0}", MetricsJson.write(EMPTY));
        assertEquals("{\"type\":\"drift\",\"modelId\":\"iris\",\"partition\":1,\"eventTime\":1700000123456,"
                + "\"detector\":\"page-hinkley\",\"statistic\":50.7,\"threshold\":50.0,\"delta\":0.1,"
                + "\"action\":\"alert\"}", MetricsJson.write(ALERT));
        assertTrue(MetricsJson.write(RESET).endsWith("\"action\":\"reset\",\"resetGeneration\":3}"));
    }

    @Test
    void everyShapeRoundTrips() {
        for (MetricsRecord record : new MetricsRecord[] {WINDOW, EMPTY, ALERT, RESET}) {
            assertEquals(Optional.of(record), MetricsJson.read(MetricsJson.write(record)));
        }
    }

    /** docs/drift/segment_accuracy.py's oracle windows: type, partition, bounds, count and accuracy only. */
    @Test
    void readsAWindowOfOnlyTheFieldsThatPlaceIt() {
        Window w = (Window) MetricsJson.read("{\"type\": \"window\", \"partition\": 0, \"windowStart\": 600000, "
                + "\"windowEnd\": 1200000, \"count\": 600, \"accuracy\": 0.8433333333333334}").orElseThrow();
        assertEquals(600, w.count());
        assertEquals(600_000, w.windowStart());
        assertEquals(0.8433333333333334 * 600, w.hits());
        assertEquals(null, w.modelId());
        assertEquals(null, w.modelVersions());
        assertTrue(w.recall().isEmpty());
        DriftAlarm d = (DriftAlarm) MetricsJson.read("{\"type\":\"drift\",\"eventTime\":7}").orElseThrow();
        assertEquals(7, d.eventTime());
        assertEquals(0, d.partition());
        assertTrue(Double.isNaN(d.statistic()));
    }

    @Test
    void aGenerationCountsOnlyWithActionReset() {
        String alarm = "{\"type\":\"drift\",\"eventTime\":7,\"resetGeneration\":4,\"action\":";
        assertEquals(4, ((DriftAlarm) MetricsJson.read(alarm + "\"reset\"}").orElseThrow()).resetGeneration());
        assertEquals(0, ((DriftAlarm) MetricsJson.read(alarm + "\"alert\"}").orElseThrow()).resetGeneration());
    }

    /** As every reader did before: skipped, not refused. */
    @Test
    void jsonThatIsNoWindowOrAlarmIsNoRecord() {
        for (String other : new String[] {"{\"type\":\"heartbeat\"}", "{}", "[1]", "5", "null", "", "  "}) {
            assertEquals(Optional.empty(), MetricsJson.read(other), other);
        }
    }

    @Test
    void refusesWhatIsNotJsonAndWindowsOrAlarmsItCannotPlace() {
        for (String bad : new String[] {"{\"type\":\"window\"", "not json",
                "{\"type\":\"window\",\"count\":1,\"accuracy\":1.0}",
                "{\"type\":\"window\",\"windowStart\":0}",
                "{\"type\":\"window\",\"windowStart\":0,\"count\":\"3\",\"accuracy\":1.0}",
                "{\"type\":\"window\",\"windowStart\":0,\"count\":1.5,\"accuracy\":1.0}",
                "{\"type\":\"window\",\"windowStart\":0,\"count\":2,\"accuracy\":null}",
                "{\"type\":\"window\",\"windowStart\":0,\"count\":2,\"accuracy\":1.0,\"modelVersions\":[1]}",
                "{\"type\":\"window\",\"windowStart\":0,\"count\":0,\"partition\":4294967296}",
                "{\"type\":\"drift\",\"partition\":1}",
                "{\"type\":\"drift\",\"eventTime\":1,\"action\":\"reset\",\"resetGeneration\":-1}",
                "{\"type\":\"window\",\"type\":\"drift\",\"eventTime\":1}",
                // A per-label map of another JSON type: not read as no map.
                "{\"type\":\"window\",\"windowStart\":0,\"count\":2,\"accuracy\":1.0,\"recall\":[0.5]}",
                "{\"type\":\"window\",\"windowStart\":0,\"count\":2,\"accuracy\":1.0,\"support\":3}"}) {
            assertThrows(IllegalArgumentException.class, () -> MetricsJson.read(bad), bad);
        }
    }

    /** The metrics topic's serde (topology.Topics) is this codec, as UTF-8 bytes. */
    @Test
    void theTopicsSerdeWritesAndReadsThroughThisCodec() {
        Serde<MetricsRecord> serde = SerdeFactory.metrics();
        for (MetricsRecord record : new MetricsRecord[] {WINDOW, EMPTY, ALERT, RESET}) {
            byte[] bytes = serde.serializer().serialize("t", record);
            assertEquals(MetricsJson.write(record), new String(bytes, StandardCharsets.UTF_8));
            assertEquals(record, serde.deserializer().deserialize("t", bytes));
        }
        assertNull(serde.deserializer().deserialize("t", "{\"type\":\"heartbeat\"}".getBytes(StandardCharsets.UTF_8)));
        assertNull(serde.deserializer().deserialize("t", null));
        assertThrows(SerializationException.class,
                () -> serde.deserializer().deserialize("t", "not json".getBytes(StandardCharsets.UTF_8)));
    }
}
