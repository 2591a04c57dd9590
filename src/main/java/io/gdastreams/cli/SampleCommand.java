package io.gdastreams.cli;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.FileProblem;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.sample.EventFormat;
import io.gdastreams.sample.EventSampler;
import io.gdastreams.sample.EventWriter;
import io.gdastreams.sample.TopicLoad;
import io.gdastreams.settings.AppConfig;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gda-streams sample}: labelled events drawn from a model, to a file, stdout or a topic. */
@Command(name = "sample", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Draw labelled events from a model: a class y ~ π (or --class), then x ~ N(μ_y, Σ_y) with "
                + "the covariance the fit options give (full, tied or diag; estimator, shrinkage and floor as a "
                + "scorer would apply them), through a Cholesky factor; each categorical feature of the model from "
                + "its class's table, smoothed with gda.categorical.alpha as a scorer would.",
                "The model is a file (--model, as replay --model-output writes it) or the newest record under "
                        + "the model id (--model-id, default gda.model.id) on the model topic of the cluster.",
                "The same seed, model and options give byte-identical output; without --seed one is chosen "
                        + "and printed on stderr.",
                "Writes CSV (the numeric features, the categorical ones, then label or --label-column) or JSON "
                        + "lines to --output or stdout, or, with --to-topic, produces labelled events at --rate "
                        + "per second."})
final class SampleCommand implements Callable<Integer> {

    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(5);
    private static final double DEFAULT_RATE = 1000;
    private static final long STDOUT_CHECK_INTERVAL = 10_000;

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ModelOptions model;

    @Option(names = "--count", required = true, paramLabel = "N",
            description = "Events to draw, 1 to 100,000,000.")
    private long count;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the draws (default: a random one, printed).")
    private Long seed;

    @Option(names = "--class", paramLabel = "LABEL", description = "Draw every event from this class.")
    private String classLabel;

    @Option(names = "--output", paramLabel = "FILE", description = "Write the events here (default: stdout).")
    private Path output;

    @Option(names = "--format", paramLabel = "csv|jsonl",
            description = "csv (default): the features, then label; jsonl: one labelled event per line.")
    private String format;

    @Option(names = "--label-column", paramLabel = "NAME",
            description = "CSV: the class column's name (default: label), e.g. the --label of a replay file.")
    private String labelColumn;

    @Option(names = "--to-topic", paramLabel = "TOPIC",
            description = "Produce the events to this existing topic as labelled events instead.")
    private String toTopic;

    @Option(names = "--rate", paramLabel = "R",
            description = "With --to-topic: events per second, 0.01 to 1,000,000 (default: 1000).")
    private Double rate;

    @Option(names = "--covariance", paramLabel = "full|tied|diag",
            description = "Draw with full (QDA), tied (LDA) or diag (naive Bayes) covariances; default from "
                    + "gda.covariance.")
    private String covariance;

    @Option(names = "--estimator", paramLabel = "mle|unbiased",
            description = "Covariance divisors: mle or unbiased; default from gda.estimator.")
    private String estimator;

    @Mixin
    private ConfigOptions configOptions;

    @Mixin
    private ClusterTimeout clusterTimeout;

    @Override
    public Integer call() {
        validate();
        EventFormat eventFormat = format == null ? EventFormat.CSV : EventFormat.parse(format);
        AppConfig config = config();
        Duration timeout = clusterTimeout.duration();
        model.requireSource(config);
        // Before anything is read: a topic to write needs a cluster, and must exist.
        TopicLoad load = toTopic == null ? null : TopicLoad.to(new TopicLoad.Request(config.bootstrapServers(),
                config.clientProperties(), config.topics().labelled().named(toTopic), count,
                rate == null ? DEFAULT_RATE : rate, PROGRESS_INTERVAL, timeout));
        ModelParameters model = this.model.read(config, timeout, spec.commandLine().getErr()).model();
        EventSampler sampler = EventSampler.of(model, config.fitOptions(),
                config.doubleValue(ConfigKey.CATEGORICAL_ALPHA), classLabel);
        if (load == null) {
            EventWriter.check(eventFormat, sampler, labelColumn()); // before a file is created
        }
        PrintWriter err = spec.commandLine().getErr();
        long runSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong();
        describe(sampler, config, runSeed, err);
        RandomGenerator random = EventSampler.random(runSeed);
        if (load != null) {
            TopicLoad.Summary summary = load.run(sampler, random, err);
            err.printf(Locale.ROOT, "Sent %,d events to %s in %.1f s (%,.1f/s), seed %d%n", summary.sent(), toTopic,
                    summary.elapsed().toMillis() / 1000.0, summary.rate(), runSeed);
        } else if (output != null) {
            try (BufferedWriter file = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                write(sampler, random, eventFormat, file);
            } catch (IOException | UncheckedIOException e) {
                throw new UserError("cannot write " + output + ": " + FileProblem.reason(e));
            }
            err.printf(Locale.ROOT, "Wrote %,d events to %s%n", count, output);
        } else {
            PrintWriter out = spec.commandLine().getOut();
            write(sampler, random, eventFormat, out);
            out.flush();
            if (out.checkError()) {
                throw new RunFailure("cannot write to stdout");
            }
        }
        err.flush();
        return ExitCodes.OK;
    }

    private void write(EventSampler sampler, RandomGenerator random, EventFormat eventFormat, Writer out) {
        EventWriter writer = new EventWriter(out, eventFormat, sampler.features(), sampler.categoricalFeatures(),
                labelColumn());
        for (long i = 0; i < count; i++) {
            writer.write(sampler.next(random));
            // A PrintWriter (stdout) swallows write errors: a closed pipe (sample ... | head) would otherwise draw
            // every remaining event into the void.
            if (i % STDOUT_CHECK_INTERVAL == 0 && out instanceof PrintWriter printer && printer.checkError()) {
                // PrintWriter keeps no reason: a closed pipe and a full device look alike.
                throw new RunFailure("cannot write to stdout (closed, or its device is full) after " + (i + 1)
                        + " events");
            }
        }
    }

    /** Every option on its own and together, before anything is read or connected. */
    private void validate() {
        if (count < 1 || count > EventSampler.MAX_COUNT) {
            throw new UserError("--count must be between 1 and " + EventSampler.MAX_COUNT + ", got " + count);
        }
        clusterTimeout.duration(); // checked with the other options, before anything is read
        model.validate();
        if (classLabel != null && classLabel.isBlank()) {
            throw new UserError("--class is empty");
        }
        if (labelColumn != null && (labelColumn.isBlank() || toTopic != null
                || format != null && EventFormat.parse(format) != EventFormat.CSV)) {
            throw new UserError(labelColumn.isBlank() ? "--label-column is empty" : "--label-column names the CSV"
                    + " column of the class; labelled events in JSON carry it as \"label\"");
        }
        if (toTopic == null) {
            if (rate != null) {
                throw new UserError("--rate paces --to-topic; a file or stdout is written as fast as it goes");
            }
            return;
        }
        if (toTopic.isBlank()) {
            throw new UserError("--to-topic is empty");
        }
        if (output != null || format != null) {
            throw new UserError("--to-topic sends labelled-event JSON to the topic; it excludes --output and "
                    + "--format");
        }
        if (rate != null && !(rate >= TopicLoad.MIN_RATE && rate <= TopicLoad.MAX_RATE)) {
            throw new UserError("--rate must be between " + TopicLoad.MIN_RATE + " and "
                    + String.format(Locale.ROOT, "%,.0f", TopicLoad.MAX_RATE) + " events per second, got " + rate);
        }
    }

    private String labelColumn() {
        return labelColumn == null ? EventWriter.LABEL_COLUMN : labelColumn;
    }

    /** Defaults < file < environment < --set < --covariance, --estimator < --bootstrap-servers < --model-id. */
    private AppConfig config() {
        return model.applyTo(configOptions.load(main.environment(), ConfigOptions.fitOptions(covariance, estimator)));
    }

    /** One line on stderr: what is drawn from and the seed; one more when the fit leaves classes out. */
    private void describe(EventSampler sampler, AppConfig config, long runSeed, PrintWriter err) {
        String categorical = sampler.categoricalFeatures().isEmpty() ? ""
                : String.format(Locale.ROOT, " and %d categorical (alpha %s)", sampler.categoricalFeatures().size(),
                        config.doubleValue(ConfigKey.CATEGORICAL_ALPHA));
        err.printf(Locale.ROOT, "Sampling %,d event%s from %s (%d classes, %d features%s; %s), seed %d%s%n", count,
                count == 1 ? "" : "s",
                EventSampler.describe(sampler.model()), sampler.labels().size(), sampler.features().size(),
                categorical, EventSampler.describeOptions(config.fitOptions()), runSeed,
                seed == null ? " (chosen; --seed " + runSeed + " repeats this sample)" : "");
        if (!sampler.excluded().isEmpty()) {
            err.println("  never drawn, left out by the fit: " + EventSampler.exclusions(sampler.excluded()));
        }
        err.flush();
    }
}
