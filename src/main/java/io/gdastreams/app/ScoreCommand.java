package io.gdastreams.app;

import io.gdastreams.topology.ScoringTopology;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gda-streams score}: the scoring topology as a service. */
@Command(name = "score", mixinStandardHelpOptions = true,
        description = {"Run the scoring topology against a cluster until Ctrl-C: every unlabelled event gets one "
                + "prediction (or an unscored record with a reason) on the predictions topic."})
final class ScoreCommand implements Callable<Integer> {

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions configOptions;

    @Override
    public Integer call() {
        AppConfig config = configOptions.load(main.environment());
        return ServiceRunner.run("scoring", () -> ScoringTopology.build(config.scoringSettings()), config,
                spec.commandLine().getOut());
    }
}
