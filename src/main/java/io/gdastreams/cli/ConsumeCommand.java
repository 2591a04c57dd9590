package io.gdastreams.cli;

import io.gdastreams.console.TopicPrinter;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.settings.AppConfig;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gda-streams consume}: a topic's records as text lines, for clusters without Kafka's console scripts. */
@Command(name = "consume", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Print the records of a topic, one per line (the value as UTF-8 text, or key TAB value "
                + "with --print-key), as they arrive, until Ctrl-C, --max-records or --idle-seconds.",
                "Reads without a consumer group (nothing is committed) and only committed records "
                        + "(read_committed), from the end unless --from-beginning."})
final class ConsumeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @ParentCommand
    private Main main;

    @Mixin
    private ConfigOptions configOptions;

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "An existing topic.")
    private String topic;

    @Option(names = "--from-beginning", description = "Start at the first record instead of the end.")
    private boolean fromBeginning;

    @Option(names = "--print-key", description = "Print key TAB value.")
    private boolean printKey;

    @Option(names = "--max-records", paramLabel = "N", defaultValue = "0",
            description = "Stop after N records (0, the default: no limit).")
    private long maxRecords;

    @Option(names = "--idle-seconds", paramLabel = "S", description = "Stop when nothing arrived for S seconds.")
    private Long idleSeconds;

    @Mixin
    private ClusterTimeout clusterTimeout;

    @Override
    public Integer call() {
        if (maxRecords < 0) {
            throw new UserError("--max-records must be 0 (no limit) or more, got " + maxRecords);
        }
        if (idleSeconds != null && idleSeconds < 1) {
            throw new UserError("--idle-seconds must be at least 1");
        }
        Duration timeout = clusterTimeout.duration();
        AppConfig config = configOptions.load(main.environment());
        TopicPrinter.run(new TopicPrinter.Request(topic, fromBeginning, printKey, maxRecords,
                idleSeconds == null ? null : Duration.ofSeconds(idleSeconds),
                ConfigOptions.consoleBootstrapServers(config), config.clientProperties(), timeout),
                spec.commandLine().getOut());
        return ExitCodes.OK;
    }
}
