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
}
