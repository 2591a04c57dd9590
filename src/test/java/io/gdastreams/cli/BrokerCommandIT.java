package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.it.Await;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.reliability.StreamsChildProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code broker}, {@code produce} and {@code consume} as a user runs them: the broker command in a JVM of its own
 * (from the test class path), a second one on its port or its --data-dir refused, lines piped into {@code produce}
 * in another, read back with {@code consume}; then the broker stopped with SIGTERM and started again on the same
 * --data-dir still holds them.
 */
class BrokerCommandIT {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final String READY = "Kafka broker ready at ";
    /** Exit status of a JVM stopped by SIGTERM, whatever its shutdown hooks did: 128 + 15. */
    private static final int SIGTERM_EXIT = 143;
    private static final List<String> EVENTS = List.of(
            "{\"features\": {\"x\": 1.0, \"y\": 2.0}, \"label\": \"a\"}",
            "{\"features\": {\"x\": 3.0, \"y\": 1.5}, \"label\": \"b\"}",
            "{\"features\": {\"x\": 0.5, \"y\": 2.5}, \"label\": \"a\"}");

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopEverything() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void shouldServeProduceAndConsumeAndKeepTheDataAcrossARestart() throws Exception {
        Path data = dir.resolve("kafka-data");
        int port = freePort();
        String bootstrap = "127.0.0.1:" + port;
        Process broker = startBroker(data, port, "broker-1.log");

        // A second broker on the same port: refused before it starts, naming the port (the first one, which would
        // answer a readiness probe, must not pass for it).
        Process second = java(List.of("broker", "--port", Integer.toString(port)), dir.resolve("broker-taken.log"));
        assertEquals(ExitCodes.FAILURE, waitFor(second), Files.readString(dir.resolve("broker-taken.log")));
        String taken = Files.readString(dir.resolve("broker-taken.log"));
        assertTrue(taken.contains("gda-streams broker: port " + port + " on 127.0.0.1 is in use: stop what listens"
                + " there or choose another --port"), taken);
        assertTrue(!taken.contains(READY), taken);

        // A second broker on the same --data-dir with another port: refused before it reads or writes the directory
        // (it used to rewrite server.properties and recover the running broker's metadata log, which killed that
        // broker); the first one keeps serving (the records below go through it).
        Process shared = java(List.of("broker", "--port", Integer.toString(freePort()), "--data-dir", data.toString()),
                dir.resolve("broker-shared.log"));
        assertEquals(ExitCodes.FAILURE, waitFor(shared), Files.readString(dir.resolve("broker-shared.log")));
        String sharedLog = Files.readString(dir.resolve("broker-shared.log"));
        assertTrue(sharedLog.contains("the data directory " + data + " is in use by another broker"), sharedLog);
        assertTrue(broker.isAlive(), Files.readString(dir.resolve("broker-1.log")));

        Process produce = java(List.of("produce", "--bootstrap-servers", bootstrap, "--topic", "labelled-events"),
                dir.resolve("produce-missing.log"));
        produce.getOutputStream().close();
        assertEquals(ExitCodes.USAGE, waitFor(produce), Files.readString(dir.resolve("produce-missing.log")));
        assertTrue(Files.readString(dir.resolve("produce-missing.log")).contains("no topic 'labelled-events'"));

        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic("labelled-events", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
        }
        produce = java(List.of("produce", "--bootstrap-servers", bootstrap, "--topic", "labelled-events"),
                dir.resolve("produce.log"));
        try (OutputStream in = produce.getOutputStream()) {
            in.write((String.join("\n", EVENTS) + "\n\n").getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(ExitCodes.OK, waitFor(produce), Files.readString(dir.resolve("produce.log")));
        assertTrue(Files.readString(dir.resolve("produce.log")).contains("Sent 3 records to labelled-events"));
        assertEquals(EVENTS, consume(bootstrap));

        // A line too long to send: the lines before it are on the topic, and the message says so.
        Path longLog = dir.resolve("produce-long.log");
        Process longLine = java(List.of("produce", "--bootstrap-servers", bootstrap, "--topic", "labelled-events"),
                longLog);
        try (OutputStream in = longLine.getOutputStream()) {
            in.write((EVENTS.get(0) + "\n" + "x".repeat(1_000_001) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(ExitCodes.USAGE, waitFor(longLine), Files.readString(longLog));
        assertTrue(Files.readString(longLog).contains("line 2 is longer than 1000000 characters: the 1 record before"
                + " it was sent to 'labelled-events' (and acknowledged), nothing from it on"), Files.readString(longLog));
        assertEquals(EVENTS.size() + 1, consumeCount(bootstrap));

        broker.destroy(); // SIGTERM, as Ctrl-C or a service manager
        assertEquals(SIGTERM_EXIT, waitFor(broker), Files.readString(dir.resolve("broker-1.log")));
        assertTrue(Files.exists(data.resolve("data").resolve("meta.properties")), "the data directory is kept");

        // The controller port is the one the directory was formatted with, and must be bound again: chosen below
        // the system's range of ephemeral ports, where no outgoing connection gets it by chance.
        int controllerPort = controllerPort(data);
        int ephemeralLow = ephemeralLow();
        if (ephemeralLow > 0) {
            assertTrue(controllerPort < ephemeralLow, "controller port " + controllerPort + " below " + ephemeralLow);
        }
        // A connection holding it (as a client's local port can): the broker says which port and what to do.
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket holder = new Socket()) {
            holder.setReuseAddress(false);
            holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), controllerPort));
            holder.connect(peer.getLocalSocketAddress());
            Process held = java(List.of("broker", "--port", Integer.toString(port), "--data-dir", data.toString()),
                    dir.resolve("broker-held.log"));
            assertEquals(ExitCodes.FAILURE, waitFor(held), Files.readString(dir.resolve("broker-held.log")));
            String heldLog = Files.readString(dir.resolve("broker-held.log"));
            assertTrue(heldLog.contains("gda-streams broker: the controller port " + controllerPort
                    + " of the broker in " + data + " is in use by another process (it was chosen when the directory was formatted, and must"
                    + " stay the same): `ss -tanp | grep :" + controllerPort + "` shows who holds it"), heldLog);
        }

        Process again = startBroker(data, port, "broker-2.log");
        assertEquals(EVENTS, consume(bootstrap), "the records are still there after a restart");

        // A broker that goes away while produce runs: the failure says what arrived and from which line on not.
        Path outageLog = dir.resolve("produce-outage.log");
        Process lasting = java(List.of("produce", "--bootstrap-servers", bootstrap, "--topic", "labelled-events",
                "--timeout", "5"),
                outageLog);
        OutputStream lines = lasting.getOutputStream();
        lines.write((EVENTS.get(0) + "\n").getBytes(StandardCharsets.UTF_8));
        lines.flush();
        Await.until("the first line arrives", START_TIMEOUT, () -> consumeCount(bootstrap) == EVENTS.size() + 2,
                () -> readQuietly(outageLog));
        again.destroy();
        assertEquals(SIGTERM_EXIT, waitFor(again));
        lines.write((EVENTS.get(1) + "\n" + EVENTS.get(2) + "\n").getBytes(StandardCharsets.UTF_8));
        lines.close();
        assertEquals(ExitCodes.FAILURE, waitFor(lasting), Files.readString(outageLog));
        assertTrue(Files.readString(outageLog).contains("(1 record of labelled-events acknowledged; from line 2 on,"
                + " lines may not have arrived)"), Files.readString(outageLog));
    }

    /** How many records the topic holds now (read from the beginning, up to 30 s of silence). */
    private static int consumeCount(String bootstrap) {
        StringWriter out = new StringWriter();
        Main.run(new String[] {"consume", "--bootstrap-servers", bootstrap, "--topic", "labelled-events",
                "--from-beginning", "--idle-seconds", "2"}, Map.of(), new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true));
        return (int) out.toString().lines().count();
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static int controllerPort(Path data) throws IOException {
        java.util.Properties server = new java.util.Properties();
        try (var in = Files.newBufferedReader(data.resolve("server.properties"))) {
            server.load(in);
        }
        String voters = server.getProperty("controller.quorum.bootstrap.servers");
        return Integer.parseInt(voters.substring(voters.lastIndexOf(':') + 1));
    }

    /** The first ephemeral port of this (Linux) system, or 0 where the range cannot be read. */
    private static int ephemeralLow() {
        try {
            return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0)
                    .trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private List<String> consume(String bootstrap) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"consume", "--bootstrap-servers", bootstrap, "--topic", "labelled-events",
                "--from-beginning", "--max-records", "3", "--idle-seconds", "30"}, Map.of(),
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, err.toString());
        return out.toString().lines().toList();
    }

    private Process startBroker(Path data, int port, String log) throws IOException, InterruptedException {
        Path logFile = dir.resolve(log);
        Process broker = java(List.of("broker", "--port", Integer.toString(port), "--data-dir", data.toString()),
                logFile);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!Files.readString(logFile).contains(READY + "127.0.0.1:" + port)) {
            assertTrue(broker.isAlive(), "the broker command exited: " + Files.readString(logFile));
            assertTrue(System.nanoTime() < deadline, "no broker within " + START_TIMEOUT + ": "
                    + Files.readString(logFile));
            Thread.sleep(200);
        }
        return broker;
    }

    private Process java(List<String> args, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                StreamsChildProcess.classpath(), Main.class.getName()));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        started.add(process);
        return process;
    }

    private static int waitFor(Process process) throws InterruptedException {
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "still running after 60 s");
        return process.exitValue();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
