package io.gdastreams.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of an in-process application's threads: a cost measure that, unlike events/s, hardly moves with the
 * load other processes put on a shared machine (a thread waiting for a core accrues no CPU time). Kafka Streams
 * names every thread of an application after its application id (stream, global, producer and consumer threads),
 * so the threads are found by name.
 */
final class ThreadCpu {

    private ThreadCpu() {
    }

    /**
     * The CPU seconds used so far by the live threads whose name contains {@code name} (threads that ended are not
     * counted), or NaN when the JVM does not measure thread CPU time.
     */
    static double seconds(String name) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isThreadCpuTimeSupported() || !threads.isThreadCpuTimeEnabled()) {
            return Double.NaN;
        }
        long nanos = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains(name)) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                if (cpu > 0) { // −1: the thread ended meanwhile
                    nanos += cpu;
                }
            }
        }
        return nanos / 1e9;
    }
}
