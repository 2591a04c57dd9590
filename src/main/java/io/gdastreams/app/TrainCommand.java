package io.gdastreams.app;

import io.gdastreams.topology.TrainingTopology;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gda-streams train}: the training topology as a service. */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = {"Run the training topology against a cluster until Ctrl-C: labelled events update per-class "
                + "statistics, and the merged model is published to the compacted model topic every "
                + "gda.publish.interval.ms."})
final class TrainCommand implements Callable<Integer> {

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions configOptions;

    @Override
    public Integer call() {
        AppConfig config = configOptions.load(main.environment());
        return ServiceRunner.run("training", () -> TrainingTopology.build(config.trainingSettings()), config,
                spec.commandLine().getOut());
    }
}
