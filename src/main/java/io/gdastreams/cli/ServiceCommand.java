package io.gdastreams.cli;

import io.gdastreams.settings.AppConfig;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A command that runs one production topology as a service against a cluster ({@code train}, {@code score}):
 * the configuration from the shared options, then the operated service ({@link io.gdastreams.ops.OperatedService}:
 * the topology under {@link io.gdastreams.service.ServiceRunner}, with progress lines and the HTTP endpoint) until
 * Ctrl-C.
 */
abstract class ServiceCommand implements Callable<Integer> {

    /** Runs the service with a configuration, printing to {@code out}; returns the exit code. */
    @FunctionalInterface
    interface Service {
        int run(AppConfig config, PrintWriter out);
    }

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions configOptions;

    private final Service service;

    ServiceCommand(Service service) {
        this.service = service;
    }

    @Override
    public Integer call() {
        AppConfig config = configOptions.load(main.environment());
        return service.run(config, spec.commandLine().getOut());
    }
}
