package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/gda-streams runs the built jar (target/gda-streams.jar, packaged before the ITs) and passes its exit code. */
class LauncherIT {

    private static final Path LAUNCHER = Path.of("bin/gda-streams");

    @TempDir
    Path dir;

    private record Run(int code, String out) {
    }

    private Run run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(LAUNCHER.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.txt").toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new Run(process.exitValue(), Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8));
    }

    @Test
    void shouldRunTheJarAndPassItsExitCode() throws Exception {
        assertTrue(Files.isExecutable(LAUNCHER));
        Run help = run(Map.of(), "--help");
        assertEquals(0, help.code(), help.out());
        assertTrue(help.out().contains("Usage: gda-streams [-hV] [COMMAND]") && help.out().contains("  bench "),
                help.out());
        Run wrong = run(Map.of(), "score", "--no-such-option");
        assertEquals(2, wrong.code(), wrong.out());
        Run noJar = run(Map.of("GDA_STREAMS_JAR", dir.resolve("none.jar").toString()), "demo");
        assertEquals(2, noJar.code(), noJar.out());
        assertTrue(noJar.out().contains("mvn -B -ntp -q package -DskipTests"), noJar.out());
    }

    /**
     * The vector scoring kernel's module flag: passed when the Java has the module (the JVM then warns that it uses
     * an incubator module), left out with GDA_STREAMS_VECTOR=off (docs/BENCHMARKS.md, "Vector kernel").
     */
    @Test
    void shouldPassTheVectorModuleUnlessSwitchedOff() throws Exception {
        String javaHome = System.getProperty("java.home");
        assertTrue(Files.readString(Path.of(javaHome, "release")).contains("jdk.incubator.vector"),
                "this test's Java has the module");
        String warning = "Using incubator modules: jdk.incubator.vector";
        Run on = run(Map.of("JAVA_HOME", javaHome), "--help");
        assertEquals(0, on.code(), on.out());
        assertTrue(on.out().contains(warning), on.out());
        Run off = run(Map.of("JAVA_HOME", javaHome, "GDA_STREAMS_VECTOR", "off"), "--help");
        assertEquals(0, off.code(), off.out());
        assertTrue(!off.out().contains(warning) && off.out().contains("Usage: gda-streams"), off.out());
    }
}
