package io.gdastreams.cli;

import io.gdastreams.ops.OperatedService;
import picocli.CommandLine.Command;

/** {@code gda-streams score}: the scoring topology as a service. */
@Command(name = "score", mixinStandardHelpOptions = true,
        description = {"Run the scoring topology against a cluster until Ctrl-C: every unlabelled event gets one "
                + "prediction (or an unscored record with a reason) on the predictions topic."})
final class ScoreCommand extends ServiceCommand {

    ScoreCommand() {
        super(OperatedService::score);
    }
}
