package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.lifecycle.ExitCodes;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import picocli.CommandLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's contract for user mistakes: exit code 2 and one line saying why, never a stack trace. */
class MainTest {

    @TempDir
    Path dir;

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, env, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    private static void assertOneLineUserError(Outcome outcome, String expectedFragment) {
        assertEquals(ExitCodes.USAGE, outcome.code(), outcome.err());
        assertEquals(1, outcome.err().strip().lines().count(), outcome.err());
        assertTrue(outcome.err().contains(expectedFragment), outcome.err());
        assertFalse(outcome.err().contains("\tat "), outcome.err());
    }

    /**
     * A Kafka client its settings refuse at construction (SASL without a JAAS configuration, a JAAS configuration
     * without its control flag) is a configuration mistake: one line with Kafka's reason, exit 2, no secret.
     */
    @Test
    void shouldSayWhyKafkaRefusesItsClientSettingsInOneLine() {
        Outcome noJaas = run(Map.of(), "inspect", "--bootstrap-servers", "127.0.0.1:1", "--model-id", "m", "--set",
                "security.protocol=SASL_PLAINTEXT", "--set", "sasl.mechanism=PLAIN");
        assertOneLineUserError(noJaas, "cannot make a Kafka client with these settings: ");
        assertTrue(noJaas.err().contains("'KafkaClient' entry in the JAAS configuration"), noJaas.err());

        Outcome noFlag = run(Map.of("KAFKA_STREAMS_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.plain"
                        + ".PlainLoginModule username=\"u\" password=\"hunter2-secret\";"), "inspect",
                "--bootstrap-servers", "127.0.0.1:1", "--model-id", "m", "--set", "security.protocol=SASL_PLAINTEXT",
                "--set", "sasl.mechanism=PLAIN");
        assertOneLineUserError(noFlag, "cannot make a Kafka client with these settings: ");
        assertFalse(noFlag.err().contains("hunter2"), noFlag.err());

        // A host nobody can resolve: the hint is about bootstrap.servers, not the security settings.
        Outcome unresolved = run(Map.of(), "inspect", "--bootstrap-servers", "no-such-host.invalid:9092",
                "--model-id", "m");
        assertOneLineUserError(unresolved, "(check the host names of bootstrap.servers and that this machine can"
                + " resolve them)");
        assertFalse(unresolved.err().contains("sasl"), unresolved.err());
    }

    @Test
    void shouldPrintHelpForEveryCommand() {
        for (String command : Main.COMMANDS) {
            Outcome outcome = run(Map.of(), command, "--help");
            assertEquals(ExitCodes.OK, outcome.code(), command);
            assertTrue(outcome.out().contains("Usage: gda-streams " + command), outcome.out());
        }
    }

    /**
     * The key list's heading says where the command takes the keys from: every command of it but bench reads the
     * config file and GDA_* variables too (the heading once said only train and score did), bench --set alone.
     */
    @Test
    void shouldSayInTheKeyListWhereEachCommandReadsTheKeys() {
        for (String command : ConfigKeyHelp.COMMANDS) {
            String help = run(Map.of(), command, "--help").out().replaceAll("\\s+", " ");
            String sources = command.equals("bench")
                    ? "(set them with --set KEY=VALUE; bench reads no config file and no environment):"
                    : "(set them with --set KEY=VALUE, in the --config file or as GDA_* variables):";
            String heading = help.substring(Math.max(0, help.indexOf("Application keys")));
            assertTrue(heading.startsWith("Application keys, at their defaults " + sources),
                    command + ": " + heading.substring(0, Math.min(heading.length(), 160)));
        }
        Outcome fromEnvironment = run(Map.of("GDA_MODEL_ID", "from-env"), "inspect");
        assertOneLineUserError(fromEnvironment, "to read model 'from-env' from the topic");
    }

    /**
     * Help lines break between words only (picocli alone breaks after a '.' inside a word: "gda.", "estimator"):
     * no line is wider than 80 characters unless it is one word, and the help is the unwrapped help (picocli at a
     * width nothing needs wrapping in) with only spaces turned into line breaks.
     */
    @Test
    void shouldWrapHelpBetweenWordsOnly() {
        CommandLine unwrapped = new CommandLine(new Main(Map.of()));
        ServiceLoader.load(CommandPlugin.class, Main.class.getClassLoader()).forEach(unwrapped::addSubcommand);
        ConfigKeyHelp.addTo(unwrapped);
        for (String command : Main.COMMANDS) {
            String help = run(Map.of(), command, "--help").out();
            for (String line : help.lines().toList()) {
                assertTrue(line.codePointCount(0, line.length()) <= HelpLayout.WIDTH || !line.strip().contains(" "),
                        command + ": " + line);
            }
            CommandLine sub = unwrapped.getSubcommands().get(command);
            sub.getCommandSpec().usageMessage().width(100_000);
            assertEquals(sub.getUsageMessage().replaceAll("\\s+", " ").strip(), help.replaceAll("\\s+", " ").strip(),
                    command);
        }
        String replay = run(Map.of(), "replay", "--help").out();
        assertTrue(replay.contains("gda.estimator.") && replay.contains("[--output=predictions.jsonl]"), replay);
        String usage = run(Map.of(), "--help").out();
        for (String command : Main.COMMANDS) {
            assertTrue(usage.lines().anyMatch(line -> line.startsWith("  " + command + " ")), command + ": " + usage);
        }
    }

    /** The list comes from the declaration, so a new key shows up in the help without a second edit. */
    @Test
    void shouldListEveryApplicationKeyWithItsDefaultInTheHelpOfEveryCommandThatTakesSet() {
        for (String command : ConfigKeyHelp.COMMANDS) {
            String help = run(Map.of(), command, "--help").out();
            assertTrue(help.contains("--set=KEY=VALUE"), command + ": " + help);
            assertTrue(help.lines().allMatch(line -> line.length() <= 80), command + ": " + help);
            for (ConfigKey key : ConfigKey.values()) {
                String setting = "  " + key.key() + "=" + key.defaultValue();
                assertTrue(help.lines().anyMatch(setting::equals), command + " --help lists " + setting + ": " + help);
            }
        }
        assertFalse(run(Map.of(), "demo", "--help").out().contains(ConfigKey.MODEL_ID.key()));
    }

    @Test
    void shouldRejectMissingCommand() {
        assertOneLineUserError(run(Map.of()), "missing command");
    }

    @Test
    void shouldRejectUnknownOptionInOneLine() {
        assertOneLineUserError(run(Map.of(), "score", "--no-such-option"), "score: unknown option '--no-such-option'"
                + " (see 'gda-streams score --help')");
    }

    /**
     * A misspelt command or option is named, with what it most likely meant, before what it caused: picocli said
     * "Unmatched arguments from index 0: 'trian', …" and, for replay --trian, "Missing required option:
     * '--train=T.csv'". A negative number left over is not taken for an option; a stray word after a command is
     * picocli's "Unmatched argument".
     */
    @Test
    void shouldNameAMisspeltCommandOrOptionWithTheNearestOne() {
        assertOneLineUserError(run(Map.of(), "trian", "--config", "x"), "gda-streams: unknown command 'trian'; did"
                + " you mean train? (commands: ");
        assertOneLineUserError(run(Map.of(), "replay", "--trian", "a.csv", "--label", "y"),
                "replay: unknown option '--trian'; did you mean --train?");
        assertOneLineUserError(run(Map.of(), "replay", "--train", "a.csv", "--label", "y", "--covarince=full"),
                "replay: unknown option '--covarince'; did you mean --covariance?");
        assertOneLineUserError(run(Map.of(), "sample", "--model", "m.json", "--count", "-5", "--sed", "1"),
                "sample: unknown option '--sed'; did you mean --seed?");
        assertOneLineUserError(run(Map.of(), "replay", "--label", "y"), "Missing required option: '--train=T.csv'");
        assertOneLineUserError(run(Map.of(), "replay", "--train", "a.csv", "--label", "y", "-5"),
                "Unmatched argument at index 5: '-5'");
        assertOneLineUserError(run(Map.of(), "replay", "seed", "--train", "a.csv", "--label", "y"),
                "Unmatched argument at index 1: 'seed'");
    }

    /**
     * A combination only the training settings refuse is a configuration error before anything touches the cluster:
     * no broker listens at port 9 (the discard port), so reaching for it first would end in exit 1 after the broker
     * timeout ("cannot reach the Kafka cluster"), and a reachable one would have had topics created (a docs audit
     * saw both).
     */
    @Test
    void shouldRefuseAResettingDriftActionWithoutTheDriftTestBeforeReachingTheCluster() {
        Outcome outcome = run(Map.of(), "train", "--set", "bootstrap.servers=127.0.0.1:9", "--set",
                "gda.drift.action=reset", "--set", "gda.broker.timeout.ms=5000");
        assertOneLineUserError(outcome, "gda.drift.action=reset (--set) needs the drift test: gda.prequential=true"
                + " and a gda.drift.lambda");
    }

    /**
     * replay against an address where nothing listens (port 9, the discard port) ends within its --timeout with the
     * reason, before it says anything about topics (it used to wait 60 s for Kafka's admin timeout, whatever
     * --timeout said, after announcing topics it never created).
     */
    @Test
    void shouldEndAReplayAgainstAnAddressNobodyAnswersWithinItsTimeout() throws Exception {
        Path csv = dir.resolve("rows.csv");
        Files.write(csv, List.of("x,label", "1,a", "2,a", "3,b", "4,b"), StandardCharsets.UTF_8);
        Outcome outcome = run(Map.of(), "replay", "--train", csv.toString(), "--score", csv.toString(), "--label",
                "label", "--bootstrap-servers", "127.0.0.1:9", "--timeout", "2");
        assertEquals(ExitCodes.FAILURE, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.err().contains("cannot reach the Kafka cluster at 127.0.0.1:9 within 2000 ms (--timeout)"),
                outcome.err());
        assertFalse(outcome.out().contains("fresh topics"), outcome.out());
    }

    /** broker --data-dir naming a file: a user error in one line that says so (was exit 1, "…: <the path>"). */
    @Test
    void shouldRefuseABrokerDataDirectoryThatIsAFile() throws Exception {
        Path file = Files.createFile(dir.resolve("a-file"));
        assertOneLineUserError(run(Map.of(), "broker", "--port", "19999", "--data-dir", file.toString()),
                "cannot create the data directory " + file + ": a file of that name exists");
    }

    @Test
    void shouldReportUnreadableConfigFileInOneLine() {
        Path missing = dir.resolve("missing.properties");
        assertOneLineUserError(run(Map.of(), "score", "--config", missing.toString()),
                "cannot read config file " + missing);
    }

    @Test
    void shouldReportUnknownApplicationKeyFromEnvironmentInOneLine() {
        assertOneLineUserError(run(Map.of("GDA_MODELID", "x"), "score"), "GDA_MODELID");
    }

    /**
     * Every command with a {@code --timeout} refuses one below a second in one line, before it reads a file, connects
     * or starts anything (the files named here do not exist), and shows the option in its help.
     */
    @Test
    void shouldRefuseATimeoutBelowOneSecondInEveryCommandThatWaits() {
        String missing = dir.resolve("missing").toString();
        String[][] commands = {
            {"inspect", "--model", missing},
            {"plot", "--model", missing, "--x", "a", "--y", "b", "--output", dir.resolve("p.png").toString()},
            {"sample", "--model", missing, "--count", "1"},
            {"produce", "--topic", "t"},
            {"consume", "--topic", "t"},
            {"broker"},
            {"reset"},
            {"replay", "--train", missing, "--score", missing, "--label", "label"},
        };
        for (String[] command : commands) {
            String[] args = java.util.Arrays.copyOf(command, command.length + 2);
            args[command.length] = "--timeout";
            args[command.length + 1] = "0";
            Outcome outcome = run(Map.of(), args);
            assertOneLineUserError(outcome, command[0] + ": --timeout must be at least 1 second");
            assertFalse(outcome.out().contains("broker ready"), outcome.out());
            assertTrue(run(Map.of(), command[0], "--help").out().contains("--timeout=SECONDS"), command[0]);
        }
    }

    /** Before: the replay started a broker, trained on nothing and died with an IndexOutOfBoundsException. */
    @Test
    void shouldRefuseAHeaderOnlyTrainingFileInOneLineWithoutStartingABroker() throws IOException {
        Path train = Files.writeString(dir.resolve("train.csv"), "a,b,label\n");
        Path score = Files.writeString(dir.resolve("score.csv"), "a,b,label\n1,2,x\n");
        Outcome outcome = run(Map.of(), "replay", "--train", train.toString(), "--score", score.toString(),
                "--label", "label");
        assertOneLineUserError(outcome, "replay: " + train + " has no data rows, only a header: nothing to train on");
        assertFalse(outcome.out().contains("broker"), outcome.out());
    }

    /** Before: the replay ran both topologies and printed "accuracy: 0/0 = NaN%". */
    @Test
    void shouldRefuseAHeaderOnlyScoringFileInOneLineWithoutStartingABroker() throws IOException {
        Path train = Files.writeString(dir.resolve("train.csv"), "a,b,label\n1,2,x\n");
        Path score = Files.writeString(dir.resolve("score.csv"), "a,b,label\n");
        Outcome outcome = run(Map.of(), "replay", "--train", train.toString(), "--score", score.toString(),
                "--label", "label");
        assertOneLineUserError(outcome, "replay: " + score + " has no data rows, only a header: nothing to score");
        assertFalse(outcome.out().contains("broker"), outcome.out());
    }

    /** Before: replay read only --config; its --set options were ignored, valid or not. */
    @Test
    void shouldApplyTheSetOptionsOfReplayValidatedBeforeAnyFileIsRead() {
        Path missing = dir.resolve("missing.csv");
        Outcome outcome = run(Map.of(), "replay", "--train", missing.toString(), "--score", missing.toString(),
                "--label", "label", "--set", "gda.partitions=many");
        assertOneLineUserError(outcome, "replay: gda.partitions = 'many' (--set): expected an integer >= 1");
    }

    /** Before: "Unknown option: '--set'". Now bench takes it, and refuses a key it sets itself before any broker. */
    @Test
    void shouldRefuseABenchOwnedKeyGivenToBenchSetInOneLineWithoutStartingABroker() {
        Outcome outcome = run(Map.of(), "bench", "--set", "gda.partitions=8");
        assertOneLineUserError(outcome, "bench: --set gda.partitions: use --partitions");
        assertFalse(outcome.err().contains("broker"), outcome.err());
    }

    @Test
    void shouldRefuseBenchRoundsBelowOneOrWithAModeThatHasNoRoundsInOneLine() {
        Outcome outcome = run(Map.of(), "bench", "--rounds", "0");
        assertOneLineUserError(outcome, "bench: --rounds must be >= 1, got 0");
        assertFalse(outcome.err().contains("broker"), outcome.err());
        Outcome noPasses = run(Map.of(), "bench", "--warmup-passes", "0");
        assertOneLineUserError(noPasses, "bench: --warmup-passes must be >= 1, got 0 (--warmup-events 0: none)");
        assertFalse(noPasses.err().contains("broker"), noPasses.err());
        Outcome profile = run(Map.of(), "bench", "--rounds", "3", "--latency-profile");
        assertOneLineUserError(profile, "bench: --rounds is for the three stages or a --variant comparison, not for"
                + " --latency-profile");
    }

    /** A variant given to a mode that does not compare variants would be ignored: it is refused instead. */
    @Test
    void shouldRefuseBenchVariantOptionsWhereNoVariantIsComparedInOneLine() {
        Outcome memory = run(Map.of(), "bench", "--memory", "--variant", "idle:max.task.idle.ms=0");
        assertOneLineUserError(memory, "bench: --variant compares one stage in rounds; it does not apply to --memory");
        assertFalse(memory.err().contains("broker"), memory.err());
        Outcome stageAlone = run(Map.of(), "bench", "--variant-stage", "scoring");
        assertOneLineUserError(stageAlone, "bench: --variant-stage needs at least one --variant");
        Outcome unknown = run(Map.of(), "bench", "--variant-stage", "combiner", "--variant", "a:poll.ms=5");
        assertOneLineUserError(unknown, "bench: --variant-stage combiner: expected training, scoring or passthrough");
    }
}
