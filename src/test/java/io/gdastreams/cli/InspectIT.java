package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.serde.ModelSerde;
import io.gdastreams.topology.ModelSigning;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code inspect} and {@code plot} reading the model topic of a real broker: the newest record under the model id
 * (not another id's, not an older version), its bytes as they are with --json, and a deleted model refused.
 */
@ExtendWith(KafkaBrokerExtension.class)
class InspectIT {

    @TempDir
    Path dir;

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(String... args) {
        return run(Map.of(), args);
    }

    private static Outcome run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, env, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void shouldShowTheNewestModelUnderItsIdFromTheTopic(KafkaBroker broker) throws Exception {
        String topic = UniqueNames.of("inspect-models");
        broker.createTopics(Map.of(topic, 1));
        ModelSerde serde = new ModelSerde();
        byte[] older = serde.serializer().serialize(topic, Iris.model("iris", 1, Iris.every(3, 0)));
        byte[] newest = serde.serializer().serialize(topic, Iris.model("iris", 2, Iris.rows()));
        byte[] other = serde.serializer().serialize(topic, Iris.model("other", 9, Iris.every(2, 1)));
        try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            producer.send(new ProducerRecord<>(topic, "iris".getBytes(StandardCharsets.UTF_8), older)).get();
            producer.send(new ProducerRecord<>(topic, "iris".getBytes(StandardCharsets.UTF_8), newest)).get();
            producer.send(new ProducerRecord<>(topic, "other".getBytes(StandardCharsets.UTF_8), other)).get();
            producer.send(new ProducerRecord<>(topic, "gone".getBytes(StandardCharsets.UTF_8), older)).get();
            producer.send(new ProducerRecord<>(topic, "gone".getBytes(StandardCharsets.UTF_8), null)).get();
        }
        String[] cluster = {"--bootstrap-servers", broker.bootstrapServers(), "--set", "gda.topic.model=" + topic};

        Outcome table = run(concat(new String[] {"inspect", "--model-id", "iris"}, cluster));
        assertEquals(ExitCodes.OK, table.code(), table.err());
        assertTrue(table.out().contains("version:     2"), table.out());
        assertTrue(table.out().contains("events:      150"), table.out());
        assertTrue(table.out().lines().anyMatch(l -> l.matches("setosa\\s+50\\s+0\\.3333\\s+.*")), table.out());
        Outcome strict = run(concat(new String[] {"inspect", "--model-id", "iris", "--set", "gda.min.count=51"},
                cluster));
        assertEquals(ExitCodes.OK, strict.code(), strict.err());
        assertTrue(strict.out().contains("scoring:     no class (full covariance, mle, gda.min.count 51): setosa"
                + " (count 50 below minimum 51); "), strict.out());

        Outcome json = run(concat(new String[] {"inspect", "--model-id", "iris", "--json"}, cluster));
        assertEquals(ExitCodes.OK, json.code(), json.err());
        assertEquals(new String(newest, StandardCharsets.UTF_8).strip(), json.out().strip());

        Outcome deleted = run(concat(new String[] {"inspect", "--model-id", "gone"}, cluster));
        assertEquals(ExitCodes.USAGE, deleted.code(), deleted.err());
        assertTrue(deleted.err().contains("is a tombstone: the model was deleted"), deleted.err());

        Path png = dir.resolve("plot.png");
        Outcome plot = run(concat(new String[] {"plot", "--model-id", "iris", "--x", "petal_length", "--y",
                "petal_width", "--output", png.toString()}, cluster));
        assertEquals(ExitCodes.OK, plot.code(), plot.err());
        assertTrue(plot.err().contains("model 'iris' version 2"), plot.err());
        assertEquals(1000, ImageIO.read(Files.newInputStream(png)).getWidth());
    }

    /**
     * With signing keys configured, inspect (and plot, sample) read the topic as a scorer does: a newer record the
     * keys do not verify (an unsigned forgery with a far higher version) is passed over, with a warning naming it;
     * without keys, the newest record is shown, as documented. Only forgeries: refused, exit 2.
     */
    @Test
    void shouldShowTheNewestSignedModelWhenSigningKeysAreConfigured(KafkaBroker broker) throws Exception {
        String topic = UniqueNames.of("inspect-signed");
        broker.createTopics(Map.of(topic, 1));
        String keys = "k1:0123456789abcdef-inspect";
        ModelSerde serde = new ModelSerde();
        byte[] genuine = serde.serializer().serialize(topic, Iris.model("iris", 2, Iris.rows()));
        byte[] forged = serde.serializer().serialize(topic, Iris.model("iris", 100, Iris.every(3, 0)));
        byte[] key = "iris".getBytes(StandardCharsets.UTF_8);
        try (KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            producer.send(new ProducerRecord<>(topic, null, key, genuine, ModelSigning.parse(keys).sign(genuine)))
                    .get();
            producer.send(new ProducerRecord<>(topic, key, forged)).get();
            producer.send(new ProducerRecord<>(topic, "only-forged".getBytes(StandardCharsets.UTF_8), forged)).get();
        }
        String[] cluster = {"--bootstrap-servers", broker.bootstrapServers(), "--set", "gda.topic.model=" + topic};
        Map<String, String> env = Map.of("GDA_MODEL_SIGNING_KEY", keys);

        Outcome signed = run(env, concat(new String[] {"inspect", "--model-id", "iris"}, cluster));
        assertEquals(ExitCodes.OK, signed.code(), signed.err());
        assertTrue(signed.out().contains("version:     2"), signed.out());
        assertEquals("warning: 1 newer record of model 'iris' failed the signature check and was passed over, as a"
                + " scorer passes them over (the newest, at " + topic + "-0 offset 1: unsigned (no gda.model.signature"
                + " header) while signing keys are configured); this is version 2, the newest signed one",
                signed.err().strip());
        assertFalse(signed.err().contains("0123456789abcdef"), signed.err());

        Outcome unchecked = run(concat(new String[] {"inspect", "--model-id", "iris"}, cluster));
        assertTrue(unchecked.out().contains("version:     100"), "no keys: the newest record, as documented");

        Outcome none = run(env, concat(new String[] {"inspect", "--model-id", "only-forged"}, cluster));
        assertEquals(ExitCodes.USAGE, none.code(), none.err());
        assertTrue(none.err().contains("no record of model 'only-forged' on topic '" + topic + "' passes the"
                + " signature check of the configured keys (3 records read; the newest, at " + topic + "-0 offset 2:"
                + " unsigned (no gda.model.signature header) while signing keys are configured)"), none.err());
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
