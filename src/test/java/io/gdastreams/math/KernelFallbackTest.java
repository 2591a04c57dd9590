package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.reliability.StreamsChildProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Without the incubator module the product must run the scalar kernel, never load the vector class, and give the
 * same bits as this (vector) JVM: a child JVM started without {@code --add-modules jdk.incubator.vector}, with
 * class loading logged.
 */
class KernelFallbackTest {

    @Test
    void aJvmWithoutTheModuleShouldScoreWithTheScalarKernelAndTheSameBits() throws IOException, InterruptedException {
        List<String> command = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-Xlog:class+load=info", "-cp", StreamsChildProcess.classpath(),
                KernelFallbackMain.class.getName());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> output = new ArrayList<>();
        try (var reader = child.inputReader(StandardCharsets.UTF_8)) {
            reader.lines().forEach(output::add);
        }
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");
        assertEquals(0, child.exitValue(), String.join("\n", output));
        List<String> values = new ArrayList<>();
        for (String line : output) {
            assertFalse(line.contains("VectorTriangularKernel") || line.contains("VectorClassLanes")
                    || line.contains("jdk.incubator.vector"), line);
            assertFalse(line.contains("Using incubator modules"), line);
            if (!line.startsWith("[")) { // the -Xlog lines
                values.add(line);
            }
        }
        assertEquals("vector=false", values.get(0));
        // Here the vector kernel scores once its warm-up has compiled it; before that this JVM scores scalar too.
        assertTrue(KernelChoice.VECTOR, "this JVM runs with the module (pom.xml argLine)"); // starts the warm-up
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!VectorWarmUp.done() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(VectorWarmUp.done(), "the warm-up ended");
        List<String> here = KernelFallbackMain.lines();
        assertEquals("vector=true", here.get(0), "this JVM runs with the module (pom.xml argLine)");
        assertEquals(here.subList(1, here.size()), values.subList(1, values.size()));
    }
}
