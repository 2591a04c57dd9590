package io.gdastreams.cli;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.replay.CsvTable;
import io.gdastreams.replay.ReplayDataset;
import io.gdastreams.replay.ReplayDriver;
import io.gdastreams.service.LiveTopologies;
import io.gdastreams.settings.AppConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gda-streams replay}: a CSV training file and a CSV scoring file through the live topologies. */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Send every row of the training CSV as a labelled event through the training topology, "
                + "wait until the published model has absorbed all of them, then send every row of the scoring "
                + "CSV as an unlabelled event and collect one prediction per row.",
                "Uses an embedded single-node Kafka broker unless --bootstrap-servers is given (then the run "
                        + "creates its own topics, suffixed -replay-<random>).",
                "Empty cells: in the training file the row is malformed (it goes to the dead-letter topic and "
                        + "is reported with its line number); in the scoring file the feature is missing and is "
                        + "marginalised out."})
final class ReplayCommand implements Callable<Integer> {

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Option(names = "--train", required = true, paramLabel = "T.csv", description = "Training rows (with header).")
    private Path train;

    @Option(names = "--score", paramLabel = "S.csv",
            description = "Rows to score (with header); optional with --prequential.")
    private Path score;

    @Option(names = "--time", paramLabel = "COL",
            description = "Training column with each row's event time (epoch milliseconds): its record timestamp.")
    private String time;

    @Option(names = "--prequential", paramLabel = "metrics.jsonl",
            description = "Turn on test-then-train evaluation (gda.prequential), write the trainer's window and drift"
                    + " records as JSON lines and print a summary.")
    private Path prequential;

    @Option(names = "--label", required = true, paramLabel = "COL", description = "The class label column.")
    private String label;

    @Option(names = "--id", paramLabel = "COL",
            description = "Column with the row id (default: the 1-based row number of the scoring file).")
    private String id;

    @Option(names = "--features", split = ",", paramLabel = "COL",
            description = "Feature columns, in order (default: every column except label and id).")
    private List<String> features;

    @Option(names = "--covariance", paramLabel = "full|tied|diag",
            description = "Scorer: full (QDA), tied (LDA) or diag (naive Bayes); default from gda.covariance.")
    private String covariance;

    @Option(names = "--estimator", paramLabel = "mle|unbiased",
            description = "Scorer divisors: mle or unbiased; default from gda.estimator.")
    private String estimator;

    @Option(names = "--output", paramLabel = "predictions.jsonl",
            description = "Write one JSON prediction per scored row, in file order.")
    private Path output;

    @Option(names = "--model-output", paramLabel = "model.json", description = "Write the final model.")
    private Path modelOutput;

    @Mixin
    private ConfigOptions configOptions;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120",
            description = "Give up when nothing progresses for this long (default: ${DEFAULT-VALUE}).")
    private long timeoutSeconds;

    @Override
    public Integer call() {
        Duration timeout = ClusterTimeout.of(timeoutSeconds);
        AppConfig config = configOptions.load(main.environment(), ConfigOptions.fitOptions(covariance, estimator));
        if (score == null && prequential == null) {
            throw new UserError("--score is required (unless --prequential is given)");
        }
        if (score == null && output != null) {
            throw new UserError("--output writes the predictions of --score, and there is none");
        }
        CsvTable trainTable = CsvTable.read(train);
        CsvTable scoreTable = score == null ? null : CsvTable.read(score);
        ReplayDataset data = ReplayDataset.of(trainTable, scoreTable, label, id, features,
                config.names(ConfigKey.CATEGORICAL_FEATURES), time);
        ReplayDriver.run(new ReplayDriver.Request(data, config, configOptions.bootstrapServers, output,
                modelOutput, timeout, LiveTopologies.INSTANCE, prequential),
                spec.commandLine().getOut(), spec.commandLine().getErr());
        return ExitCodes.OK;
    }
}
