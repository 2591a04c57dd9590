package io.gdastreams.broker;

import io.gdastreams.broker.EmbeddedBroker.BrokerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Stopping and signalling the embedded broker's child JVMs (the storage tool, the broker), and the waits in
 * between. Every failure is a {@link BrokerException}.
 */
final class BrokerProcesses {

    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    private static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(5);

    private BrokerProcesses() {
    }

    /** SIGTERM, then SIGKILL after a grace period. */
    static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL and wait until the process is gone (a stopped process dies on SIGKILL too). */
    static void kill(Process process) {
        process.destroyForcibly();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new BrokerException("broker " + process.pid() + " did not die on SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException("interrupted while killing the embedded broker");
        }
    }

    /** Sends {@code SIG<name>} with kill(1): Java can send only SIGTERM and SIGKILL. */
    static void signal(Process process, String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!kill.waitFor(SIGNAL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
                throw new BrokerException("kill -" + name + " " + process.pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new BrokerException("cannot run kill -" + name + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException("interrupted while signalling the embedded broker");
        }
    }

    /**
     * Waits until /proc says the process is stopped ({@code T}) or not, so that a caller's next step happens
     * after the signal took effect. Without /proc (not Linux) it returns at once.
     */
    static void awaitRunState(Process process, boolean stopped) {
        Path stat = Paths.get("/proc", Long.toString(process.pid()), "stat");
        long deadline = System.nanoTime() + SIGNAL_TIMEOUT.toNanos();
        while (Files.isReadable(stat)) {
            String state;
            try {
                String line = Files.readString(stat, StandardCharsets.UTF_8);
                // "pid (comm) S ...": the state follows the last ')' (comm may contain spaces and parentheses).
                state = line.substring(line.lastIndexOf(')') + 2, line.lastIndexOf(')') + 3);
            } catch (IOException | RuntimeException e) {
                return;
            }
            if (state.equals("T") == stopped) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new BrokerException("broker " + process.pid() + " still in state " + state + " after "
                        + SIGNAL_TIMEOUT.toSeconds() + " s");
            }
            sleep(10);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException("interrupted while waiting for the embedded broker");
        }
    }
}
