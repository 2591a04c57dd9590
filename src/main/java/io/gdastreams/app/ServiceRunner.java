package io.gdastreams.app;

import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;

/**
 * Runs one topology as a long-lived service until Ctrl-C (SIGINT/SIGTERM): creates missing topics when
 * {@code gda.create.topics} is true, starts Kafka Streams with a thread-replacing exception handler and closes
 * it cleanly from a shutdown hook.
 */
final class ServiceRunner {

    private ServiceRunner() {
    }

    static int run(String role, Topology topology, AppConfig config, PrintWriter out) {
        String bootstrap = config.bootstrapServers();
        StartupWarnings.emit(config, role, out);
        if (config.createTopics()) {
            var adminProperties = config.kafkaProperties();
            adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            ConfiguredTopics.createMissing(config, adminProperties);
        }
        var properties = config.streamsProperties(role);
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        StreamsApp app = new StreamsApp(role, topology, properties, StreamsApp.OnThreadFailure.REPLACE_THREAD);
        Thread hook = new Thread(() -> {
            interrupted.set(true);
            out.println(role + ": stopping");
            out.flush();
            app.close();
            stopped.countDown();
        }, role + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        app.start();
        out.printf("%s: running as application %s against %s (model '%s'); Ctrl-C stops%n", role,
                StreamsApp.applicationId(properties), bootstrap, config.modelId());
        out.flush();
        try {
            while (!stopped.await(1, TimeUnit.SECONDS)) {
                KafkaStreams.State state = app.state();
                if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING) {
                    Runtime.getRuntime().removeShutdownHook(hook);
                    app.close();
                    Throwable cause = app.failure();
                    throw new RunFailure(role + " stopped (" + state + ")"
                            + (cause == null ? "" : ": " + StreamsApp.rootMessage(cause)), cause);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return interrupted.get() ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
