package io.gdastreams.broker;

import java.util.Optional;

/**
 * Main class of the embedded broker's JVM: runs {@code kafka.Kafka} and stops it when the parent process is
 * gone. The parent destroys the child on a normal exit or Ctrl-C; this covers the case where the parent is
 * killed outright (SIGKILL, a crashed test JVM), which would otherwise leave an orphan broker behind.
 */
public final class BrokerChildMain {

    private static final long PARENT_POLL_MS = 1000;

    private BrokerChildMain() {
    }

    public static void main(String[] args) throws Exception {
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        if (parent.isPresent()) {
            ProcessHandle watched = parent.get();
            Thread watchdog = new Thread(() -> {
                while (watched.isAlive()) {
                    try {
                        Thread.sleep(PARENT_POLL_MS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                // System.exit runs Kafka's own shutdown hook: a clean broker stop.
                System.exit(0);
            }, "parent-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
        }
        kafka.Kafka.main(args);
    }
}
