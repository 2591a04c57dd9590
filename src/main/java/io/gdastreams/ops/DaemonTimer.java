package io.gdastreams.ops;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The periodic work of the ops side (progress lines, dashboard samples, metric refreshes) on daemon threads. */
final class DaemonTimer {

    private DaemonTimer() {
    }

    /**
     * A single-thread scheduler whose thread is named {@code name} and is a daemon: a timer never keeps a process
     * alive that is otherwise done (the owner still shuts it down when it closes).
     */
    static ScheduledExecutorService named(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
