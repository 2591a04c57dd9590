package io.gdastreams.cli;

import io.gdastreams.broker.EmbeddedBroker;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gda-streams broker}: the embedded single-node KRaft broker, in the foreground until Ctrl-C. */
@Command(name = "broker", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a single-node Apache Kafka broker (KRaft, broker and controller in one JVM, "
                + "127.0.0.1 only, replication factor 1) in the foreground until Ctrl-C or SIGTERM, so that "
                + "train, score and a producer can be tried on one machine without Docker or a Kafka "
                + "installation.",
                "With --data-dir its topics, records and committed offsets are kept there and found again by the "
                        + "next start on the same directory; without it they live in a temporary directory "
                        + "deleted on exit.",
                "Needs gda-streams.jar (the slim service jar has no broker)."})
final class BrokerCommand implements Callable<Integer> {

    private static final Duration WATCH_INTERVAL = Duration.ofMillis(500);

    @Spec
    private CommandSpec spec;

    /** Where {@code broker} listens unless told otherwise, and where produce and consume look unless told. */
    static final String DEFAULT_PORT = "9092";

    @Option(names = "--port", paramLabel = "PORT", defaultValue = DEFAULT_PORT,
            description = "The port clients connect to on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Keep the broker's data (and its log, broker.log) here across restarts.")
    private Path dataDir;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "90",
            description = "Wait this long for the broker to start (default: ${DEFAULT-VALUE}).")
    private long timeoutSeconds;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 1 || port > 65_535) {
            throw new UserError("--port must be between 1 and 65535, got " + port);
        }
        Duration timeout = ClusterTimeout.of(timeoutSeconds);
        PrintWriter out = spec.commandLine().getOut();
        EmbeddedBroker.requireAvailable();
        out.println("Starting a Kafka broker (KRaft, single node, 127.0.0.1 only)...");
        out.flush();
        EmbeddedBroker broker = EmbeddedBroker.startAt(port, dataDir, timeout);
        out.println("Kafka broker ready at " + broker.bootstrapServers());
        out.println("  data and log (broker.log): " + broker.directory()
                + (broker.keepsData() ? " (kept: start again with the same --data-dir to find it)"
                : " (deleted on exit; --data-dir keeps it)"));
        out.println("  try: gda-streams train --bootstrap-servers " + broker.bootstrapServers()
                + " (see the README's three-terminal walkthrough)");
        out.println("Ctrl-C stops it.");
        out.flush();
        // Ctrl-C / SIGTERM: the broker's shutdown hook stops the child JVM cleanly (and deletes a temporary
        // directory); this thread only notices a broker that died by itself.
        while (broker.isAlive()) {
            Thread.sleep(WATCH_INTERVAL.toMillis());
        }
        broker.close();
        throw new RunFailure("the broker stopped by itself; see " + broker.logFile());
    }
}
