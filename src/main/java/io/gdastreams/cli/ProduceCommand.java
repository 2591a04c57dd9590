package io.gdastreams.cli;

import io.gdastreams.console.LineProducer;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.settings.AppConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gda-streams produce}: stdin lines to a topic, for clusters without Kafka's console scripts at hand. */
@Command(name = "produce", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Send each line of standard input to a topic as one record (the line as UTF-8 value; blank "
                + "lines are skipped), acknowledged by the broker (acks=all). With --key-separator the text "
                + "before its first occurrence is the key.",
                "For trying train and score without Kafka's kafka-console-producer.sh: paste or pipe labelled "
                        + "events (JSON lines) into the labelled topic."})
final class ProduceCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @ParentCommand
    private Main main;

    @Mixin
    private ConfigOptions configOptions;

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "An existing topic.")
    private String topic;

    @Option(names = "--key-separator", paramLabel = "SEP", description = "Split each line into key SEP value.")
    private String keySeparator;

    @Mixin
    private ClusterTimeout clusterTimeout;

    @Override
    public Integer call() {
        if (keySeparator != null && keySeparator.isEmpty()) {
            throw new UserError("--key-separator is empty");
        }
        Duration timeout = clusterTimeout.duration();
        AppConfig config = configOptions.load(main.environment());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        long sent;
        try {
            sent = LineProducer.run(in, topic, keySeparator, ConfigOptions.consoleBootstrapServers(config),
                    config.clientProperties(), timeout);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        spec.commandLine().getErr().println("Sent " + sent + (sent == 1 ? " record to " : " records to ") + topic);
        spec.commandLine().getErr().flush();
        return ExitCodes.OK;
    }
}
