package io.gdastreams.replay;

import io.gdastreams.config.Role;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.ShutdownSequence;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.replay.ReplayDataset.ScoringRow;
import io.gdastreams.replay.ReplayDataset.TrainingRow;
import io.gdastreams.service.StreamsApp;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topic;
import io.gdastreams.topology.TrainingTopology;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.streams.Topology;

/**
 * Pushes a data set through the live topologies: every training row as a labelled event, waits until the
 * published model has absorbed every row that was not rejected (model totalCount + dead letters of the labelled
 * topic = rows sent; no sleeping), then starts the scorer (whose global model store is restored before it
 * processes anything, so every row is scored by the final model), sends every scoring row and collects exactly
 * one prediction per row, matched by id.
 */
public final class Replay {

    /** How often a progress line is printed while waiting (only when something changed). */
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);
    /** The hint of a model that scores no class for too few rows per class. */
    private static final String FEW_ROWS = " (gda.min.count is the fewest training rows a class needs to be scored:"
            + " train on more rows per class, or lower it with --set gda.min.count=N)";

    /** A training row the training topology refused: its CSV line and the dead letter's reason. */
    public record RejectedRow(int line, String reason) {
    }

    /** What a replay produced: predictions in the order of the scoring rows. */
    /** @param metrics the trainer's prequential records (JSON, in topic order per partition); empty without */
    public record Result(ModelParameters model, List<Prediction> predictions, List<RejectedRow> rejected,
                  Duration trainingTime, Duration scoringTime, List<String> metrics) {

        public Result(ModelParameters model, List<Prediction> predictions, List<RejectedRow> rejected,
                      Duration trainingTime, Duration scoringTime) {
            this(model, predictions, rejected, trainingTime, scoringTime, List.of());
        }
    }

    /**
     * @param streamsProperties Kafka Streams properties for an application role
     * @param clientProperties  extra client settings (security) for the replay's own producer and consumer
     * @param stallTimeout      give up when nothing progresses for this long
     * @param resources         where the running applications are registered, so that Ctrl-C stops them first
     * @param bar               the progress bar on a terminal (replaces the periodic status lines while it is drawn)
     * @param batch             training rows sent before waiting until the published model absorbed them; 0: all
     *                          at once
     */
    record Options(String bootstrapServers, AppConfig config,
                   Function<Role, Properties> streamsProperties, Properties clientProperties,
                   Duration stallTimeout, PrintWriter progress, ShutdownSequence resources, ProgressBar bar,
                   int batch) {
    }

    private final Options options;
    /** Set for the duration of {@link #run}. */
    private PendingReset resets;

    Replay(Options options) {
        this.options = options;
    }

    Result run(ReplayDataset data, Supplier<Topology> training, Supplier<Topology> scoring) {
        var topics = options.config().topics();
        boolean prequential = options.config().booleanValue(io.gdastreams.config.ConfigKey.PREQUENTIAL);
        try (ReplayWatcher watcher = new ReplayWatcher(options.bootstrapServers(), options.clientProperties(),
                topics, options.config().modelId(), prequential);
             KafkaProducer<byte[], byte[]> producer = producer(topics.labelled());
             PendingReset resets = new PendingReset(options.bootstrapServers(), options.clientProperties(),
                     options.streamsProperties().apply(Role.TRAINING).getProperty("application.id"),
                     topics.labelled().name())) {
            this.resets = resets;
            long trainingStart = System.nanoTime();
            ModelParameters model;
            List<RejectedRow> rejected;
            StreamsApp trainer = options.resources().register(new StreamsApp(Role.TRAINING.toString(), training.get(),
                    options.streamsProperties().apply(Role.TRAINING)));
            try {
                trainer.start();
                SentRows sent = new SentRows();
                List<TrainingRow> rows = data.training();
                int batch = options.batch() > 0 ? options.batch() : rows.size();
                model = null;
                // In batches, each waits for the published model to absorb it: the trainer's test-then-train scores
                // then use a model at most one batch behind (replay sends faster than a model is published).
                for (int from = 0; from < rows.size(); from += batch) {
                    int to = Math.min(rows.size(), from + batch);
                    sent.add(sendTraining(producer, rows.subList(from, to), topics.labelled()));
                    model = awaitModel(watcher, trainer, to, sent);
                }
                rejected = rejectedRows(watcher.labelledDeadLetters(), sent.lineBySource());
                // Windows closed by the absorbed rows were committed with them, before the model that absorbed them.
                List<String> metrics = prequential ? watcher.drainMetrics() : List.of();
                Duration trainingTime = Duration.ofNanos(System.nanoTime() - trainingStart);
                if (data.scoring().isEmpty()) {
                    return new Result(model, List.of(), rejected, trainingTime, Duration.ZERO, metrics);
                }
                checkScorable(model, data.scoring().size());
                long scoringStart = System.nanoTime();
                StreamsApp scorer = options.resources().register(new StreamsApp(Role.SCORING.toString(), scoring.get(),
                        options.streamsProperties().apply(Role.SCORING)));
                try {
                    scorer.start();
                    sendScoring(producer, data.scoring(), topics.unlabelled());
                    List<Prediction> predictions = awaitPredictions(watcher, List.of(trainer, scorer),
                            data.scoring(), model);
                    return new Result(model, predictions, rejected, trainingTime,
                            Duration.ofNanos(System.nanoTime() - scoringStart), metrics);
                } finally {
                    options.resources().close(scorer);
                }
            } finally {
                options.resources().close(trainer);
            }
        }
    }

    /** One producer for both event topics, which are declared alike (raw key and value). */
    private KafkaProducer<byte[], byte[]> producer(Topic<byte[], byte[]> events) {
        Properties properties = new Properties();
        properties.putAll(options.clientProperties());
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        return new KafkaProducer<>(properties, events.keySerializer(), events.valueSerializer());
    }

    /** Sends every training row; returns "partition:offset" → CSV line, to name rejected rows by line. */
    private Map<String, Integer> sendTraining(KafkaProducer<byte[], byte[]> producer, List<TrainingRow> rows,
                                              Topic<byte[], byte[]> topic) {
        List<Future<RecordMetadata>> sent = new ArrayList<>(rows.size());
        for (TrainingRow row : rows) {
            // A row's time (--time) is its record timestamp: the event time of forgetting and prequential windows.
            sent.add(producer.send(new ProducerRecord<>(topic.name(), null, row.timestamp(), utf8(row.key()),
                    row.value())));
        }
        producer.flush();
        Map<String, Integer> lineBySource = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            RecordMetadata metadata = await(sent.get(i), "sending training row on line " + rows.get(i).line());
            lineBySource.put(metadata.partition() + ":" + metadata.offset(), rows.get(i).line());
        }
        if (options.batch() == 0) {
            options.progress().printf("  training: %d rows sent to %s%n", rows.size(), topic);
        }
        return lineBySource;
    }

    private void sendScoring(KafkaProducer<byte[], byte[]> producer, List<ScoringRow> rows,
                             Topic<byte[], byte[]> topic) {
        List<Future<RecordMetadata>> sent = new ArrayList<>(rows.size());
        for (ScoringRow row : rows) {
            sent.add(producer.send(new ProducerRecord<>(topic.name(), utf8(row.id()), row.value())));
        }
        producer.flush();
        for (int i = 0; i < rows.size(); i++) {
            await(sent.get(i), "sending scoring row on line " + rows.get(i).line());
        }
        options.progress().printf("  scoring:  %d rows sent to %s%n", rows.size(), topic);
    }

    /** A row's key as the event topics carry it: its UTF-8 bytes (null stays null). */
    private static byte[] utf8(String key) {
        return key == null ? null : key.getBytes(StandardCharsets.UTF_8);
    }

    /** The model that absorbed (or rejected) the {@code rowsSent} rows and whose lineage reaches them all. */
    private ModelParameters awaitModel(ReplayWatcher watcher, StreamsApp trainer, int rowsSent, SentRows sent) {
        Progress progress = new Progress(() -> trainingDiagnosis(trainer, rowsSent) + "; this replay read the model"
                + " topic up to offset " + watcher.modelTopicPosition());
        while (true) {
            trainer.checkHealthy();
            watcher.poll();
            ModelParameters model = watcher.model();
            long absorbed = model == null ? 0 : model.eventsAbsorbed(); // resets and retractions lower totalCount
            long rejected = watcher.labelledDeadLetters().size();
            String status = String.format("  training: model %s has absorbed %d of %d rows, %d rejected",
                    model == null ? "(none yet)" : "v" + model.version(), absorbed, rowsSent, rejected);
            options.bar().show("training", absorbed + rejected, rowsSent);
            if (absorbed + rejected == rowsSent && (model == null || sent.reachedBy(model))) {
                options.bar().clear();
                if (model == null) {
                    throw new RunFailure("every training row was rejected; no model (first reason: "
                            + watcher.labelledDeadLetters().get(0).reason() + ")");
                }
                if (options.batch() == 0) {
                    options.progress().println(status);
                }
                return model;
            }
            if (absorbed + rejected > rowsSent) {
                options.bar().clear();
                throw new RunFailure("the topics hold more than this replay sent (" + status.trim()
                        + "); use fresh topics");
            }
            if (model != null && PendingReset.pendingGeneration(watcher.resetAlarmed(), model) > 0
                    && resets.committedRows() == rowsSent) {
                // The reset model waits for more rows of the new regime (PendingReset): this batch is applied.
                options.bar().clear();
                options.progress().printf("  training: reset generation %d pending (not every class has"
                        + " gda.min.count yet); model v%d stays in force%n", watcher.resetAlarmed(), model.version());
                return model;
            }
            progress.update(status);
        }
    }

    /**
     * Fails when the scorer could answer none of the {@code rows} scoring rows with {@code model}: it holds events
     * until a model can score them (and refuses one that does not compile), so the replay would wait for ever.
     */
    private void checkScorable(ModelParameters model, int rows) {
        Optional<String> unscorable;
        try {
            unscorable = ScoringTopology.unscorable(options.config().scoringSettings(), model);
        } catch (IllegalArgumentException e) {
            throw new RunFailure("the trained model (version " + model.version() + ") cannot score: "
                    + e.getMessage(), e);
        }
        if (unscorable.isPresent()) {
            throw new RunFailure("the trained model cannot score the " + rows + " scoring rows: " + unscorable.get()
                    + (unscorable.get().contains("below minimum") ? FEW_ROWS : ""));
        }
    }

    private List<Prediction> awaitPredictions(ReplayWatcher watcher, List<StreamsApp> apps, List<ScoringRow> rows,
                                              ModelParameters model) {
        Progress progress = new Progress(() -> "");
        while (true) {
            for (StreamsApp app : apps) {
                app.checkHealthy();
            }
            watcher.poll();
            if (!watcher.duplicateIds().isEmpty()) {
                throw new RunFailure("more than one prediction for id '" + watcher.duplicateIds().get(0) + "'");
            }
            Map<String, Prediction> byId = watcher.predictionsById();
            long received = rows.stream().filter(r -> byId.containsKey(r.id())).count();
            String status = String.format("  scoring:  %d of %d predictions received", received, rows.size());
            options.bar().show("scoring", received, rows.size());
            if (received == rows.size()) {
                options.bar().clear();
                options.progress().println(status);
                List<Prediction> inOrder = new ArrayList<>(rows.size());
                for (ScoringRow row : rows) {
                    Prediction prediction = byId.get(row.id());
                    if (prediction.modelVersion() != null && prediction.modelVersion() < model.version()) {
                        throw new RunFailure("row on line " + row.line() + " was scored with model version "
                                + prediction.modelVersion() + ", older than the final version " + model.version());
                    }
                    inOrder.add(prediction);
                }
                return inOrder;
            }
            progress.update(status);
        }
    }

    private static List<RejectedRow> rejectedRows(List<DeadLetter> letters, Map<String, Integer> lineBySource) {
        List<RejectedRow> rows = new ArrayList<>();
        for (DeadLetter letter : letters) {
            Integer line = lineBySource.get(letter.partition() + ":" + letter.offset());
            rows.add(new RejectedRow(line == null ? -1 : line, letter.reason()));
        }
        rows.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return rows;
    }

    private static RecordMetadata await(Future<RecordMetadata> future, String what) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new RunFailure(what + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while " + what);
        }
    }

    /** Where the rows of a stalled training wait got to ({@link StallDiagnosis}). */
    private String trainingDiagnosis(StreamsApp trainer, int rowsSent) {
        var topics = options.config().topics();
        Map<String, String> read = new LinkedHashMap<>();
        read.put(TrainingTopology.partials(trainer.applicationId()).name(), "partials");
        read.put(topics.model().name(), "model topic");
        if (options.config().booleanValue(io.gdastreams.config.ConfigKey.PREQUENTIAL)) {
            read.put(topics.metrics().name(), "metrics topic");
        }
        return StallDiagnosis.of(trainer, resets.committedRows(), rowsSent, read, options.bootstrapServers(),
                options.clientProperties());
    }

    /**
     * Prints a status line at most every few seconds when it changed; fails when nothing changes for too long, with
     * the status and what {@code diagnosis} says then (empty: nothing more).
     */
    private final class Progress {
        private final Supplier<String> diagnosis;
        private String last = "";
        private long lastChange = System.nanoTime();
        private long lastPrint = System.nanoTime();

        Progress(Supplier<String> diagnosis) {
            this.diagnosis = diagnosis;
        }

        void update(String status) {
            long now = System.nanoTime();
            if (!status.equals(last)) {
                last = status;
                lastChange = now;
                if (now - lastPrint >= PROGRESS_EVERY.toNanos() && !options.bar().drawing()) {
                    options.progress().println(status);
                    lastPrint = now;
                }
            } else if (now - lastChange > options.stallTimeout().toNanos()) {
                options.bar().clear();
                String more = diagnosis.get();
                throw new RunFailure("no progress for " + options.stallTimeout().toSeconds() + " s ("
                        + status.trim() + ")" + (more.isEmpty() ? "" : "; " + more));
            }
        }
    }
}
