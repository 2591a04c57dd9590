package io.gdastreams.cli;

import io.gdastreams.broker.EmbeddedBroker;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.model.Prediction;
import io.gdastreams.replay.CsvTable;
import io.gdastreams.replay.Replay;
import io.gdastreams.replay.ReplayDataset;
import io.gdastreams.replay.ReplayDriver;
import io.gdastreams.service.LiveTopologies;
import io.gdastreams.settings.AppConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gda-streams demo}: {@code replay} of the bundled Iris data on an embedded broker, explained. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Start an embedded Kafka broker, stream Fisher's Iris data (150 rows, bundled) through the "
                + "training topology, then score the same rows with the published model (QDA) and print the "
                + "confusion matrix. Needs nothing but Java; takes well under a minute."})
final class DemoCommand implements Callable<Integer> {

    static final String IRIS = "/data/iris.csv";
    static final String DEMO_CONFIG = "/config/demo.properties";
    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(60);

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        EmbeddedBroker.requireAvailable(); // before the introduction that promises one
        AppConfig config = AppConfig.loadResource(DEMO_CONFIG, main.environment());
        CsvTable iris = readIris();
        ReplayDataset data = ReplayDataset.of(iris, iris, "species", null, null);
        out.println("gda-streams demo: an online Gaussian classifier on Kafka Streams, with Fisher's Iris data.");
        out.println("  1. A real Kafka broker starts in a child JVM; the topics are created ("
                + config.partitions() + " partitions per event topic, a compacted model topic).");
        out.println("  2. Each of the 150 rows goes to '" + config.topics().labelled() + "' as a labelled event. "
                + "The training topology keeps per-class running");
        out.println("     statistics (count, mean, scatter) per partition and publishes the merged model to '"
                + config.topics().model() + "' every " + config.publishInterval().toMillis() + " ms.");
        out.println("  3. Once the model has absorbed every row, the scoring topology starts; each row goes to '"
                + config.topics().unlabelled() + "'");
        out.println("     and comes back on '" + config.topics().predictions() + "' with class probabilities "
                + "(QDA: one full covariance per class).");
        out.println();
        out.flush();
        Replay.Result result = ReplayDriver.run(new ReplayDriver.Request(data, config, null, null, null,
                STALL_TIMEOUT, LiveTopologies.INSTANCE), out, spec.commandLine().getErr());
        out.println("Misclassified rows (row: true -> predicted, probability):");
        for (int i = 0; i < data.scoring().size(); i++) {
            Prediction p = result.predictions().get(i);
            String actual = data.scoring().get(i).trueLabel();
            if (p.status() == Prediction.Status.SCORED && !p.label().equals(actual)) {
                out.printf(Locale.ROOT, "  %3s: %s -> %s, p = %.3f%n", p.id(), actual, p.label(),
                        p.probabilities().get(p.label()));
            }
        }
        out.println("Try: gda-streams replay --train T.csv --score S.csv --label COL [--covariance tied|diag] "
                + "--output predictions.jsonl");
        out.flush();
        return ExitCodes.OK;
    }

    private static CsvTable readIris() {
        try (InputStream in = DemoCommand.class.getResourceAsStream(IRIS)) {
            if (in == null) {
                throw new IllegalStateException(IRIS + " is missing from the class path");
            }
            return CsvTable.read(in, "iris.csv");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the bundled " + IRIS, e);
        }
    }
}
