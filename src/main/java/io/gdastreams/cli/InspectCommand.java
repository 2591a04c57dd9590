package io.gdastreams.cli;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.sample.ModelSource;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.view.ModelTable;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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

    @Option(names = "--model", paramLabel = "FILE", description = "The model as JSON (one model-topic record).")
    private Path modelFile;

    @Option(names = "--model-id", paramLabel = "ID",
            description = "Read this model from the model topic (default: gda.model.id when --model is not given).")
    private String modelId;

    @Option(names = "--json", description = "Print the record as it is (JSON) instead of the table.")
    private boolean json;

    @Mixin
    private ConfigOptions configOptions;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Wait this long for the cluster (default: ${DEFAULT-VALUE}).")
    private long timeoutSeconds;

    @Override
    public Integer call() {
        ModelSource.ModelRecord record = read(configOptions, main, modelFile, modelId, timeoutSeconds);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(new String(record.bytes(), StandardCharsets.UTF_8).strip());
        } else {
            out.print(ModelTable.render(record.model(), CLOCK.instant()));
        }
        out.flush();
        return ExitCodes.OK;
    }

    /**
     * The model of a command that takes {@code --model FILE} or {@code --model-id ID} (with the cluster from the
     * configuration): inspect and plot read it the same way as sample does.
     */
    static ModelSource.ModelRecord read(ConfigOptions configOptions, Main main, Path modelFile, String modelId,
                                        long timeoutSeconds) {
        if (timeoutSeconds < 1) {
            throw new UserError("--timeout must be at least 1 second");
        }
        if (modelFile != null && modelId != null) {
            throw new UserError("--model and --model-id exclude each other: a file, or a model of the topic");
        }
        if (modelId != null && modelId.isBlank()) {
            throw new UserError("--model-id is empty");
        }
        if (modelFile != null) {
            return ModelSource.readFileRecord(modelFile);
        }
        AppConfig config = configOptions.load(main.environment());
        if (modelId != null) {
            config = config.with(ConfigKey.MODEL_ID, modelId, "--model-id");
        }
        if (config.kafkaProperties().getProperty("bootstrap.servers", "").isBlank()) {
            throw new UserError("no model: give --model FILE, or --bootstrap-servers to read model '"
                    + config.modelId() + "' from the topic " + config.topics().model());
        }
        return ModelSource.readTopicRecord(config.topics().modelRecords(), config.modelId(),
                config.bootstrapServers(), config.clientProperties(), Duration.ofSeconds(timeoutSeconds));
    }
}
