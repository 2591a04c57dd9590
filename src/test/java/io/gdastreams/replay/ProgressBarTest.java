package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The replay's progress bar: its text, its two-second delay, its erasure, and silence without a terminal. */
class ProgressBarTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldRenderTheFractionDoneInThirtyCells() {
        assertEquals("  scoring  [#########.....................] 300/1000  30%",
                ProgressBar.render("scoring", 300, 1000));
        assertEquals("  training [##############################] 150/150 100%",
                ProgressBar.render("training", 150, 150));
        assertEquals("  training [..............................] 0/150   0%", ProgressBar.render("training", -3, 150));
        assertEquals("  scoring  [##############################] 7/7 100%", ProgressBar.render("scoring", 9, 7));
    }

    @Test
    void shouldDrawNothingBeforeTwoSecondsThenRedrawInPlaceAndEraseItself() {
        AtomicLong now = new AtomicLong(0);
        StringWriter terminal = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(terminal), now::get);
        bar.show("training", 10, 100);
        now.set(2 * SECOND - 1);
        bar.show("training", 20, 100);
        assertFalse(bar.drawing());
        assertEquals("", terminal.toString(), "a run shorter than 2 s shows no bar");
        now.set(2 * SECOND);
        bar.show("training", 30, 100);
        bar.show("training", 30, 100);
        String first = "\r" + ProgressBar.render("training", 30, 100);
        assertEquals(first, terminal.toString(), "drawn once, not again while unchanged");
        bar.show("training", 100, 100);
        String second = "\r" + ProgressBar.render("training", 100, 100);
        bar.clear();
        assertEquals(first + second + "\r" + " ".repeat(second.length() - 1) + "\r", terminal.toString());
    }

    @Test
    void shouldDrawNothingWithoutATerminal() {
        AtomicLong now = new AtomicLong(0);
        ProgressBar bar = new ProgressBar(null, now::get);
        now.set(60 * SECOND);
        bar.show("scoring", 1, 2);
        bar.clear();
        assertFalse(bar.drawing());
        StringWriter err = new StringWriter();
        ProgressBar fromConsole = ProgressBar.onTerminal(new PrintWriter(err));
        assertTrue(System.console() == null, "tests run without a terminal");
        fromConsole.show("scoring", 1, 2);
        assertEquals("", err.toString());
    }
}
