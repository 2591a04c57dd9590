package io.gdastreams.cli;

import io.gdastreams.broker.EmbeddedBroker.BrokerException;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.ShutdownSequence;
import io.gdastreams.lifecycle.UserError;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Entry point of the runnable jar: {@code demo}, {@code train}, {@code score}, {@code replay}, {@code sample}, then the
 * {@link CommandPlugin}s found on the class path ({@code bench}), then {@code help}. docs/ARCHITECTURE.md follows an
 * event from here through the packages, and says where a new command goes.
 */
@Command(name = "gda-streams", mixinStandardHelpOptions = true, version = "gda-streams 0.1.0",
        description = "Streaming online Gaussian classifier (QDA / LDA / naive Bayes) on Kafka Streams.",
        subcommands = {DemoCommand.class, TrainCommand.class, ScoreCommand.class, ReplayCommand.class,
                SampleCommand.class, InspectCommand.class, PlotCommand.class, BrokerCommand.class, ProduceCommand.class,
                ConsumeCommand.class, ResetCommand.class})
public final class Main implements Runnable {

    /** The commands, as documented in the README (tests walk them). */
    static final List<String> COMMANDS = List.of("demo", "train", "score", "replay", "sample", "inspect", "plot",
            "broker", "produce", "consume", "reset", "bench");

    private static final Set<String> BATCH_COMMANDS = Set.of("demo", "replay", "sample", "inspect", "plot", "produce",
            "consume", "bench");
    private static final Map<String, String> BATCH_LOG_LEVELS = Map.of(
            "org.slf4j.simpleLogger.log.org.apache.kafka", "error",
            "org.slf4j.simpleLogger.log.io.gdastreams.topology", "warn");

    @Spec
    private CommandSpec spec;

    private final Map<String, String> environment;

    public Main(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /** The process environment as the commands see it (injected so that tests can set it). */
    Map<String, String> environment() {
        return environment;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing command: " + String.join(", ", COMMANDS));
    }

    public static void main(String[] args) {
        if (args.length > 0 && BATCH_COMMANDS.contains(args[0])) {
            quietBatchLogging();
        }
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(args, System.getenv(), out, err));
    }

    /**
     * demo, replay and sample are batch runs whose output is the report (or the sample): Kafka's client warnings (a
     * topic not created yet, a broker still starting) and the topologies' per-version info lines are noise there.
     * Long-running train/score keep them (as configured in simplelogger.properties). Must run before the first logger
     * exists: slf4j-simple reads its levels once. A level given with -D on the command line wins.
     */
    private static void quietBatchLogging() {
        for (Map.Entry<String, String> level : BATCH_LOG_LEVELS.entrySet()) {
            if (System.getProperty(level.getKey()) == null) {
                System.setProperty(level.getKey(), level.getValue());
            }
        }
    }

    /** Parses and runs one command line; returns the exit code (see {@link ExitCodes}). */
    public static int run(String[] args, Map<String, String> environment, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new Main(environment));
        // Before the settings below: picocli hands them to the subcommands present when they are set.
        ServiceLoader.load(CommandPlugin.class, Main.class.getClassLoader()).forEach(commandLine::addSubcommand);
        // Last, as before the plugins were loaded: the usage lists the commands in the order they were added.
        commandLine.addSubcommand(new CommandLine.HelpCommand());
        commandLine.setOut(out);
        commandLine.setErr(err);
        ConfigKeyHelp.addTo(commandLine);
        HelpLayout.applyTo(commandLine);
        commandLine.setParameterExceptionHandler(Main::onBadArguments);
        commandLine.setExecutionExceptionHandler((e, failed, parseResult) -> onFailure(e, failed));
        return commandLine.execute(args);
    }

    private static int onBadArguments(ParameterException e, String[] args) {
        CommandLine failed = e.getCommandLine();
        String command = failed.getCommandSpec().qualifiedName();
        failed.getErr().println(command + ": " + BadArguments.describe(e) + " (see '" + command + " --help')");
        failed.getErr().flush();
        return ExitCodes.USAGE;
    }

    private static int onFailure(Exception e, CommandLine failed) {
        PrintWriter err = failed.getErr();
        String command = failed.getCommandSpec().qualifiedName();
        int code;
        // Not looked up while the JVM stops: a SIGTERM during a failing command once ended in a NoClassDefFoundError
        // for KafkaClientSettings, loaded here for the first time (seen once, not reproduced).
        Optional<String> refusedClient = ShutdownSequence.jvmStopping() ? Optional.empty()
                : KafkaClientSettings.refusal(e);
        if (ShutdownSequence.jvmStopping()) {
            // Ctrl-C or SIGTERM: the hooks stopped the topologies under the command ("training stopped
            // (PENDING_SHUTDOWN)" is their doing); the JVM exits 128 + the signal.
            err.println(command + ": stopped by a signal");
            code = ExitCodes.FAILURE;
        } else if (e instanceof UserError) {
            err.println(command + ": " + e.getMessage());
            code = ExitCodes.USAGE;
        } else if (refusedClient.isPresent()) {
            // Before RunFailure: a command that wraps the refusal ("cannot read the model topic …") keeps its cause.
            err.println(command + ": " + refusedClient.get());
            code = ExitCodes.USAGE;
        } else if (e instanceof BrokerException || e instanceof RunFailure) {
            err.println(command + ": " + e.getMessage());
            code = ExitCodes.FAILURE;
        } else {
            // Not the user's fault: show everything.
            err.println(command + ": unexpected error: " + e);
            e.printStackTrace(err);
            code = ExitCodes.FAILURE;
        }
        err.flush();
        return code;
    }
}
