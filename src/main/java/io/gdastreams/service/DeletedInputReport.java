package io.gdastreams.service;

import io.gdastreams.config.Role;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.topology.DeadLetterCategory;
import io.gdastreams.topology.StreamObserver;
import io.gdastreams.topology.Topic;
import io.gdastreams.topology.Topics;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.errors.StreamsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accounts for input deleted before it was read: one dead letter per gap (written and acknowledged before the
 * stream thread goes on), a warning on the console and in the log, and {@code deadLettered(DELETED_UNREAD)}.
 * A letter that cannot be written stops the stream thread (the service starts Kafka Streams again, which finds the
 * gap again): going on would lose its account. A crash after the letter and before the next commit reports the gap
 * twice, under the same key ({@link DeletedInput#key}).
 */
final class DeletedInputReport implements Consumer<DeletedInput> {

    private static final Logger LOG = LoggerFactory.getLogger(DeletedInputReport.class);

    private final Role role;
    private final String input;
    private final Topic<byte[], DeadLetter> deadLetters;
    private final Properties client;
    private final Duration timeout;
    private final PrintWriter out;
    private final StreamObserver observer;

    DeletedInputReport(Role role, Topics topics, Properties client, Duration timeout, PrintWriter out,
                       StreamObserver observer) {
        this.role = role;
        this.input = RoleAccess.inputTopic(role, topics);
        this.deadLetters = topics.deadLetters();
        this.client = client;
        this.timeout = timeout;
        this.out = out;
        this.observer = observer;
    }

    @Override
    public void accept(DeletedInput gap) {
        // The role's input, or the trainer's internal partials topic (Kafka Streams purges it only below its
        // committed offsets: a gap there is a deletion by hand).
        boolean ofInput = gap.partition().topic().equals(input);
        KafkaProducer<byte[], DeadLetter> producer = new KafkaProducer<>(client, deadLetters.keySerializer(),
                deadLetters.valueSerializer());
        try {
            producer.send(new ProducerRecord<>(deadLetters.name(), gap.key().getBytes(StandardCharsets.UTF_8),
                    gap.letter(role, ofInput))).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new StreamsException(role + ": cannot dead-letter input deleted before it was read (" + gap.key()
                    + ", to " + deadLetters.name() + "): " + StreamsApp.rootMessage(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamsException(role + ": interrupted dead-lettering input deleted before it was read", e);
        } finally {
            // Not close(): it would wait for a request that went unanswered.
            producer.close(Duration.ZERO);
        }
        observer.deadLettered(DeadLetterCategory.DELETED_UNREAD);
        String warning = gap.sentence(role, ofInput) + ". Dead-lettered to " + deadLetters.name() + ".";
        LOG.warn("{}: {}", role, warning);
        synchronized (out) {
            out.println(role + ": WARNING: " + warning);
            out.flush();
        }
    }
}
