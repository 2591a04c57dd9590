package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The warm-up's stopping rule, on a scripted JIT clock: each pass lasts 10 s and compiles what the script says. */
class WarmUpTest {

    private static final long PASS_NANOS = 10_000_000_000L;

    /** A JIT clock and a wall clock that a pass advances by its scripted compile seconds and 10 s. */
    private static final class Script {
        private final double[] compiledPerPass;
        private double compiled;
        private long nanos;
        private final List<Integer> passes = new ArrayList<>();

        Script(double... compiledPerPass) {
            this.compiledPerPass = compiledPerPass;
        }

        void pass(int n) {
            passes.add(n);
            compiled += compiledPerPass[n - 1];
            nanos += PASS_NANOS;
        }
    }

    private static int run(WarmUp warmUp, Script script, StringWriter progress) {
        return warmUp.run(script::pass, new PrintWriter(progress, true));
    }

    private static WarmUp warmUp(long events, int maxPasses, Script script) {
        return new WarmUp(events, 100, maxPasses, () -> script.compiled, () -> script.nanos);
    }

    @Test
    void shouldStopAtTheFirstPassInWhichTheJitCompiledForLessThanATenthOfIt() {
        Script script = new Script(6.0, 2.5, 1.0, 0.99, 0.0); // 60 %, 25 %, 10 % (not below), 9.9 %
        StringWriter progress = new StringWriter();

        assertEquals(4, run(warmUp(1000, 8, script), script, progress));

        assertEquals(List.of(1, 2, 3, 4), script.passes);
        assertTrue(progress.toString().startsWith("warm-up pass 1 (1000 events per stage, not reported)...\n"
                + "warm-up pass 1: the JIT compiled for 60 %"), "each pass is announced before it runs: " + progress);
        assertEquals("runid-warmup3", WarmUp.runId("runid", 3));
        assertTrue(progress.toString().contains("warm-up pass 1: the JIT compiled for 60 % of its 10.0 s\n"),
                progress.toString());
        assertTrue(progress.toString().contains("warm-up pass 3: the JIT compiled for 10 % of its 10.0 s\n"),
                progress.toString());
        assertTrue(progress.toString().contains("warm-up pass 4: the JIT compiled for 10 % of its 10.0 s (quiet)\n"),
                "9.9 % prints as 10 % and is quiet: " + progress);
    }

    @Test
    void shouldPrintItsProgressTheSameWayWhateverTheDefaultLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY); // a decimal comma
            Script script = new Script(0.5);
            StringWriter progress = new StringWriter();
            run(warmUp(1000, 8, script), script, progress);
            assertTrue(progress.toString().contains("compiled for 5 % of its 10.0 s (quiet)"), progress.toString());
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void shouldStopAfterTheLastPassAllowedAndSaySoWhenTheJitNeverQuietened() {
        Script script = new Script(5.0, 5.0, 5.0, 5.0);
        StringWriter progress = new StringWriter();

        assertEquals(3, run(warmUp(1000, 3, script), script, progress));

        assertEquals(List.of(1, 2, 3), script.passes);
        assertTrue(progress.toString().contains("warm-up pass 3: the JIT compiled for 50 % of its 10.0 s; still "
                + "compiling after 3 passes (--warmup-passes), measuring anyway\n"), progress.toString());
    }

    @Test
    void shouldRunOnePassWhenTheJvmDoesNotTimeItsJitAndNoneWithoutWarmUpEvents() {
        Script script = new Script(5.0, 5.0);
        StringWriter progress = new StringWriter();
        WarmUp unmeasured = new WarmUp(1000, 100, 8, () -> Double.NaN, () -> script.nanos);

        assertEquals(1, unmeasured.run(script::pass, new PrintWriter(progress, true)));
        assertTrue(progress.toString().contains("does not report its JIT's compile time"), progress.toString());

        Script none = new Script();
        assertEquals(0, run(warmUp(0, 8, none), none, new StringWriter()));
        assertEquals(List.of(), none.passes);
    }

    @Test
    void shouldGivePassesItsEventsAndRefuseNoPasses() {
        BenchSettings settings = new BenchSettings(3, 16, 1_000_000, 4, 2, "exactly_once_v2", 42, 200, 1000,
                java.time.Duration.ofMillis(250), BenchConfiguration.DEFAULTS);
        BenchSettings pass = warmUp(50_000, 8, new Script()).settingsOf(settings);

        assertEquals(50_000, pass.events());
        assertEquals(100, pass.latencyEvents());
        assertThrows(IllegalArgumentException.class, () -> new WarmUp(1000, 100, 0));
    }

    /** Hand values: 8 passes in the bench's JVM, 4 more per child JVM (one child was quiet after 8, two after 14). */
    @Test
    void shouldAllowMorePassesByDefaultForEveryChildJvmThatCompilesItsOwnCopy() {
        assertEquals(8, WarmUp.defaultMaxPasses(0));
        assertEquals(12, WarmUp.defaultMaxPasses(1));
        assertEquals(16, WarmUp.defaultMaxPasses(2));
    }
}
