package io.gdastreams.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link ShutdownSequence#jvmStopping()}: false while the JVM runs, true from a shutdown hook (what a command's
 * failure sees after Ctrl-C or SIGTERM: its hooks are stopping the topologies under it). The second needs a JVM
 * that ends: a child that prints the answer before exiting and from its hook.
 */
class ShutdownSequenceTest {

    /** The child: prints jvmStopping() now and from a shutdown hook, then exits. */
    public static final class Child {
        public static void main(String[] args) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook " + ShutdownSequence
                    .jvmStopping())));
            System.out.println("running " + ShutdownSequence.jvmStopping());
            System.exit(0);
        }
    }

    @Test
    void shouldTellAShuttingDownJvmFromARunningOne() throws IOException, InterruptedException {
        assertFalse(ShutdownSequence.jvmStopping());
        Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Child.class.getName())).redirectErrorStream(true)
                .start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ends");
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(List.of("running false", "hook true"), out.lines().toList(), out);
    }

    /**
     * A resource closed on its own (a replay's scorer) while the sequence is released (Ctrl-C): what was registered
     * before it (its state directory, the broker) is released only once its close has ended, never during it.
     */
    @Test
    void shouldReleaseEarlierResourcesOnlyAfterOneBeingClosedOnItsOwnHasClosed() throws Exception {
        List<String> closed = new CopyOnWriteArrayList<>();
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch mayFinish = new CountDownLatch(1);
        try (ShutdownSequence sequence = new ShutdownSequence()) {
            sequence.register(() -> closed.add("broker"));
            AutoCloseable scorer = sequence.register(() -> {
                closing.countDown();
                assertTrue(mayFinish.await(30, TimeUnit.SECONDS));
                closed.add("scorer");
            });
            Thread own = new Thread(() -> sequence.close(scorer), "closes-the-scorer");
            own.start();
            assertTrue(closing.await(30, TimeUnit.SECONDS));
            Thread release = new Thread(sequence::close, "ctrl-c");
            release.start();
            release.join(300); // it waits for the scorer: nothing else is released meanwhile
            assertEquals(List.of(), closed);
            mayFinish.countDown();
            own.join(30_000);
            release.join(30_000);
            assertEquals(List.of("scorer", "broker"), closed);
        }
    }
}
