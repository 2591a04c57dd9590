package io.gdastreams.bench;

import io.gdastreams.service.StreamsApp;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.Topology;

/**
 * A Kafka Streams application under measurement: started on construction, and {@link #runningAt()} is the wall
 * clock time it first reached RUNNING (all tasks assigned and restored), where a stage's clock starts.
 * A failed stream thread stops the application and the stage. The lifecycle is the services' own
 * {@link StreamsApp}.
 */
final class RunningApp implements AppUnderTest {

    /** A stage's application may have a large transaction to abort or commit. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);

    private final Stage stage;
    private final StreamsApp app;
    private final long startedAt;
    /** CPU seconds of the application's threads when it reached RUNNING: startup is not part of the measure. */
    private double cpuAtRunning;
    private double jitAtRunning;

    RunningApp(Stage stage, Topology topology, Properties properties, Duration startTimeout) {
        this.stage = stage;
        this.app = new StreamsApp(stage.label(), topology, properties, CLOSE_TIMEOUT);
        startedAt = System.currentTimeMillis();
        app.start();
        try {
            app.awaitRunning(startTimeout);
            cpuAtRunning = ThreadCpu.seconds(app.applicationId());
            jitAtRunning = JitTime.seconds();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public Stage stage() {
        return stage;
    }

    @Override
    public String applicationId() {
        return app.applicationId();
    }

    @Override
    public long runningAt() {
        return app.runningAt();
    }

    @Override
    public double startupSeconds() {
        return (app.runningAt() - startedAt) / 1000.0;
    }

    @Override
    public double threadCpuSeconds() {
        return ThreadCpu.seconds(applicationId()) - cpuAtRunning;
    }

    @Override
    public double jitSeconds() {
        return JitTime.seconds() - jitAtRunning;
    }

    @Override
    public void checkHealthy() {
        app.checkHealthy();
    }

    @Override
    public void close() {
        app.close();
    }
}
