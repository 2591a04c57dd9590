package io.gdastreams.ops;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last minutes of the dashboard's figures ({@code GET /api/history}), so that a page opened now draws its charts
 * at once instead of from its own first poll on: one {@link DashboardSummary#sample} every {@link #INTERVAL_MS},
 * the newest {@link #CAPACITY} kept (five minutes; a few hundred bytes each). The samples are read from the same
 * {@link OpsMetrics} as {@code /metrics}; the page appends its own polls of {@code /api/summary} to them.
 */
final class DashboardHistory implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DashboardHistory.class);
    static final long INTERVAL_MS = 2000;
    static final int CAPACITY = 150;

    private final Supplier<Map<String, Object>> sampler;
    private final Deque<Map<String, Object>> samples = new ArrayDeque<>();
    private final ScheduledExecutorService timer = DaemonTimer.named("gda-dashboard-history");

    DashboardHistory(Supplier<Map<String, Object>> sampler) {
        this.sampler = sampler;
    }

    void start() {
        timer.scheduleAtFixedRate(this::sample, 0, INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    private void sample() {
        try {
            Map<String, Object> next = sampler.get();
            synchronized (samples) {
                samples.addLast(next);
                while (samples.size() > CAPACITY) {
                    samples.removeFirst();
                }
            }
        } catch (RuntimeException e) {
            // A failed sample must not end the schedule (an exception would cancel it): a gap in the charts.
            LOG.warn("dashboard sample failed: {}", e.toString());
        }
    }

    /** The samples, oldest first. */
    List<Map<String, Object>> samples() {
        synchronized (samples) {
            return new ArrayList<>(samples);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
