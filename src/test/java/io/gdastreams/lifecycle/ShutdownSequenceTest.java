package io.gdastreams.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
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
}
