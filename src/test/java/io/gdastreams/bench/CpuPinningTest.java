package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.UserError;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** --broker-cpus / --app-cpus: parsing, the two layouts, and every refusal, on a stand-in platform. */
class CpuPinningTest {

    /** A Linux machine with taskset and CPUs 0-3. */
    private static final CpuPinning.Platform LINUX_4 = platform(true, true, new TreeSet<>(Set.of(0, 1, 2, 3)));

    private static CpuPinning.Platform platform(boolean linux, boolean taskset, SortedSet<Integer> cpus) {
        return new CpuPinning.Platform() {
            @Override
            public boolean isLinux() {
                return linux;
            }

            @Override
            public boolean hasTaskset() {
                return taskset;
            }

            @Override
            public SortedSet<Integer> allowedCpus() {
                return cpus;
            }
        };
    }

    @Test
    void shouldParseCpuNumbersRangesAndLists() {
        assertEquals(Set.of(0), CpuPinning.parse("--app-cpus", "0"));
        assertEquals(Set.of(1, 2, 3), CpuPinning.parse("--app-cpus", "1-3"));
        assertEquals(Set.of(0, 2, 5, 6, 7), CpuPinning.parse("--app-cpus", " 0,2,5-7 "));
        assertEquals(Set.of(4), CpuPinning.parse("--app-cpus", "4-4"));
    }

    @Test
    void shouldRefuseMalformedLists() {
        for (String bad : List.of("", " ", "a", "1-", "-1", "3-1", "1--2", "1,,2", "0x1", "1.5", "99999", "4096")) {
            UserError e = assertThrows(UserError.class, () -> CpuPinning.parse("--broker-cpus", bad), bad);
            assertTrue(e.getMessage().startsWith("--broker-cpus"), e.getMessage());
        }
    }

    @Test
    void shouldBeSharedWithoutOptionsAndDisjointWithTwoSeparateLists() {
        CpuPinning none = CpuPinning.of(null, null, false, LINUX_4);
        assertEquals(CpuPinning.SHARED, none.layout());
        assertEquals(List.of(), none.brokerCommandPrefix());
        assertEquals(List.of(), none.appCommandPrefix());
        assertNull(none.appCpus());

        CpuPinning pinned = CpuPinning.of("0", " 1-3", false, LINUX_4);
        assertEquals(CpuPinning.DISJOINT, pinned.layout());
        assertEquals(List.of("taskset", "-c", "0"), pinned.brokerCommandPrefix());
        assertEquals(List.of("taskset", "-c", "1-3"), pinned.appCommandPrefix());
    }

    @Test
    void shouldRefuseOneListWithoutTheOtherOverlapsAndAnExternalBroker() {
        assertTrue(assertThrows(UserError.class, () -> CpuPinning.of("0", null, false, LINUX_4)).getMessage()
                .contains("go together"));
        assertTrue(assertThrows(UserError.class, () -> CpuPinning.of(null, "1", false, LINUX_4)).getMessage()
                .contains("go together"));
        assertTrue(assertThrows(UserError.class, () -> CpuPinning.of("0-1", "1-2", false, LINUX_4)).getMessage()
                .contains("share CPUs [1]"));
        assertTrue(assertThrows(UserError.class, () -> CpuPinning.of("0", "1", true, LINUX_4)).getMessage()
                .contains("--bootstrap-servers"));
    }

    @Test
    void shouldRefuseWithoutLinuxWithoutTasksetAndCpusThisProcessCannotUse() {
        assertTrue(assertThrows(UserError.class, () -> CpuPinning.of("0", "1", false,
                platform(false, true, new TreeSet<>()))).getMessage().contains("Linux only"));
        assertTrue(assertThrows(UserError.class, () -> CpuPinning.of("0", "1", false,
                platform(true, false, new TreeSet<>()))).getMessage().contains("need taskset"));
        assertTrue(assertThrows(UserError.class, () -> CpuPinning.of("0", "4-5", false, LINUX_4)).getMessage()
                .contains("CPUs [4, 5] are not available"));
        // Unknown allowed set: taskset itself is left to judge.
        assertEquals(CpuPinning.DISJOINT, CpuPinning.of("0", "7", false, platform(true, true, new TreeSet<>()))
                .layout());
    }
}
