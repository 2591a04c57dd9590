package io.gdastreams.reliability;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.common.TopicPartition;

/**
 * What an operator does when the trainer says a transaction is hanging and names the abort (docs/RELIABILITY.md, "A
 * restore that does not finish"): runs it. (One whose training input was provably never committed the trainer aborts
 * by itself; its message names no command then.) Kafka 4.3.1 now and then leaves a transaction open on a changelog
 * after a broker outage that its coordinator has completed without it (seen in fault runs and once in CI); nothing
 * of Kafka's ends it. The fault tests act on the product's own diagnosis, so that they check it names the right
 * transaction (it is aborted only when the broker has it open where the message says) and that the abort loses
 * nothing (the model must still hold exactly what was sent).
 */
final class HangingTransactionOperator {

    private static final Pattern ABORT = Pattern.compile("It is hanging: .*?abort --topic (\\S+) --partition (\\d+)"
            + " --start-offset (\\d+)`");

    /** How often the logs are read while the test waits (they grow to megabytes in long plans). */
    private static final long EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final Admin admin;
    private final Set<String> done = new LinkedHashSet<>();
    private long lastLook = System.nanoTime() - EVERY_NANOS;

    HangingTransactionOperator(Admin admin) {
        this.admin = admin;
    }

    /** Aborts each hanging transaction named in {@code logs} that was not aborted yet (at most every 5 s). */
    void act(Supplier<Collection<String>> logs) {
        if (System.nanoTime() - lastLook < EVERY_NANOS) {
            return;
        }
        lastLook = System.nanoTime();
        for (String log : logs.get()) {
            Matcher named = ABORT.matcher(log);
            while (named.find()) {
                String key = named.group(1) + "-" + named.group(2) + "@" + named.group(3);
                if (done.contains(key)) {
                    continue;
                }
                TopicPartition partition = new TopicPartition(named.group(1), Integer.parseInt(named.group(2)));
                long start = Long.parseLong(named.group(3));
                try {
                    List<ProducerState> open = admin.describeProducers(List.of(partition)).partitionResult(partition)
                            .get(15, TimeUnit.SECONDS).activeProducers().stream()
                            .filter(p -> p.currentTransactionStartOffset().orElse(-1) == start).toList();
                    for (ProducerState holder : open) {
                        admin.abortTransaction(new AbortTransactionSpec(partition, holder.producerId(),
                                (short) holder.producerEpoch(), holder.coordinatorEpoch().orElse(0)))
                                .all().get(15, TimeUnit.SECONDS);
                        System.out.println("FaultInjectionIT: aborted the hanging transaction the trainer named on "
                                + partition + " at offset " + start + " (producer " + holder.producerId() + ", epoch "
                                + holder.producerEpoch() + ")");
                    }
                    done.add(key);
                } catch (Exception e) {
                    System.out.println("FaultInjectionIT: could not abort the transaction on " + partition + " at "
                            + start + " yet: " + e);
                }
            }
        }
    }

    /** The transactions aborted so far, as "partition@offset". */
    List<String> aborted() {
        return new ArrayList<>(done);
    }
}
