package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.CarriedHeaders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * A production topology in an exactly-once TopologyTestDriver, fed raw bytes on its event topic. Outputs are read
 * as raw bytes so their size can be checked: an output the broker would refuse would stop the application.
 */
class HostileInputDriver implements AutoCloseable {

    final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> events;
    private final String deadLetterTopic;
    private long nextOffset;

    HostileInputDriver(String applicationId, Topology topology, Path stateDir, String eventTopic,
                       String deadLetterTopic) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        driver = new TopologyTestDriver(topology, props);
        events = driver.createInputTopic(eventTopic, SerdeFactory.rawBytes().serializer(),
                SerdeFactory.rawBytes().serializer());
        this.deadLetterTopic = deadLetterTopic;
    }

    /** Sends one event; returns its offset on the (single-partition) event topic. */
    long send(byte[] key, byte[] value) {
        events.pipeInput(key, value);
        return nextOffset++;
    }

    /** Sends one hostile record with its headers; returns its offset. */
    long send(HostileRecords.Hostile hostile) {
        events.pipeInput(new TestRecord<>(hostile.key(), hostile.value(), new RecordHeaders(hostile.headers()
                .toArray(new Header[0]))));
        return nextOffset++;
    }

    /** Records written to {@code topic} since the last read, each asserted to fit in a broker record. */
    <V> List<V> read(String topic, Deserializer<V> deserializer) {
        return driver.createOutputTopic(topic, SerdeFactory.rawBytes().deserializer(),
                        SerdeFactory.rawBytes().deserializer())
                .readRecordsToList().stream().map(r -> deserializer.deserialize(topic, fits(r))).toList();
    }

    List<DeadLetter> deadLetters() {
        return read(deadLetterTopic, SerdeFactory.deadLetter().deserializer());
    }

    private static byte[] fits(TestRecord<byte[], byte[]> record) {
        int size = (record.key() == null ? 0 : record.key().length) + record.value().length;
        // What the headers take on the wire, at least (a varint length of name and value each, 1 byte or more),
        // counted here as the broker would, independently of CarriedHeaders. An event's headers go to its outputs
        // only when small (README, "Headers"): the bound, not the broker's limit, is checked, because an output a
        // little larger than its event is refused only near that limit.
        long headers = 0;
        for (Header header : record.headers()) {
            headers += 2 + header.key().getBytes(StandardCharsets.UTF_8).length
                    + (header.value() == null ? 0 : header.value().length);
        }
        assertTrue(headers <= CarriedHeaders.MAX_BYTES, "output with " + headers + " bytes of headers");
        size += headers;
        assertTrue(size < HostileRecords.BROKER_DEFAULT_MAX_BYTES, "output of " + size + " bytes exceeds the limit");
        return record.value();
    }

    @Override
    public void close() {
        driver.close();
    }
}
