package io.gdastreams.cli;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.sample.ModelSource;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.ModelSigning;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --model FILE | --model-id ID}: where a command that reads one model ({@code inspect}, {@code plot},
 * {@code sample}) takes it from — a file, or the newest record of the model id on the model topic of the configured
 * cluster. One declaration and one set of checks for the three.
 */
final class ModelOptions {

    @Option(names = "--model", paramLabel = "FILE", description = "The model as JSON (one model-topic record).")
    Path file;

    @Option(names = "--model-id", paramLabel = "ID",
            description = "Read this model from the model topic (default: gda.model.id when --model is not given).")
    String id;

    /** Exit 2 when both are given or the id is empty. */
    void validate() {
        if (file != null && id != null) {
            throw new UserError("--model and --model-id exclude each other: a file, or a model of the topic");
        }
        if (id != null && id.isBlank()) {
            throw new UserError("--model-id is empty");
        }
    }

    /** {@code config} with {@code --model-id} as gda.model.id, when given. */
    AppConfig applyTo(AppConfig config) {
        return id == null ? config : config.with(ConfigKey.MODEL_ID, id, "--model-id");
    }

    /** Exit 2 when neither a file nor a cluster to read the model from is given. */
    void requireSource(AppConfig config) {
        if (file == null && config.kafkaProperties().getProperty("bootstrap.servers", "").isBlank()) {
            throw new UserError("no model: give --model FILE, or --bootstrap-servers to read model '"
                    + config.modelId() + "' from the topic " + config.topics().model());
        }
    }

    /**
     * The model record: the file, or the topic's newest record of the configured id (after {@link #applyTo}) that
     * the configured signing keys verify, if any are configured; newer records they refused are named on {@code err}.
     */
    ModelSource.ModelRecord read(AppConfig config, Duration timeout, PrintWriter err) {
        if (file != null) {
            return ModelSource.readFileRecord(file);
        }
        requireSource(config);
        ModelSource.ModelRecord record = ModelSource.readTopicRecord(config.topics().modelRecords(),
                config.modelId(), config.bootstrapServers(), config.clientProperties(), timeout,
                ModelSigning.parse(config.signingKeys()));
        record.passedOver().ifPresent(note -> {
            err.println("warning: " + note);
            err.flush();
        });
        return record;
    }
}
