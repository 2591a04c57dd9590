package io.gdastreams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.RunningGaussian;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EventDecoderLimitTest {

    private static final double RELATIVE = 1e-12;

    private static byte[] labelled(double value) {
        return ("{\"features\": {\"x\": " + value + "}, \"label\": \"a\"}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldAcceptTheLimitAndRefuseBeyondIt() {
        assertTrue(EventDecoder.decodeLabelled(labelled(EventDecoder.MAX_ABS_VALUE)).isOk());
        assertTrue(EventDecoder.decodeLabelled(labelled(-EventDecoder.MAX_ABS_VALUE)).isOk());
        Decoded<?> beyond = EventDecoder.decodeLabelled(labelled(Math.nextUp(EventDecoder.MAX_ABS_VALUE)));
        assertFalse(beyond.isOk());
        assertTrue(beyond.error().startsWith("feature 'x' magnitude exceeds"), beyond.error());
    }

    @Test
    void shouldKeepStatisticsFiniteForManyEventsAtTheLimit() {
        // ±M alternating, pivot −M: deviations reach 2M and every update adds ~M²-sized terms. Exact result for an
        // even count n: mean 0, scatter n·M².
        double m = EventDecoder.MAX_ABS_VALUE;
        int n = 100_000;
        RunningGaussian g = new RunningGaussian(1);
        for (int i = 0; i < n; i++) {
            g.update(new double[] {i % 2 == 0 ? -m : m});
        }
        double expected = n * m * m;
        assertTrue(Double.isFinite(g.scatter()[0][0]), "scatter overflowed");
        assertEquals(0.0, g.mean()[0], m * RELATIVE);
        assertEquals(expected, g.scatter()[0][0], expected * RELATIVE);
    }
}
