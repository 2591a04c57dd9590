package io.gdastreams.cli;

import io.gdastreams.ops.OperatedService;
import picocli.CommandLine.Command;

/** {@code gda-streams train}: the training topology as a service. */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = {"Run the training topology against a cluster until Ctrl-C: labelled events update per-class "
                + "statistics, and the merged model is published to the compacted model topic every "
                + "gda.publish.interval.ms."})
final class TrainCommand extends ServiceCommand {

    TrainCommand() {
        super(OperatedService::train);
    }
}
