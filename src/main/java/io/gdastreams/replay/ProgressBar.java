package io.gdastreams.replay;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar for people watching a replay: drawn in place on stderr ({@code \r}), only when the
 * process runs on a terminal ({@link System#console()} is not null: a pipe, a file or a test never gets control
 * characters) and only once the run has taken {@link #SHOW_AFTER}, so that short runs print nothing. It is erased
 * before the next line of the report. The report on stdout is the same with or without it.
 */
final class ProgressBar {

    /** Runs shorter than this show no bar. */
    static final Duration SHOW_AFTER = Duration.ofSeconds(2);
    /** Cells of the bar itself. */
    static final int WIDTH = 30;

    private final PrintWriter terminal;
    private final LongSupplier clock;
    private final long start;
    private String shown = "";

    /** {@code terminal}: where to draw, or null for no bar; {@code clock}: nanoseconds, as System::nanoTime. */
    ProgressBar(PrintWriter terminal, LongSupplier clock) {
        this.terminal = terminal;
        this.clock = clock;
        this.start = clock.getAsLong();
    }

    /** A bar on {@code err} when this process has a terminal, else one that draws nothing. */
    static ProgressBar onTerminal(PrintWriter err) {
        return new ProgressBar(System.console() != null ? err : null, System::nanoTime);
    }

    /** A bar that draws nothing. */
    static ProgressBar off() {
        return new ProgressBar(null, System::nanoTime);
    }

    /** True when the bar is being drawn (a terminal, and the run has taken {@link #SHOW_AFTER}). */
    boolean drawing() {
        return terminal != null && clock.getAsLong() - start >= SHOW_AFTER.toNanos();
    }

    /** Shows {@code done} of {@code total} for {@code phase} ("training", "scoring"), if the bar is drawn at all. */
    void show(String phase, long done, long total) {
        if (!drawing()) {
            return;
        }
        String line = render(phase, done, total);
        if (!line.equals(shown)) {
            terminal.print("\r" + line + " ".repeat(Math.max(0, shown.length() - line.length())));
            terminal.flush();
            shown = line;
        }
    }

    /** Erases the bar, so that the next line starts on a clean line. */
    void clear() {
        if (terminal != null && !shown.isEmpty()) {
            terminal.print("\r" + " ".repeat(shown.length()) + "\r");
            terminal.flush();
            shown = "";
        }
    }

    /** {@code "  scoring  [#########.....................]  300/1000  30%"}: done is clamped to [0, total]. */
    static String render(String phase, long done, long total) {
        long clamped = Math.max(0, Math.min(done, total));
        int filled = total <= 0 ? WIDTH : (int) (clamped * WIDTH / total);
        int percent = total <= 0 ? 100 : (int) (clamped * 100 / total);
        return String.format(Locale.ROOT, "  %-8s [%s%s] %d/%d %3d%%", phase, "#".repeat(filled),
                ".".repeat(WIDTH - filled), clamped, total, percent);
    }
}
