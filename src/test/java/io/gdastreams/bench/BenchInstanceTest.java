package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.reliability.StreamsChildProcess;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The instance host's command protocol, in a real child JVM with no application (the applications themselves run
 * on a broker in {@code InstanceHostsIT} and {@code BenchIT}).
 */
class BenchInstanceTest {

    private static final long EXIT_SECONDS = 30;

    @Test
    void shouldAnswerItsCommandsBetweenApplicationsAndExitWhenTold() throws Exception {
        Process host = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-cp", StreamsChildProcess.classpath(), BenchInstance.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (PrintWriter in = new PrintWriter(host.getOutputStream(), true, StandardCharsets.UTF_8);
             BufferedReader out = host.inputReader(StandardCharsets.UTF_8)) {
            in.println(BenchInstance.USAGE);
            String[] usage = out.readLine().split(" ");
            assertEquals(BenchInstance.USAGE, usage[0]);
            double cpu = Double.parseDouble(usage[1 + BenchInstance.USAGE_CPU]);
            double jit = Double.parseDouble(usage[1 + BenchInstance.USAGE_JIT]);
            double jitTotal = Double.parseDouble(usage[1 + BenchInstance.USAGE_JIT_TOTAL]);
            assertTrue(Double.isNaN(cpu), "no application: no CPU of one");
            assertTrue(Double.isNaN(jit), "no application: no JIT since its RUNNING");
            assertTrue(jitTotal >= 0, "what the JVM compiled so far: " + jitTotal);

            in.println("SOMETHING ELSE"); // ignored (said on standard error), not an answer
            in.println(BenchInstance.STOP);
            assertEquals(BenchInstance.STOPPED, out.readLine(), "stopping nothing is answered too");

            in.println(BenchInstance.HEAP);
            String heap = out.readLine();
            assertTrue(heap.startsWith(BenchInstance.HEAP + " "), heap);
            long bytes = Long.parseLong(heap.substring(BenchInstance.HEAP.length() + 1));
            assertTrue(bytes > 0 && bytes <= 128L << 20, "heap after GC within -Xmx128m: " + bytes);

            in.println(BenchInstance.EXIT);
            assertTrue(host.waitFor(EXIT_SECONDS, TimeUnit.SECONDS), "the host exits when told");
            assertEquals(0, host.exitValue());
        } finally {
            host.destroyForcibly();
        }
    }

    @Test
    void shouldRefuseArgumentsThatWouldBreakTheStartLine() {
        assertEquals("START\ta\tb=c d", BenchInstance.startCommand(List.of("a", "b=c d")));
        assertThrows(IllegalArgumentException.class, () -> BenchInstance.startCommand(List.of("a\tb")));
        assertThrows(IllegalArgumentException.class, () -> BenchInstance.startCommand(List.of("a\nb")));
    }
}
