package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.Role;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.DeadLetterCategory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The trainer's progress line: its counts, the newest model, and a model held back for as long as it is. */
class ProgressLogTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-01-01T00:00:10Z"), ZoneOffset.UTC);

    @Test
    void shouldSayAsLongAsItLastsThatTheNextVersionIsHeldBack() {
        OpsMetrics metrics = OpsMetrics.forTrainer("m", NOW);
        ProgressLog log = new ProgressLog(Role.TRAINING, metrics);
        metrics.deadLettered(DeadLetterCategory.INVALID_EVENT);
        assertTrue(log.line().matches("training: 0 events applied, 0\\.0/s; 1 dead letters; no model on the topic"
                + " yet"), log.line());
        metrics.modelPublished(Iris.model("m", 7, Iris.rows()), Set.of());
        metrics.modelHeld("model 'm' is held back: …");
        String held = log.line();
        assertTrue(held.startsWith("training: 0 events applied, 0.0/s; 1 dead letters; model 'm' version 7,"
                + " published "), held);
        assertTrue(held.endsWith(" s ago; the next version is held back (the reason: the log's warning,"
                + " /health/ready)"), held);
        metrics.modelHeld(null);
        assertTrue(log.line().endsWith(" s ago"), log.line());
        log.close();
        metrics.close();
    }

    /**
     * At a scorer's start the model topic's restore logs its first version; the line at RUNNING names the one in
     * force.
     */
    @Test
    void shouldSayOnceWhenEachClientRunsWhichModelIsInForce() {
        ModelParameters[] inForce = {null};
        OpsMetrics metrics = new OpsMetrics(() -> java.util.Optional.ofNullable(inForce[0]), NOW);
        ProgressLog log = new ProgressLog(Role.SCORING, metrics);
        assertEquals(java.util.Optional.empty(), log.runningLine(), "no client followed yet");
        long[] runningAt = {0};
        log.follow(() -> runningAt[0]);
        inForce[0] = Iris.model("m", 1, Iris.rows());
        assertEquals(java.util.Optional.empty(), log.runningLine(), "not running yet: the restore is under way");
        inForce[0] = Iris.model("m", 13, Iris.rows());
        runningAt[0] = NOW.millis();
        String line = log.runningLine().orElseThrow();
        assertTrue(line.startsWith("scoring: 0 events answered (0 scored, 0 unscored), 0.0/s; 0 held; 0 dead letters;"
                + " model 'm' version 13, published "), line);
        assertEquals(java.util.Optional.empty(), log.runningLine(), "once per client");
        log.follow(() -> runningAt[0]);
        assertTrue(log.runningLine().orElseThrow().contains("model 'm' version 13"), "a restarted client: again");
        log.close();
        metrics.close();
    }

    @Test
    void shouldNotSpeakOfHeldVersionsForAScorer() {
        OpsMetrics metrics = new OpsMetrics(java.util.Optional::empty, NOW);
        metrics.modelHeld("not a scorer's");
        ProgressLog log = new ProgressLog(Role.SCORING, metrics);
        assertEquals("scoring: 0 events answered (0 scored, 0 unscored), 0.0/s; 0 held; 0 dead letters; no model in"
                + " force", log.line());
        log.close();
        metrics.close();
    }
}
