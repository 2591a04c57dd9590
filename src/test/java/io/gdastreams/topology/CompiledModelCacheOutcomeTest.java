package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringFixtures.MODEL_ID;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.ModelParameters;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link CompiledModelCache#offer} answers for each kind of record, without a topology: the global-store updater
 * writes the store only on {@link CompiledModelCache.Outcome#IN_FORCE}, so the answer decides what a restarted task
 * adopts.
 */
class CompiledModelCacheOutcomeTest {

    private static CompiledModelCache cache(boolean rejectOlderVersions) {
        return CompiledModelCache.of(ScoringSettings.defaults(MODEL_ID).withRejectOlderVersions(rejectOlderVersions));
    }

    /** The iris model of {@code version} fitted on every third row: other content than {@code irisModel}. */
    private static ModelParameters otherContent(long version) {
        return ScoringFixtures.model(version, Iris.every(3, 0), Iris.FEATURES);
    }

    @Test
    void shouldAnswerEachKindOfRecord() {
        CompiledModelCache cache = cache(true);
        assertEquals(CompiledModelCache.Outcome.IN_FORCE, cache.offer(irisModel(3), "offset 0"));
        assertEquals(CompiledModelCache.Outcome.UNCHANGED, cache.offer(irisModel(3), "offset 1"));
        assertEquals(CompiledModelCache.Outcome.REJECTED, cache.offer(otherContent(3), "offset 2"));
        assertEquals(CompiledModelCache.Outcome.REJECTED, cache.offer(irisModel(2), "offset 3"));
        ModelParameters otherId = new ModelParameters("not-" + MODEL_ID, 4, Iris.FEATURES, 150,
                irisModel(4).classes(), irisModel(4).sources(), irisModel(4).updatedAt());
        assertEquals(CompiledModelCache.Outcome.REJECTED, cache.offer(otherId, "offset 4"));
        ModelParameters noClasses = new ModelParameters(MODEL_ID, 5, Iris.FEATURES, 0, List.of(),
                irisModel(5).sources(), irisModel(5).updatedAt());
        assertEquals(CompiledModelCache.Outcome.REJECTED, cache.offer(noClasses, "offset 5"));
        assertEquals(CompiledModelCache.Outcome.IN_FORCE, cache.offer(irisModel(6), "offset 6"));
        assertEquals(6, cache.modelInForce().orElseThrow().version());
        assertEquals(2, cache.compilations());
        assertEquals(4, cache.rejectedRecords());
    }

    @Test
    void shouldPutAnOlderVersionInForceWhenOlderVersionsAreTaken() {
        CompiledModelCache cache = cache(false);
        assertEquals(CompiledModelCache.Outcome.IN_FORCE, cache.offer(irisModel(3), "offset 0"));
        assertEquals(CompiledModelCache.Outcome.IN_FORCE, cache.offer(otherContent(2), "offset 1"));
        assertEquals(2, cache.current().orElseThrow().version());
    }

    @Test
    void shouldGrantTheAbsenceReportOnceAndOnlyWhileNoModelIsInForce() {
        CompiledModelCache cache = cache(true);
        assertTrue(cache.claimAbsenceReport());
        assertFalse(cache.claimAbsenceReport());
        CompiledModelCache withModel = cache(true);
        withModel.offer(irisModel(1), "offset 0");
        assertFalse(withModel.claimAbsenceReport());
    }
}
