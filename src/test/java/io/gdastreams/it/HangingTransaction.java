package io.gdastreams.it;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Leaves a hanging transaction on a partition of a real broker: records of a transaction whose coordinator does not
 * know the partition, so that no commit or abort marker ever reaches it (what Kafka 4.3.1 was seen to leave on
 * changelogs after a broker crash). Nothing but an abort ({@code kafka-transactions.sh abort}) ends it.
 *
 * <p>How: a transactional producer is initialised (the coordinator then holds its transactional id, Empty, with no
 * partition); its producer id and epoch then write a transactional batch with a produce request of version 11 (the
 * last before transaction version 2, whose produce requests make the broker add the partition to the transaction),
 * sent on a socket of its own, while the broker's {@code transaction.partition.verification.enable} is off: the
 * broker appends the batch without asking the coordinator. The setting is restored before this returns.
 */
public final class HangingTransaction {

    private static final String VERIFICATION = "transaction.partition.verification.enable";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** The producer that holds the transaction, and the offset of its first record. */
    public record Left(long producerId, short producerEpoch, String transactionalId, long startOffset) {
    }

    private HangingTransaction() {
    }

    /** Writes {@code records} (key, value) to {@code partition} in a transaction that hangs. */
    public static Left leave(TestBroker broker, TopicPartition partition, List<byte[][]> records) throws Exception {
        String transactionalId = UniqueNames.of("hanging");
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            TransactionDescription described = broker.admin().describeTransactions(List.of(transactionalId))
                    .description(transactionalId).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            long producerId = described.producerId();
            short epoch = (short) described.producerEpoch();
            setVerification(broker, false);
            try {
                long start = produce(broker.bootstrapServers(), transactionalId, partition, producerId, epoch,
                        records);
                return new Left(producerId, epoch, transactionalId, start);
            } finally {
                setVerification(broker, true);
            }
        }
    }

    private static long produce(String bootstrap, String transactionalId, TopicPartition partition, long producerId,
                                short epoch, List<byte[][]> records) throws Exception {
        SimpleRecord[] batch = records.stream().map(r -> new SimpleRecord(System.currentTimeMillis(), r[0], r[1]))
                .toArray(SimpleRecord[]::new);
        MemoryRecords memory = MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, epoch, 0, batch);
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(partition.topic()).setPartitionData(List.of(
                new ProduceRequestData.PartitionProduceData().setIndex(partition.partition()).setRecords(memory))));
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000)
                .setTransactionalId(transactionalId).setTopicData(topics);
        short version = ProduceRequest.LAST_STABLE_VERSION_BEFORE_TRANSACTION_V2;
        ProduceRequest request = new ProduceRequest.Builder(version, version, data).build(version);
        RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, version, "gda-it-hanging", 1);
        ByteBuffer bytes = request.serializeWithHeader(header);
        String first = bootstrap.split(",")[0];
        int colon = first.lastIndexOf(':');
        try (Socket socket = new Socket(first.substring(0, colon), Integer.parseInt(first.substring(colon + 1)))) {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.remaining());
            byte[] raw = new byte[bytes.remaining()];
            bytes.get(raw);
            out.write(raw);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] answer = in.readNBytes(in.readInt());
            ProduceResponse response = (ProduceResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(answer),
                    header);
            var result = response.data().responses().iterator().next().partitionResponses().get(0);
            if (result.errorCode() != Errors.NONE.code()) {
                throw new IllegalStateException("the broker refused the hanging batch: "
                        + Errors.forCode(result.errorCode()) + " " + result.errorMessage());
            }
            return result.baseOffset();
        }
    }

    /** Sets the broker's partition verification (cluster-wide default) and waits until the broker reports it. */
    private static void setVerification(TestBroker broker, boolean on) throws Exception {
        ConfigResource cluster = new ConfigResource(ConfigResource.Type.BROKER, "");
        AlterConfigOp op = on ? new AlterConfigOp(new ConfigEntry(VERIFICATION, ""), AlterConfigOp.OpType.DELETE)
                : new AlterConfigOp(new ConfigEntry(VERIFICATION, "false"), AlterConfigOp.OpType.SET);
        broker.admin().incrementalAlterConfigs(Map.of(cluster, List.of(op))).all()
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        String brokerId = String.valueOf(broker.admin().describeCluster().nodes()
                .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).iterator().next().id());
        ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, brokerId);
        Await.until("the broker's " + VERIFICATION + " is " + on, TIMEOUT, () -> reports(broker, node, on),
                () -> "");
    }

    private static boolean reports(TestBroker broker, ConfigResource node, boolean on) {
        try {
            return String.valueOf(on).equals(broker.admin().describeConfigs(List.of(node)).all()
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).get(node).get(VERIFICATION).value());
        } catch (Exception e) {
            return false;
        }
    }
}
