package io.gdastreams.replay;

import io.gdastreams.broker.EmbeddedBroker;
import io.gdastreams.config.ConfigKey;
import io.gdastreams.lifecycle.Directories;
import io.gdastreams.lifecycle.FileProblem;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.ShutdownSequence;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.AppliedEvents;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.PredictionWriter;
import io.gdastreams.service.ClusterProbe;
import io.gdastreams.service.ConfiguredTopics;
import io.gdastreams.service.StartupWarnings;
import io.gdastreams.service.TopologyFactory;
import io.gdastreams.settings.AppConfig;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Runs one replay end to end: the broker (embedded unless bootstrap servers are given), the topics, both
 * topologies, then writes the outputs and prints the report. Shared by {@code replay} and {@code demo}.
 */
public final class ReplayDriver {

    /**
     * Rejected training rows listed one per line in the report; a file of a million bad rows would otherwise print a
     * million lines. The count is always complete.
     */
    static final int MAX_LISTED_REJECTED_ROWS = 20;

    /**
     * @param bootstrapServers a cluster to use, or null for an embedded broker
     * @param output           predictions (JSON lines) file, or null
     * @param modelOutput      final model (JSON) file, or null
     */
    /** @param prequential the trainer's prequential records (JSON lines) file, or null (then gda.prequential as set) */
    public record Request(ReplayDataset data, AppConfig config, String bootstrapServers, Path output, Path modelOutput,
                   Duration stallTimeout, TopologyFactory topologies, Path prequential) {

        public Request(ReplayDataset data, AppConfig config, String bootstrapServers, Path output, Path modelOutput,
                       Duration stallTimeout, TopologyFactory topologies) {
            this(data, config, bootstrapServers, output, modelOutput, stallTimeout, topologies, null);
        }
    }

    /**
     * Training rows per batch with {@code --prequential}: each batch waits until the published model absorbed it, so
     * the trainer scores every row with a model at most this many rows behind.
     */
    static final int PREQUENTIAL_BATCH = 200;

    private ReplayDriver() {
    }

    /** As {@link #run(Request, PrintWriter, PrintWriter)} without a progress bar. */
    public static Replay.Result run(Request request, PrintWriter out) {
        return run(request, out, ProgressBar.off());
    }

    /**
     * Runs {@code request}, reporting on {@code out}; {@code err} gets a progress bar when this process runs on a
     * terminal and the run takes more than a couple of seconds ({@link ProgressBar}).
     */
    public static Replay.Result run(Request request, PrintWriter out, PrintWriter err) {
        return run(request, out, ProgressBar.onTerminal(err));
    }

    private static Replay.Result run(Request request, PrintWriter out, ProgressBar bar) {
        checkWritable(request.output());
        checkWritable(request.modelOutput());
        checkWritable(request.prequential());
        List<AppConfig.Setting> settings = new ArrayList<>(List.of(new AppConfig.Setting(ConfigKey.FEATURES,
                String.join(",", request.data().features()), "the replay's feature columns")));
        if (request.prequential() != null) {
            settings.add(new AppConfig.Setting(ConfigKey.PREQUENTIAL, "true", "--prequential"));
        }
        AppConfig config = request.config().with(settings);
        StartupWarnings.emit(config, "replay", out);
        try (ShutdownSequence resources = new ShutdownSequence()) {
            String bootstrap = request.bootstrapServers();
            if (bootstrap == null) {
                EmbeddedBroker.requireAvailable();
                out.println("Starting an embedded Kafka broker (KRaft, 127.0.0.1 only, data in a temporary"
                        + " directory)...");
                out.flush();
                EmbeddedBroker broker = EmbeddedBroker.start(EmbeddedBroker.DEFAULT_START_TIMEOUT)
                        .registerWith(resources);
                bootstrap = broker.bootstrapServers();
                out.println("  broker ready at " + bootstrap);
            } else {
                // Before a word about topics: an address nothing answers at ends within --timeout, and says so.
                ClusterProbe.awaitReachable(bootstrap, config.clientProperties(), request.stallTimeout(), "--timeout");
                config = isolated(config);
                out.println("Using the cluster at " + bootstrap + " with fresh topics "
                        + config.topics().labelled() + ", ... (this run's own)");
                out.println("  they stay; afterwards, gda-streams reset --bootstrap-servers " + bootstrap
                        + cleanUpSettings(config) + " --execute (with this run's --config, for its connection"
                        + " settings) removes this run's internal topics and consumer groups, and the cluster's own"
                        + " tools its topics *" + suffixOf(config));
            }
            Path stateDir = Files.createTempDirectory("gda-streams-state-");
            resources.register(() -> Directories.deleteQuietly(stateDir));
            Properties clientProperties = config.clientProperties();
            Map<String, String> eventTopicConfig = Map.of();
            if (request.data().training().stream().anyMatch(row -> row.timestamp() != null)) {
                // The rows' own event times (--time) may be older than the cluster's time-based retention, which
                // would delete them, unread, at its next check: the trainer would never absorb them.
                eventTopicConfig = Map.of(TopicConfig.RETENTION_MS_CONFIG, "-1");
                if (request.bootstrapServers() != null) {
                    out.println("  rows carry their own timestamps (--time): this run's topics keep their records"
                            + " (retention.ms=-1); delete them when done");
                }
            }
            createTopics(config, bootstrap, clientProperties, eventTopicConfig);
            String bootstrapServers = bootstrap;
            AppConfig runConfig = config;
            Replay.Options options = new Replay.Options(bootstrap, config, role -> {
                Properties properties = runConfig.streamsProperties(role);
                properties.put("bootstrap.servers", bootstrapServers);
                properties.put("state.dir", stateDir.resolve(role.toString()).toString());
                return properties;
            }, clientProperties, request.stallTimeout(), out, resources, bar,
                    request.prequential() == null ? 0 : PREQUENTIAL_BATCH);
            out.printf("Training on %d rows (model '%s', features %s%s)...%n", request.data().training().size(),
                    config.modelId(), String.join(", ", request.data().features()),
                    request.data().categorical().isEmpty() ? ""
                            : "; categorical " + String.join(", ", request.data().categorical()));
            out.flush();
            Replay.Result result = new Replay(options).run(request.data(),
                    () -> request.topologies().training(runConfig), () -> request.topologies().scoring(runConfig));
            report(result, request, config, out);
            write(result, request, out);
            return result;
        } catch (IOException e) {
            throw new RunFailure("cannot create a temporary state directory: " + e.getMessage(), e);
        }
    }

    /** Own topics and application ids for a run against a shared cluster, so earlier data cannot leak in. */
    private static AppConfig isolated(AppConfig config) {
        String suffix = "-replay-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        for (ConfigKey key : List.of(ConfigKey.TOPIC_LABELLED, ConfigKey.TOPIC_UNLABELLED, ConfigKey.TOPIC_MODEL,
                ConfigKey.TOPIC_PREDICTIONS, ConfigKey.TOPIC_DEAD_LETTERS, ConfigKey.TOPIC_METRICS,
                ConfigKey.APPLICATION_ID)) {
            config = config.with(key, config.raw(key) + suffix, "replay run suffix");
        }
        return config;
    }

    /** The --set options that point {@code reset} at a run's application id and topics. */
    static String cleanUpSettings(AppConfig config) {
        StringBuilder settings = new StringBuilder();
        for (ConfigKey key : List.of(ConfigKey.APPLICATION_ID, ConfigKey.TOPIC_LABELLED, ConfigKey.TOPIC_UNLABELLED,
                ConfigKey.TOPIC_MODEL)) {
            settings.append(" --set ").append(key.key()).append('=').append(config.raw(key));
        }
        return settings.toString();
    }

    /** The "-replay-<hex>" a run's names end with. */
    private static String suffixOf(AppConfig config) {
        String id = config.raw(ConfigKey.APPLICATION_ID);
        return id.substring(id.lastIndexOf("-replay-"));
    }

    private static void createTopics(AppConfig config, String bootstrap, Properties clientProperties,
                                     Map<String, String> eventTopicConfig) {
        Properties adminProperties = new Properties();
        adminProperties.putAll(clientProperties);
        adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        ConfiguredTopics.createMissing(config, adminProperties, eventTopicConfig);
    }

    private static void report(Replay.Result result, Request request, AppConfig config, PrintWriter out) {
        ModelParameters model = result.model();
        out.printf(Locale.ROOT, "Model '%s' version %d: %d events%s, classes %s (%.1f s)%n", model.modelId(),
                model.version(), model.totalCount(), AppliedEvents.beyondTheClasses(model),
                describeClasses(model.classes()), result.trainingTime().toMillis() / 1000.0);
        if (!result.rejected().isEmpty()) {
            out.printf("%d training row(s) rejected by the training topology (see the dead-letter topic):%n",
                    result.rejected().size());
            List<Replay.RejectedRow> listed = result.rejected().subList(0,
                    Math.min(result.rejected().size(), MAX_LISTED_REJECTED_ROWS));
            for (Replay.RejectedRow row : listed) {
                out.printf("  line %d: %s%n", row.line(), row.reason());
            }
            if (listed.size() < result.rejected().size()) {
                out.printf("  ... and %d more, not listed (the first %d are; every one is on the dead-letter topic)%n",
                        result.rejected().size() - listed.size(), MAX_LISTED_REJECTED_ROWS);
            }
        }
        if (request.prequential() != null) {
            reportPrequential(PrequentialSummary.of(result.metrics()), result.metrics().size(), out);
        }
        if (request.data().scoring().isEmpty()) {
            out.flush();
            return;
        }
        long unscored = result.predictions().stream().filter(p -> p.status() == Prediction.Status.UNSCORED).count();
        out.printf(Locale.ROOT, "Scored %d rows with %s covariance, %s estimator: %d predictions, %d unscored "
                + "(%.1f s)%n", result.predictions().size(), config.covariance().name().toLowerCase(Locale.ROOT),
                config.estimator().name().toLowerCase(Locale.ROOT), result.predictions().size() - unscored, unscored,
                result.scoringTime().toMillis() / 1000.0);
        UnscoredSummary.of(result.predictions(), request.data().scoring()).render().forEach(out::println);
        if (request.data().scoreHasLabels()) {
            ConfusionMatrix matrix = confusionMatrix(result, request.data());
            out.println("Confusion matrix (rows = predicted, columns = true):");
            matrix.render().forEach(line -> out.println("  " + line));
        }
        out.flush();
    }

    private static void reportPrequential(PrequentialSummary summary, int records, PrintWriter out) {
        out.printf(Locale.ROOT, "Prequential (test-then-train): %d records; %d events scored in closed windows,"
                + " accuracy %.4f; %d before any model%n", records, summary.scored(), summary.accuracy(),
                summary.noModel());
        if (summary.lastWindow() >= 0) {
            out.printf(Locale.ROOT, "  last closed window from %d: accuracy %.4f%n", summary.lastWindow(),
                    summary.lastAccuracy());
        }
        out.printf("  drift points: %d%n", summary.drifts().size());
        for (MetricsRecord.DriftAlarm drift : summary.drifts()) {
            out.printf("    event time %d (partition %d)%n", drift.eventTime(), drift.partition());
        }
    }

    static ConfusionMatrix confusionMatrix(Replay.Result result, ReplayDataset data) {
        ConfusionMatrix matrix = new ConfusionMatrix(result.model().classes().stream()
                .map(ClassParameters::label).toList());
        for (int i = 0; i < data.scoring().size(); i++) {
            String actual = data.scoring().get(i).trueLabel();
            if (actual != null) {
                Prediction prediction = result.predictions().get(i);
                matrix.add(prediction.status() == Prediction.Status.SCORED ? prediction.label() : null, actual);
            }
        }
        return matrix;
    }

    private static String describeClasses(List<ClassParameters> classes) {
        return String.join(", ", classes.stream().map(c -> c.label() + " (" + c.count() + ")").toList());
    }

    private static void write(Replay.Result result, Request request, PrintWriter out) {
        if (request.output() != null) {
            try (BufferedWriter file = Files.newBufferedWriter(request.output(), StandardCharsets.UTF_8)) {
                for (Prediction prediction : result.predictions()) {
                    file.write(new String(PredictionWriter.toBytes(prediction), StandardCharsets.UTF_8));
                    file.write('\n');
                }
            } catch (IOException e) {
                throw new UserError("cannot write " + request.output() + ": " + FileProblem.reason(e));
            }
            out.println("Wrote " + result.predictions().size() + " predictions to " + request.output());
        }
        if (request.modelOutput() != null) {
            try {
                Files.writeString(request.modelOutput(), Json.mapper().writerWithDefaultPrettyPrinter()
                        .writeValueAsString(result.model()) + "\n", StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UserError("cannot write " + request.modelOutput() + ": " + FileProblem.reason(e));
            }
            out.println("Wrote the model to " + request.modelOutput());
        }
        if (request.prequential() != null) {
            try (BufferedWriter file = Files.newBufferedWriter(request.prequential(), StandardCharsets.UTF_8)) {
                for (String record : result.metrics()) {
                    file.write(record);
                    file.write('\n');
                }
            } catch (IOException e) {
                throw new UserError("cannot write " + request.prequential() + ": " + FileProblem.reason(e));
            }
            out.println("Wrote " + result.metrics().size() + " prequential records to " + request.prequential());
        }
        out.flush();
    }

    /** Fail before the run, not after it, when an output cannot be written. */
    private static void checkWritable(Path file) {
        if (file == null) {
            return;
        }
        String why = FileProblem.unwritable(file);
        if (why != null) {
            throw new UserError("cannot write " + file + ": " + why);
        }
    }
}
