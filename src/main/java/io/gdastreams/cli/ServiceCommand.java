package io.gdastreams.cli;

import io.gdastreams.service.ServiceRunner;
import io.gdastreams.settings.AppConfig;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.apache.kafka.streams.Topology;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A command that runs one production topology as a service against a cluster ({@code train}, {@code score}):
 * the configuration from the shared options, then {@link ServiceRunner} until Ctrl-C.
 */
abstract class ServiceCommand implements Callable<Integer> {

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions configOptions;

    private final String role;
    private final Function<AppConfig, Topology> topology;

    ServiceCommand(String role, Function<AppConfig, Topology> topology) {
        this.role = role;
        this.topology = topology;
    }

    @Override
    public Integer call() {
        AppConfig config = configOptions.load(main.environment());
        return ServiceRunner.run(role, () -> topology.apply(config), config,
                spec.commandLine().getOut());
    }
}
