package io.gdastreams.sample;

import io.gdastreams.lifecycle.FileProblem;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.ModelSerde;
import io.gdastreams.topology.ModelSigning;
import io.gdastreams.topology.Topic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Where {@code sample} gets its model: a file (what {@code replay --model-output} writes, one record of the model
 * topic) or the newest record under the model id on the model topic. Either is read as strictly as a scorer reads
 * the topic ({@link ModelSerde#read}); a missing, deleted or invalid model is a user error naming the reason.
 */
public final class ModelSource {

    private ModelSource() {
    }

    /** Keys are configured and none of them verifies a record of the model: not "no model", a refusal. */
    public static final class NoVerifiedRecord extends UserError {
        NoVerifiedRecord(String message) {
            super(message);
        }
    }

    /**
     * A model with the bytes it was read from (one model-topic record's value), for {@code inspect --json}, and what
     * was passed over to get it: newer records of the model id that failed the signature check (empty: none).
     */
    public record ModelRecord(ModelParameters model, byte[] bytes, Optional<String> passedOver) {

        public ModelRecord(ModelParameters model, byte[] bytes) {
            this(model, bytes, Optional.empty());
        }
    }

    /** The model in {@code file}. */
    public static ModelParameters readFile(Path file) {
        return readFileRecord(file).model();
    }

    /** {@link #readFile}, with the file's bytes. */
    public static ModelRecord readFileRecord(Path file) {
        String problem = FileProblem.unreadable(file);
        if (problem != null) {
            throw new UserError("cannot read " + file + " (" + problem + ")");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UserError("cannot read " + file + ": " + FileProblem.reason(e));
        }
        try {
            return new ModelRecord(ModelSerde.read(bytes), bytes);
        } catch (IllegalArgumentException e) {
            throw new UserError(file + " is not a valid model: " + e.getMessage());
        }
    }

    /**
     * The newest committed record under {@code modelId} on {@code topic} (read from the beginning to the end offsets
     * as of the call, read_committed, without a consumer group), as a model. {@code client}: the connection keys
     * (security, SASL, SSL). No answer from the cluster within {@code timeout} is a run failure.
     */
    public static ModelParameters readTopic(Topic<String, byte[]> topic, String modelId, String bootstrapServers,
                                            Properties client, Duration timeout) {
        return readTopicRecord(topic, modelId, bootstrapServers, client, timeout, ModelSigning.NONE).model();
    }

    /**
     * {@link #readTopic}, with the record's value as it is on the topic. With signing keys in {@code signing}, only
     * records they verify count, as for a scorer: the newest signed one is returned, with a note of the newer ones
     * passed over.
     */
    public static ModelRecord readTopicRecord(Topic<String, byte[]> topic, String modelId, String bootstrapServers,
                                              Properties client, Duration timeout, ModelSigning signing) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ConsumerRecord<String, byte[]> newest = null;
        ConsumerRecord<String, byte[]> refused = null;
        String refusal = null;
        long refusedSinceNewest = 0;
        long read = 0;
        try (KafkaConsumer<String, byte[]> consumer = consumer(topic, bootstrapServers, client)) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic.name(), timeout);
            if (infos == null || infos.isEmpty()) {
                throw new UserError("no topic '" + topic.name() + "' on " + bootstrapServers
                        + " (the model topic, gda.topic.model)");
            }
            List<TopicPartition> partitions = new ArrayList<>();
            infos.forEach(info -> partitions.add(new TopicPartition(topic.name(), info.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
            while (!atEnd(consumer, ends)) {
                if (System.nanoTime() > deadline) {
                    throw new RunFailure("reading the model topic '" + topic.name() + "' did not finish within "
                            + timeout.toSeconds() + " s (" + read + " records read)");
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    read++;
                    // The model topic has one partition; should a foreign writer have spread a key over several,
                    // the newest is the latest written.
                    if (!modelId.equals(r.key()) || (newest != null && r.partition() != newest.partition()
                            && r.timestamp() < newest.timestamp())) {
                        continue;
                    }
                    String why = r.value() == null ? null : signing.refusal(r.value(), r.headers());
                    if (why == null) {
                        newest = r;
                        refusedSinceNewest = 0;
                    } else {
                        refused = r;
                        refusal = why;
                        refusedSinceNewest++;
                    }
                }
            }
        } catch (TimeoutException e) {
            throw new RunFailure("no answer from the cluster at " + bootstrapServers + " within "
                    + timeout.toSeconds() + " s: " + e.getMessage(), e);
        } catch (KafkaException e) {
            throw new RunFailure("cannot read the model topic '" + topic.name() + "' on " + bootstrapServers + ": "
                    + e.getMessage(), e);
        }
        if (newest == null && refused != null) {
            throw new NoVerifiedRecord("no record of model '" + modelId + "' on topic '" + topic.name()
                    + "' passes the signature check of the configured keys (" + read + " records read; the newest,"
                    + " at " + where(refused) + ": " + refusal + ")");
        }
        ModelRecord record = model(newest, modelId, topic, read);
        if (refusedSinceNewest == 0) {
            return record;
        }
        return new ModelRecord(record.model(), record.bytes(), Optional.of(refusedSinceNewest + " newer record"
                + (refusedSinceNewest == 1 ? " of model '" + modelId + "' failed the signature check and was"
                : "s of model '" + modelId + "' failed the signature check and were") + " passed over, as a"
                + " scorer passes them over (the newest, at " + where(refused) + ": "
                + refusal + "); this is version " + record.model().version() + ", the newest signed one"));
    }

    private static String where(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + " offset " + record.offset();
    }

    private static ModelRecord model(ConsumerRecord<String, byte[]> newest, String modelId,
                                         Topic<String, byte[]> topic, long read) {
        if (newest == null) {
            throw new UserError("no model '" + modelId + "' on topic '" + topic.name() + "' (" + read
                    + " records read, none under that key)");
        }
        String where = "the newest record of model '" + modelId + "' on " + topic.name() + "-" + newest.partition()
                + " at offset " + newest.offset();
        if (newest.value() == null) {
            throw new UserError(where + " is a tombstone: the model was deleted");
        }
        ModelParameters model;
        try {
            model = ModelSerde.read(newest.value());
        } catch (IllegalArgumentException e) {
            throw new UserError(where + " is not a valid model: " + e.getMessage());
        }
        if (!modelId.equals(model.modelId())) {
            throw new UserError(where + " carries model id '" + model.modelId() + "'");
        }
        return new ModelRecord(model, newest.value());
    }

    private static boolean atEnd(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            if (consumer.position(end.getKey()) < end.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static KafkaConsumer<String, byte[]> consumer(Topic<String, byte[]> topic, String bootstrapServers,
                                                          Properties client) {
        Properties properties = new Properties();
        properties.putAll(client);
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        // The trainer publishes in transactions: only committed models count.
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // Looking for the topic must not create it.
        properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "gda-streams-model-reader");
        return new KafkaConsumer<>(properties, topic.keyDeserializer(), topic.valueDeserializer());
    }
}
