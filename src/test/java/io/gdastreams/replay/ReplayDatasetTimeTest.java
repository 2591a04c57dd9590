package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.serde.EventDecoder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code replay --time COL}: the column is each training row's record timestamp, never a feature. */
class ReplayDatasetTimeTest {

    private static CsvTable csv(String text) {
        return CsvTable.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t.csv");
    }

    @Test
    void theTimeColumnIsTheTimestampAndNotAFeature() {
        CsvTable train = csv("t,x,y\n1700000000000,1.5,a\n0,2,b\n");
        ReplayDataset data = ReplayDataset.of(train, null, "y", null, null, List.of(), "t");
        assertEquals(List.of("x"), data.features());
        assertEquals(1_700_000_000_000L, data.training().get(0).timestamp());
        assertEquals(0L, data.training().get(1).timestamp());
        assertEquals(new LabelledEvent(Map.of("x", 1.5), "a"),
                EventDecoder.decodeLabelled(data.training().get(0).value()).value());
        assertTrue(data.scoring().isEmpty(), "no scoring file, no scoring rows");
    }

    @Test
    void withoutATimeColumnTheProducerSetsTheTime() {
        CsvTable train = csv("x,y\n1,a\n");
        assertNull(ReplayDataset.of(train, train, "y", null, null).training().get(0).timestamp());
    }

    @Test
    void aTimeThatIsNoEpochMillisecondIsAUserErrorWithItsLine() {
        for (String bad : List.of("1.5", "-3", "", "noon")) {
            CsvTable train = csv("t,x,y\n0,1,a\n" + bad + ",1,a\n");
            UserError e = assertThrows(UserError.class,
                    () -> ReplayDataset.of(train, null, "y", null, null, List.of(), "t"));
            assertTrue(e.getMessage().contains("line 3"), e.getMessage());
        }
        CsvTable train = csv("x,y\n1,a\n");
        assertThrows(UserError.class, () -> ReplayDataset.of(train, null, "y", null, List.of("x"), List.of(), "t"));
        assertThrows(UserError.class, () -> ReplayDataset.of(csv("t,x,y\n0,1,a\n"), null, "y", null,
                List.of("t", "x"), List.of(), "t"));
    }
}
