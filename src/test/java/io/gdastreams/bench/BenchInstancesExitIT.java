package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gdastreams.cli.Main;
import io.gdastreams.reliability.StreamsChildProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --instances N} stopped by SIGTERM (Ctrl-C, a CI timeout) takes its instance JVMs with it. Without the
 * bench's exit hook they noticed their closed standard input and then waited for their close timeout on a broker
 * that had gone with the bench: about a minute alive (measured), each with its heap. Real processes throughout: the
 * bench in a JVM of its own with its embedded broker, two instance JVMs under it, a real SIGTERM.
 */
class BenchInstancesExitIT {

    /** The instances are killed by the hook at once; the bench's own exit (broker stop) takes a few seconds. */
    private static final Duration GONE_WITHIN = Duration.ofSeconds(20);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    /** The instances' heap, also how they are told from the broker's JVM by their command line. */
    private static final String INSTANCE_HEAP = "300m";

    /**
     * {@code /proc/<pid>/cmdline} (arguments separated by NUL), or empty when unreadable. {@code ProcessHandle.Info}
     * returned no arguments for the instances (their class path makes the command line long).
     */
    private static String commandLine(ProcessHandle process) {
        try {
            return "\0" + new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    void shouldTakeItsInstanceJvmsWithItWhenStoppedBySigterm(@TempDir Path log) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs /proc (Linux) to tell the instance JVMs apart");
        List<String> command = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", StreamsChildProcess.classpath(), Main.class.getName(), "bench",
                "--events", "300000", "--warmup-events", "0", "--latency-events", "20", "--partitions", "2",
                "--threads", "1", "--instances", "2", "--instance-heap", INSTANCE_HEAP);
        Process bench = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.resolve("bench.log").toFile()).start();
        List<ProcessHandle> instances = List.of();
        try {
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            while (instances.size() < 2 && System.nanoTime() < deadline && bench.isAlive()) {
                Thread.sleep(200);
                instances = bench.descendants()
                        .filter(p -> commandLine(p).contains("\0-Xmx" + INSTANCE_HEAP + "\0"))
                        .toList();
            }
            assertEquals(2, instances.size(), "instance JVMs started by the bench; its output:\n"
                    + Files.readString(log.resolve("bench.log")));

            bench.destroy(); // SIGTERM
            assertTrue(bench.waitFor(GONE_WITHIN.toMillis(), TimeUnit.MILLISECONDS), "the bench did not exit");
            long until = System.nanoTime() + GONE_WITHIN.toNanos();
            while (instances.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            assertTrue(instances.stream().noneMatch(ProcessHandle::isAlive),
                    "instance JVMs outlived the bench: " + instances.stream().filter(ProcessHandle::isAlive).toList());
        } finally {
            instances.forEach(ProcessHandle::destroyForcibly); // reparented once the bench is gone: not descendants
            bench.descendants().forEach(ProcessHandle::destroyForcibly);
            bench.destroyForcibly();
        }
    }
}
