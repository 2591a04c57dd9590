package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The replay's reset watch reads the generation of a drift record that resets, and 0 from anything else: an alert,
 * a window (even one of a label named "reset"), and a record it cannot read, which must not stop a replay.
 */
class PendingResetTest {

    private static final String ALARM = "{\"type\":\"drift\",\"modelId\":\"m\",\"partition\":1,\"eventTime\":5,"
            + "\"detector\":\"page-hinkley\",\"statistic\":51.0,\"threshold\":50.0,\"delta\":0.1,";

    @Test
    void readsTheGenerationOfAResetAndZeroOtherwise() {
        assertEquals(2, PendingReset.resetGeneration(ALARM + "\"action\":\"reset\",\"resetGeneration\":2}"));
        assertEquals(0, PendingReset.resetGeneration(ALARM + "\"action\":\"alert\"}"));
        assertEquals(0, PendingReset.resetGeneration("{\"type\":\"window\",\"windowStart\":0,\"count\":1,"
                + "\"accuracy\":1.0,\"recall\":{\"reset\":1.0}}"));
    }

    @Test
    void anUnreadableRecordIsNoReset() {
        assertEquals(0, PendingReset.resetGeneration("{\"action\":\"reset\""));
        assertEquals(0, PendingReset.resetGeneration(ALARM + "\"action\":\"reset\",\"resetGeneration\":\"two\"}"));
        assertEquals(0, PendingReset.resetGeneration("{\"type\":\"drift\",\"action\":\"reset\",\"resetGeneration\":3}"),
                "an alarm without its event time");
    }
}
