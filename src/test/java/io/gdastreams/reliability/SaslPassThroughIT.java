package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.cli.Main;
import io.gdastreams.it.SaslTestCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SASL settings from the configuration reach every client the application makes (admin for topic creation,
 * the producer, both Kafka Streams applications with their producers, consumers and admin, the watcher
 * consumer): a broker whose only client listener is SASL_PLAINTEXT serves a full {@code replay}, and a wrong
 * password fails it. The password never appears in anything the application prints or logs.
 *
 * <p>Its own broker (the shared one is PLAINTEXT), Kafka's test kit with its PLAIN super user {@code plain-admin}
 * (the kit also installs an authorizer; authorisation is out of scope here).
 */
class SaslPassThroughIT {

    private static SaslTestCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSaslBroker() throws Exception {
        cluster = SaslTestCluster.start(Map.of(), Map.of());
    }

    @AfterAll
    static void stopSaslBroker() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private record Outcome(int code, String printed) {
    }

    /** Runs {@code replay} of Iris against the SASL broker; everything printed or logged is captured. */
    private Outcome replay(String password) throws IOException {
        Path train = dir.resolve("train.csv");
        try (InputStream in = SaslPassThroughIT.class.getResourceAsStream("/data/iris.csv")) {
            Files.write(train, in.readAllBytes());
        }
        Path config = dir.resolve("sasl.properties");
        // Protocol and mechanism in the file; the credentials in the environment, as config/app.properties advises.
        Files.writeString(config, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                + "replication.factor=1\ngda.replication.factor=1\n");
        Map<String, String> env = Map.of("KAFKA_STREAMS_SASL_JAAS_CONFIG",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                        + SaslTestCluster.ADMIN + "\" password=\"" + password + "\";");
        List<String> args = List.of("replay", "--train", train.toString(), "--score", train.toString(), "--label",
                "species", "--bootstrap-servers", cluster.bootstrapServers(), "--config", config.toString(),
                "--output", dir.resolve("out.jsonl").toString());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        PrintStream originalOut = System.out;
        PrintStream capture = new PrintStream(logs, true, StandardCharsets.UTF_8);
        int code;
        try {
            // slf4j-simple writes to whatever System.err is at the time of each log call.
            System.setErr(capture);
            System.setOut(capture);
            code = Main.run(args.toArray(String[]::new), env, new PrintWriter(out, true), new PrintWriter(err, true));
        } finally {
            System.setErr(originalErr);
            System.setOut(originalOut);
        }
        String printed = out + "\n" + err + "\n" + logs.toString(StandardCharsets.UTF_8);
        return new Outcome(code, printed);
    }

    @Test
    void shouldReplayOverSaslWithSettingsFromConfigAndEnvironmentAndNeverPrintThePassword() throws IOException {
        Outcome ok = replay(SaslTestCluster.ADMIN_PASSWORD);
        assertEquals(0, ok.code(), ok.printed());
        assertTrue(ok.printed().contains("ccuracy"), "replay finished and reported accuracy");
        assertTrue(Files.readAllLines(dir.resolve("out.jsonl")).size() == 150, "one prediction per row");
        assertFalse(ok.printed().contains(SaslTestCluster.ADMIN_PASSWORD), "password printed or logged");
        System.out.printf("sasl: replay over SASL_PLAINTEXT ok; %d characters of output/logs checked%n",
                ok.printed().length());
    }

    @Test
    void shouldFailWithAWrongPasswordWithoutPrintingIt() throws IOException {
        String wrong = "not-the-password-4711";
        Outcome failed = replay(wrong);
        assertNotEquals(0, failed.code(), "a wrong password must not work: the setting is really used");
        assertTrue(failed.printed().toLowerCase().contains("authentication"), failed.printed());
        assertFalse(failed.printed().contains(wrong), "password printed or logged");
    }

    /**
     * {@code produce} and {@code consume} take the same {@code --config} and environment: lines piped in over SASL come
     * back over SASL, and the password is printed nowhere.
     */
    @Test
    void shouldProduceAndConsumeOverSaslWithTheConfigFile() throws Exception {
        String topic = "sasl-console";
        Map<String, Object> adminConfig = new java.util.HashMap<>(Map.of("bootstrap.servers",
                cluster.bootstrapServers(), "security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", jaas(SaslTestCluster.ADMIN_PASSWORD)));
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(adminConfig)) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(topic, 1, (short) 1))).all().get();
        }
        Path config = dir.resolve("console.properties");
        Files.writeString(config, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n");
        Map<String, String> env = Map.of("KAFKA_STREAMS_SASL_JAAS_CONFIG", jaas(SaslTestCluster.ADMIN_PASSWORD));
        List<String> lines = List.of("{\"features\":{\"a\":1.0},\"label\":\"x\"}", "second line", "third");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        java.io.InputStream originalIn = System.in;
        int produced;
        try {
            System.setIn(new java.io.ByteArrayInputStream((String.join("\n", lines) + "\n")
                    .getBytes(StandardCharsets.UTF_8)));
            produced = Main.run(new String[] {"produce", "--topic", topic, "--bootstrap-servers",
                    cluster.bootstrapServers(), "--config", config.toString()}, env, new PrintWriter(out, true),
                    new PrintWriter(err, true));
        } finally {
            System.setIn(originalIn);
        }
        assertEquals(0, produced, out + "\n" + err);
        int consumed = Main.run(new String[] {"consume", "--topic", topic, "--from-beginning", "--max-records", "3",
                "--bootstrap-servers", cluster.bootstrapServers(), "--config", config.toString()}, env,
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, consumed, out + "\n" + err);
        assertEquals(lines, out.toString().lines().toList(), err.toString());
        assertFalse((out + "\n" + err).contains(SaslTestCluster.ADMIN_PASSWORD), "password printed");
    }

    private static String jaas(String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                + SaslTestCluster.ADMIN + "\" password=\"" + password + "\";";
    }
}
