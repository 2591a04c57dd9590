package io.gdastreams.cli;

import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.sample.ModelSource;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.view.ModelTable;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gda-streams inspect}: a model (file or model topic) as a table, or its record with --json. */
@Command(name = "inspect", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Print a model as a table: id, version and age, trainer, lineage (the next offset of each "
                + "labelled partition it absorbed), then per class its count, prior, mean and the condition "
                + "number of its covariance.",
                "The model is a file (--model, as replay --model-output writes it) or the newest record under "
                        + "the model id (--model-id, default gda.model.id) on the model topic of the cluster; "
                        + "both are read as strictly as a scorer reads the topic.",
                "--json prints the record's bytes instead (one model-topic value)."})
final class InspectCommand implements Callable<Integer> {

    static final Clock CLOCK = Clock.systemUTC();

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ModelOptions model;

    @Option(names = "--json", description = "Print the record as it is (JSON) instead of the table.")
    private boolean json;

    @Mixin
    private ConfigOptions configOptions;

    @Mixin
    private ClusterTimeout clusterTimeout;

    @Override
    public Integer call() {
        AppConfig config = configOptions.load(main.environment());
        ModelSource.ModelRecord record = read(config, model, clusterTimeout, spec.commandLine().getErr());
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(new String(record.bytes(), StandardCharsets.UTF_8).strip());
        } else {
            out.print(ModelTable.render(record.model(), CLOCK.instant(), config.fitOptions()));
        }
        out.flush();
        // Shown, for that is what one inspects it for, but refused as sample and plot refuse it.
        ModelTable.fitProblem(record.model(), config.fitOptions()).ifPresent(problem -> {
            throw new UserError("model '" + record.model().modelId() + "' version " + record.model().version()
                    + " cannot be scored: " + problem);
        });
        return ExitCodes.OK;
    }

    /**
     * The model of a command that takes {@code --model FILE} or {@code --model-id ID} (with the cluster from the
     * command's {@code config}, loaded once by the command): inspect and plot read it the same way as sample does.
     */
    static ModelSource.ModelRecord read(AppConfig config, ModelOptions model, ClusterTimeout timeout,
                                        PrintWriter err) {
        Duration wait = timeout.duration();
        model.validate();
        return model.read(model.file != null ? null : model.applyTo(config), wait, err);
    }
}
