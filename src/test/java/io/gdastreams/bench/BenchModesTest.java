package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.serde.Json;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The options of the bench's modes: instances, the latency profile's settings, /proc memory, report fields. */
class BenchModesTest {

    @Test
    void shouldBoundInstancesAndCheckTheChildHeap() {
        assertEquals(4, new RunShape(CpuPinning.NONE, 4, "512m").instances());
        assertThrows(IllegalArgumentException.class, () -> new RunShape(CpuPinning.NONE, -1, "1g"));
        assertThrows(IllegalArgumentException.class,
                () -> new RunShape(CpuPinning.NONE, RunShape.MAX_INSTANCES + 1, "1g"));
        for (String heap : List.of("", "1", "0g", "1gb", "-1g", "1 g")) {
            assertThrows(IllegalArgumentException.class, () -> new RunShape(CpuPinning.NONE, 1, heap), heap);
        }
    }

    @Test
    void shouldProfileBothGuaranteesAtThreeCommitIntervalsWithTheDefaultOnce() {
        List<LatencyProfile.Setting> settings = LatencyProfile.settings();
        assertEquals(6, settings.size());
        assertEquals(new LatencyProfile.Setting("exactly_once_v2", 10), settings.get(0));
        assertEquals(new LatencyProfile.Setting("at_least_once", 100), settings.get(5));
        assertEquals(1, settings.stream().filter(LatencyProfile.Setting::isDefault).count());
        assertEquals(List.of("gda.covariance=diag", "commit.interval.ms=50"),
                LatencyProfile.withCommitInterval(List.of("gda.covariance=diag"), 50));
        UserError clash = assertThrows(UserError.class,
                () -> LatencyProfile.withCommitInterval(List.of(" commit.interval.ms=20"), 10));
        assertTrue(clash.getMessage().contains("--latency-profile"), clash.getMessage());
    }

    @Test
    void shouldReadPeakAndCurrentResidentSetFromProcStatus() {
        ProcessMemory memory = ProcessMemory.parse(List.of("Name:\tjava", "VmPeak:\t 5000000 kB",
                "VmHWM:\t  412345 kB", "VmRSS:\t  398765 kB", "Threads:\t42"));
        assertEquals(412_345, memory.peakRssKib());
        assertEquals(398_765, memory.rssKib());
        assertThrows(IllegalStateException.class, () -> ProcessMemory.parse(List.of("VmRSS:\t 1 kB")));
        assertThrows(IllegalStateException.class, () -> ProcessMemory.parse(List.of("VmHWM:\t 1 MB",
                "VmRSS:\t 1 kB")));
    }

    @Test
    void shouldReadThisProcessMemoryOnLinux() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return;
        }
        ProcessMemory self = ProcessMemory.of(ProcessHandle.current().pid());
        long heapCommittedKib = Runtime.getRuntime().totalMemory() / 1024;
        assertTrue(self.peakRssKib() >= self.rssKib(), self.toString());
        // A JVM's resident set holds at least the heap pages it touched; a loose, real lower bound.
        assertTrue(self.rssKib() > 10_000, self + " vs committed heap " + heapCommittedKib + " KiB");
    }

    @Test
    void shouldReportLayoutPinningAndInstancesOnEveryStageLine() throws Exception {
        BenchSettings settings = new BenchSettings(3, 16, 1000, 4, 2, "exactly_once_v2", 42, 10, 1000,
                Duration.ofMillis(250), BenchConfiguration.DEFAULTS);
        StageResult result = new StageResult("scoring", 1000, 1.0, 1.0, Percentiles.of(new long[] {5}));
        CpuPinning pinned = CpuPinning.of("0", "1", false, new CpuPinning.Platform() {
            @Override
            public boolean isLinux() {
                return true;
            }

            @Override
            public boolean hasTaskset() {
                return true;
            }

            @Override
            public java.util.SortedSet<Integer> allowedCpus() {
                return new java.util.TreeSet<>(List.of(0, 1));
            }
        });
        JsonNode line = Json.mapper().readTree(BenchReport.stageLine(result, settings,
                new RunShape(pinned, 2, "1g")));
        assertEquals("disjoint", line.get("layout").textValue());
        assertEquals("0", line.get("brokerCpus").textValue());
        assertEquals("1", line.get("appCpus").textValue());
        assertEquals(2, line.get("instances").intValue());
        JsonNode shared = Json.mapper().readTree(BenchReport.stageLine(result, settings, RunShape.IN_PROCESS));
        assertEquals("shared", shared.get("layout").textValue());
        assertTrue(shared.get("appCpus").isNull());
        assertEquals(0, shared.get("instances").intValue());
    }
}
