package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * ReleaseBudget on a clock of its own. The clock starts far from 0, as System.nanoTime does (its origin is
 * arbitrary): at 0 a window's start, and the start of the first release in it, are 0, so sums and differences with
 * them cannot be told apart.
 */
class ReleaseBudgetTest {

    private static final long START = 5_000_000_000L;
    private static final long MS = 1_000_000L;
    /** Each release below takes this long: under the budget once or twice, past it the third time. */
    private static final long RELEASE = 100 * MS;

    private long now = START;
    private final ReleaseBudget budget = ReleaseBudget.of(() -> now, ReleaseBudget.BUDGET_NANOS);

    /** One release of {@link #RELEASE}; whether the budget looked spent at its end (the release stops there). */
    private boolean release() {
        assertTrue(budget.begin(), "a release may begin at " + (now - START) / MS + " ms");
        now += RELEASE;
        boolean exhausted = budget.exhausted();
        budget.end();
        return exhausted;
    }

    @Test
    void shouldCountTheTimeOfEveryReleaseOfAWindowAgainstItsBudget() {
        // 250 ms a window: after 100 and 200 ms there is budget left; the third release ends at 300 ms, past it.
        assertFalse(release(), "100 ms spent");
        assertFalse(release(), "200 ms spent");
        assertTrue(release(), "300 ms spent, more than the 250 ms budget");
        assertFalse(budget.begin(), "the window's budget is spent: nothing more is released in it");
    }

    @Test
    void shouldOpenANewWindowAWholeWindowAfterTheLastOneBegan() {
        release();
        release();
        release();
        now = START + ReleaseBudget.WINDOW_NANOS - 1;
        assertFalse(budget.begin(), "still the first window, spent");
        now = START + ReleaseBudget.WINDOW_NANOS;
        assertTrue(budget.begin(), "a new window, with its whole budget");
        now += RELEASE;
        assertFalse(budget.exhausted(), "what the first window spent is not counted in the second");
        budget.end();
    }
}
