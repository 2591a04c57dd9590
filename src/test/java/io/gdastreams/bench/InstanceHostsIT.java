package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --instances N} runs every stage of a run in the same N child JVMs, so that the warm-up warms what the
 * rounds measure, and reports their CPU per event as it does for an application in its own JVM; {@code --memory}
 * gives each stage JVMs of its own (their peak resident memory is the stage's). Real child JVMs on the test broker.
 */
@ExtendWith(KafkaBrokerExtension.class)
class InstanceHostsIT {

    private static final Duration STAGE_TIMEOUT = Duration.ofSeconds(180);
    private static final BenchSettings SETTINGS = new BenchSettings(3, 8, 400, 2, 1, "exactly_once_v2", 42, 10, 200,
            Duration.ofMillis(250), BenchConfiguration.DEFAULTS);
    private static final RunShape TWO_INSTANCES = new RunShape(CpuPinning.NONE, 2, "256m");
    /**
     * One: of two, the first to start can write most outputs before the second joins and the group is RUNNING, and
     * the CPU per event (counted from RUNNING) is then not reported (StageRunner.MAX_SHARE_BEFORE_RUNNING).
     */
    private static final RunShape ONE_INSTANCE = new RunShape(CpuPinning.NONE, 1, "256m");

    private static StageResult passthrough(KafkaBroker broker, AppPlacement placement, Path state) {
        try (StageRunner runner = new StageRunner(broker.bootstrapServers(), SETTINGS, placement,
                UniqueNames.of("hosts-"), state, STAGE_TIMEOUT, new PrintWriter(new StringWriter()))) {
            return runner.passthrough();
        }
    }

    @Test
    void shouldRunEveryStageOfARunInTheSameChildJvmsAndReportTheirCpu(KafkaBroker broker, @TempDir Path state) {
        List<Long> pids;
        try (AppPlacement placement = AppPlacement.forRun(ONE_INSTANCE, state)) {
            pids = placement.hostPids();
            assertEquals(1, pids.size());
            for (int stage = 1; stage <= 2; stage++) {
                StageResult result = passthrough(broker, placement, state);

                assertEquals(400, result.events());
                assertTrue(result.appCpuMicrosPerEvent() > 0, "CPU per event of the instances, stage " + stage
                        + ": " + result);
                assertTrue(result.jitSeconds() >= 0, result.toString());
                assertEquals(pids, placement.hostPids(), "the same JVMs after stage " + stage);
                assertTrue(pids.stream().allMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive)
                        .orElse(false)), "the hosts outlive a stage");
            }
            assertTrue(placement.compileSeconds() > 0, "the hosts' JIT is counted for the warm-up");
        }
        assertTrue(pids.stream().noneMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)),
                "closing the run's placement ends its hosts");
    }

    /** The pids of the JVMs a passthrough application of a run of its own runs in, while it runs. */
    private static List<Long> pidsOfAStage(KafkaBroker broker, AppPlacement placement, Path state) {
        try (StageRunner runner = new StageRunner(broker.bootstrapServers(), SETTINGS, placement,
                UniqueNames.of("hosts-"), state, STAGE_TIMEOUT, new PrintWriter(new StringWriter()));
             AppUnderTest app = runner.start(Stage.PASSTHROUGH, runner.createTopics(Stage.PASSTHROUGH))) {
            return ((InstanceGroup) app).pids();
        }
    }

    @Test
    void shouldGiveEveryStageChildJvmsOfItsOwnForMemory(KafkaBroker broker, @TempDir Path state) {
        try (AppPlacement placement = AppPlacement.hostsPerStage(TWO_INSTANCES, state)) {
            assertTrue(placement.hostPids().isEmpty(), "no JVMs that outlive a stage");
            List<Long> first = pidsOfAStage(broker, placement, state);
            List<Long> second = pidsOfAStage(broker, placement, state);

            assertEquals(2, first.size());
            assertEquals(2, second.size());
            assertTrue(first.stream().noneMatch(second::contains), first + " then " + second);
            assertTrue(first.stream().noneMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)),
                    "a stage's own JVMs end with it");
        }
    }
}
