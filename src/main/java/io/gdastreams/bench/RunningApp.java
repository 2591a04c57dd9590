package io.gdastreams.bench;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;

/**
 * A Kafka Streams application under measurement: started on construction, and {@link #runningAt()} is the wall
 * clock time it first reached RUNNING (all tasks assigned and restored), where a stage's clock starts.
 * A failed stream thread stops the application and the stage.
 */
final class RunningApp implements AutoCloseable {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);

    private final Stage stage;
    private final String applicationId;
    private final KafkaStreams streams;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch running = new CountDownLatch(1);
    private final long startedAt;
    private volatile long runningAt;

    RunningApp(Stage stage, Topology topology, Properties properties, Duration startTimeout) {
        this.stage = stage;
        this.applicationId = properties.getProperty(StreamsConfig.APPLICATION_ID_CONFIG);
        this.streams = new KafkaStreams(topology, properties);
        streams.setUncaughtExceptionHandler(e -> {
            failure.compareAndSet(null, e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.setStateListener((newState, oldState) -> {
            if (newState == KafkaStreams.State.RUNNING && running.getCount() > 0) {
                runningAt = System.currentTimeMillis();
                running.countDown();
            }
        });
        startedAt = System.currentTimeMillis();
        streams.start();
        try {
            while (!running.await(100, TimeUnit.MILLISECONDS)) {
                checkHealthy();
                if (System.currentTimeMillis() - startedAt > startTimeout.toMillis()) {
                    throw new IllegalStateException(stage.label() + ": not RUNNING after "
                            + startTimeout.toSeconds() + " s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + stage.label(), e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    Stage stage() {
        return stage;
    }

    String applicationId() {
        return applicationId;
    }

    long runningAt() {
        return runningAt;
    }

    double startupSeconds() {
        return (runningAt - startedAt) / 1000.0;
    }

    void checkHealthy() {
        KafkaStreams.State state = streams.state();
        if (failure.get() != null || state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING
                || state == KafkaStreams.State.PENDING_ERROR) {
            throw new IllegalStateException(stage.label() + " application stopped (" + state + ")"
                    + (failure.get() == null ? "" : ": " + failure.get()), failure.get());
        }
    }

    @Override
    public void close() {
        streams.close(CLOSE_TIMEOUT);
    }
}
