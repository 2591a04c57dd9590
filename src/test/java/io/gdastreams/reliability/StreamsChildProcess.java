package io.gdastreams.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Starts {@link StreamsChild} in a new JVM on the test classpath and kills it with SIGKILL. Its output goes to
 * a log file (one per start) for diagnosis.
 */
public final class StreamsChildProcess implements AutoCloseable {

    private final List<String> command;
    private final Path logDir;
    private Process process;
    private int starts;

    StreamsChildProcess(List<String> childArgs, Path logDir) {
        this.logDir = logDir;
        this.command = new ArrayList<>(List.of(javaExecutable(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-cp", classpath(), StreamsChild.class.getName()));
        command.addAll(childArgs);
    }

    void start() {
        try {
            Files.createDirectories(logDir);
            starts++;
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(logDir.resolve("child-" + starts + ".log").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL, as a crash or an OOM killer would, and wait until the process is gone. */
    void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("child did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The output of the current (last started) process. */
    String log() {
        try {
            return Files.readString(logDir.resolve("child-" + starts + ".log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** The output of every start so far. */
    String allLogs() {
        StringBuilder all = new StringBuilder();
        for (int i = 1; i <= starts; i++) {
            try {
                all.append(Files.readString(logDir.resolve("child-" + i + ".log")));
            } catch (IOException e) {
                all.append("(no log ").append(i).append(")\n");
            }
        }
        return all.toString();
    }

    @Override
    public void close() {
        if (isAlive()) {
            kill();
        }
    }

    private static String javaExecutable() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The test JVM's classpath. Surefire/failsafe may start tests from a manifest-only jar; its Class-Path entries
     * are then expanded so that the child does not depend on that temporary jar's URL handling.
     */
    public static String classpath() {
        String own = System.getProperty("java.class.path");
        String[] entries = own.split(java.io.File.pathSeparator);
        if (entries.length != 1 || !entries[0].endsWith(".jar")) {
            return own;
        }
        try (JarFile jar = new JarFile(entries[0])) {
            Manifest manifest = jar.getManifest();
            String classPath = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
            if (classPath == null) {
                return own;
            }
            java.net.URI base = Paths.get(entries[0]).toAbsolutePath().getParent().toUri();
            List<String> paths = new ArrayList<>();
            for (String url : classPath.trim().split("\\s+")) {
                paths.add(Paths.get(base.resolve(url)).toString());
            }
            return String.join(java.io.File.pathSeparator, paths);
        } catch (IOException | IllegalArgumentException e) {
            return own;
        }
    }
}
