package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.UnlabelledEvent;
import io.gdastreams.serde.Decoded;
import io.gdastreams.serde.EventDecoder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SyntheticStreamTest {

    private static final long SEED = 42;
    private static final int CLASSES = 3;
    private static final int DIMENSION = 16;
    /** Events per class in the moment check: the standard error of a mean is then ≤ 2 / √n ≈ 0.035. */
    private static final int SAMPLE = 10_000;
    private static final double MEAN_TOLERANCE = 0.15;

    @Test
    void shouldProduceIdenticalBytesForTheSameSeedInAnyOrder() {
        SyntheticStream a = new SyntheticStream(CLASSES, DIMENSION, SEED);
        SyntheticStream b = new SyntheticStream(CLASSES, DIMENSION, SEED);
        for (long i = 999; i >= 0; i--) {
            assertArrayEquals(a.labelled(i), b.labelled(i));
            assertArrayEquals(a.unlabelled("e", i), b.unlabelled("e", i));
        }
    }

    @Test
    void shouldProduceDifferentEventsForAnotherSeed() {
        SyntheticStream a = new SyntheticStream(CLASSES, DIMENSION, SEED);
        SyntheticStream b = new SyntheticStream(CLASSES, DIMENSION, SEED + 1);
        assertFalse(Arrays.equals(a.labelled(0), b.labelled(0)));
    }

    @Test
    void shouldWriteEventsTheDecoderAcceptsWithTheGeneratedValues() {
        SyntheticStream stream = new SyntheticStream(CLASSES, DIMENSION, SEED);
        List<String> names = stream.featureNames();
        assertEquals(DIMENSION, names.size());
        assertEquals(names.stream().sorted().toList(), names, "sorted order must be schema order");
        for (long i = 0; i < 100; i++) {
            Decoded<LabelledEvent> labelled = EventDecoder.decodeLabelled(stream.labelled(i));
            assertTrue(labelled.isOk(), labelled::error);
            assertEquals("c" + stream.classOf(i), labelled.value().label());
            double[] x = stream.pointOf(i);
            for (int j = 0; j < DIMENSION; j++) {
                assertEquals(x[j], labelled.value().features().get(names.get(j)), 0.0);
            }
            Decoded<UnlabelledEvent> unlabelled = EventDecoder.decodeUnlabelled(stream.unlabelled("row-", i));
            assertTrue(unlabelled.isOk(), unlabelled::error);
            assertEquals("row-" + i, unlabelled.value().id());
            assertEquals(labelled.value().features(), unlabelled.value().features());
        }
    }

    @Test
    void shouldSpreadClassesEvenlyAndKeepEachClassMeanStable() {
        SyntheticStream first = new SyntheticStream(CLASSES, DIMENSION, SEED);
        long[] counts = new long[CLASSES];
        double[][] sums = new double[CLASSES][DIMENSION];
        for (long i = 0; i < (long) SAMPLE * CLASSES; i++) {
            int k = first.classOf(i);
            counts[k]++;
            double[] x = first.pointOf(i);
            for (int j = 0; j < DIMENSION; j++) {
                sums[k][j] += x[j];
            }
        }
        // A second, disjoint range of indices must show the same class means: the classes are fixed by the
        // seed, not by the index range.
        double[][] later = new double[CLASSES][DIMENSION];
        long[] laterCounts = new long[CLASSES];
        for (long i = 1_000_000; i < 1_000_000 + (long) SAMPLE * CLASSES; i++) {
            int k = first.classOf(i);
            laterCounts[k]++;
            double[] x = first.pointOf(i);
            for (int j = 0; j < DIMENSION; j++) {
                later[k][j] += x[j];
            }
        }
        for (int k = 0; k < CLASSES; k++) {
            assertEquals(SAMPLE, counts[k], 5 * Math.sqrt(SAMPLE), "class " + k + " count");
            for (int j = 0; j < DIMENSION; j++) {
                assertEquals(sums[k][j] / counts[k], later[k][j] / laterCounts[k], MEAN_TOLERANCE,
                        "class " + k + " feature " + j);
            }
        }
    }
}
