package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.Role;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Estimator;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppConfigTest {

    @TempDir
    Path dir;

    private Path file(String... lines) throws IOException {
        Path file = dir.resolve("app.properties");
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void shouldUseBuiltInDefaultsWithoutFileOrEnvironment() {
        AppConfig config = AppConfig.load(null, Map.of());
        assertEquals("gda", config.modelId());
        assertEquals(List.of(), config.features());
        assertEquals("labelled-events", config.topics().labelled().name());
        assertEquals("dead-letters", config.topics().deadLetters().name());
        assertEquals(1000, config.publishInterval().toMillis());
        assertEquals(CovarianceType.FULL, config.covariance());
        assertEquals(Estimator.MLE, config.estimator());
        assertEquals(2, config.scoringSettings().fitOptions().minCount());
        assertEquals(1e-9, config.scoringSettings().fitOptions().varianceFloor());
        assertTrue(config.scoringSettings().outlierThreshold().isEmpty());
        assertEquals(4, config.partitions());
        assertEquals("exactly_once_v2", config.kafkaProperties().getProperty("processing.guarantee"));
        assertEquals("default", config.origin(ConfigKey.MODEL_ID));
    }

    @Test
    void shouldLetFileOverrideDefaultsAndEnvironmentOverrideFile() throws IOException {
        Path file = file("gda.model.id=from-file", "gda.min.count=5", "gda.covariance=tied");
        AppConfig config = AppConfig.load(file, Map.of("GDA_MIN_COUNT", "7", "PATH", "/bin"));
        assertEquals("from-file", config.modelId());
        assertEquals(7, config.scoringSettings().fitOptions().minCount());
        assertEquals(CovarianceType.TIED, config.covariance());
        assertEquals("environment GDA_MIN_COUNT", config.origin(ConfigKey.MIN_COUNT));
        assertEquals("file " + file, config.origin(ConfigKey.MODEL_ID));
    }

    /** A byte order mark before the first key (Windows editors write one) used to hide that key without a word. */
    @Test
    void shouldReadTheFirstKeyOfAFileThatStartsWithAByteOrderMark() throws IOException {
        Path file = file("\uFEFFgda.covariance=tied", "gda.model.id=bom");
        AppConfig config = AppConfig.load(file, Map.of());
        assertEquals(CovarianceType.TIED, config.covariance());
        assertEquals("file " + file, config.origin(ConfigKey.COVARIANCE));
        assertEquals("bom", config.modelId());
        UserError bad = assertThrows(UserError.class, () -> AppConfig.load(file("\uFEFFgda.covariance=bogus"),
                Map.of()));
        assertTrue(bad.getMessage().contains("gda.covariance"), bad.getMessage());
    }

    /**
     * The endpoint's body limit is bounded: 2147483647 passed as a positive integer, and every request, a probe's
     * included, then failed with a 500 (reading limit + 1 bytes overflowed).
     */
    @Test
    void shouldBoundTheHttpRequestBodyLimit() throws IOException {
        assertEquals(64 << 20, AppConfig.load(file("gda.http.max-request-bytes=67108864"), Map.of())
                .httpMaxRequestBytes());
        UserError tooLarge = assertThrows(UserError.class, () -> AppConfig.load(
                file("gda.http.max-request-bytes=2147483647"), Map.of()));
        assertTrue(tooLarge.getMessage().contains("gda.http.max-request-bytes")
                && tooLarge.getMessage().contains("an integer in [1, 67108864]"), tooLarge.getMessage());
    }

    @Test
    void shouldEnableTheProcessingExceptionHandlerForTheGlobalThreadUnlessOverridden() throws IOException {
        Properties scoring = AppConfig.load(null, Map.of()).streamsProperties(Role.SCORING);
        scoring.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        assertTrue(new StreamsConfig(scoring)
                .getBoolean(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG));
        Properties overridden = AppConfig.load(file("processing.exception.handler.global.enabled=false"), Map.of())
                .streamsProperties(Role.SCORING);
        assertEquals("false", overridden.getProperty("processing.exception.handler.global.enabled"));
    }

    /**
     * Every producer Kafka Streams builds for the application compresses with LZ4 unless the user says otherwise:
     * a file's unprefixed {@code compression.type} replaces the default, and a {@code producer.}-prefixed one
     * overrides both (Kafka Streams' own precedence). Read through Kafka's own config classes, the ones the
     * producers are built from.
     */
    @Test
    void shouldCompressEveryProducerWithLz4UnlessTheFileSaysOtherwise() throws IOException {
        assertEquals("lz4", producerCompression(AppConfig.load(null, Map.of()), Role.TRAINING));
        assertEquals("lz4", producerCompression(AppConfig.load(null, Map.of()), Role.SCORING));
        assertEquals("none", producerCompression(AppConfig.load(file("compression.type=none"), Map.of()),
                Role.SCORING));
        assertEquals("zstd", producerCompression(AppConfig.load(file("compression.type=none",
                "producer.compression.type=zstd"), Map.of()), Role.SCORING));
    }

    private static String producerCompression(AppConfig config, Role role) {
        Properties properties = config.streamsProperties(role);
        properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        Map<String, Object> producer = new StreamsConfig(properties).getProducerConfigs("client");
        return String.valueOf(producer.get("compression.type"));
    }

    /**
     * Kafka Streams' partition assignor builds its own StreamsConfig from the main consumer's configuration; it
     * logged "Processing exception handler is not enabled for the GlobalThread" at every start although the
     * application enabled it, because that configuration did not carry the key.
     */
    @Test
    void shouldLetThePartitionAssignorSeeTheGlobalHandlerSettingSoThatItDoesNotWarn() throws IOException {
        for (Role role : Role.values()) {
            Properties properties = AppConfig.load(null, Map.of()).streamsProperties(role);
            properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            Map<String, Object> assignorView = new StreamsConfig(properties).getMainConsumerConfigs("group",
                    "client", 0);
            assertTrue(new StreamsConfig(assignorView)
                    .getBoolean(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG), role.toString());
        }
        Properties disabled = AppConfig.load(file("processing.exception.handler.global.enabled=false"), Map.of())
                .streamsProperties(Role.SCORING);
        assertEquals("false", disabled.getProperty("main.consumer.processing.exception.handler.global.enabled"),
                "the copy follows the setting (a user who disables it gets Kafka's warning, as they should)");
    }

    /** A command's own clients (replay, sample) get how to reach the cluster, not the Kafka Streams keys. */
    @Test
    void shouldGiveClientsTheConnectionKeysOnly() throws IOException {
        Properties client = AppConfig.load(file("security.protocol=SASL_SSL", "sasl.mechanism=PLAIN",
                "ssl.truststore.location=/t.jks", "client.dns.lookup=use_all_dns_ips", "commit.interval.ms=50",
                "bootstrap.servers=b:9092", "gda.model.id=m"), Map.of()).clientProperties();
        assertEquals(Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "PLAIN", "ssl.truststore.location",
                "/t.jks", "client.dns.lookup", "use_all_dns_ips"), client);
    }

    @Test
    void shouldWarnThatAtLeastOnceMayDoubleCountsAfterACrash() throws IOException {
        assertEquals(List.of(), AppConfig.load(null, Map.of()).warnings());
        assertEquals(List.of(), AppConfig.load(file("processing.guarantee=exactly_once_v2"), Map.of()).warnings());
        for (AppConfig config : List.of(AppConfig.load(file("processing.guarantee=at_least_once"), Map.of()),
                AppConfig.load(null, Map.of("KAFKA_STREAMS_PROCESSING_GUARANTEE", "at_least_once")))) {
            List<String> warnings = config.warnings();
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).startsWith("processing.guarantee=at_least_once: after a crash"),
                    warnings.get(0));
            assertTrue(warnings.get(0).contains("the model's counts may double"), warnings.get(0));
        }
    }

    @Test
    void shouldWireTheClassBoundIntoTheTrainingSettings() throws IOException {
        assertEquals(1000, AppConfig.load(null, Map.of()).trainingSettings().maxClasses());
        assertEquals(7, AppConfig.load(file("gda.max.classes=7"), Map.of()).trainingSettings().maxClasses());
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.max.classes=0"), Map.of()));
    }

    @Test
    void shouldMapEnvironmentVariableWithDashInKey() {
        AppConfig config = AppConfig.load(null, Map.of("GDA_TOPIC_DEAD_LETTERS", "dlq"));
        assertEquals("dlq", config.topics().deadLetters().name());
    }

    @Test
    void shouldPassNonApplicationKeysToKafkaUnchanged() throws IOException {
        Path file = file("bootstrap.servers=broker:9092", "num.stream.threads=3", "producer.linger.ms=7",
                "processing.guarantee=at_least_once");
        Properties kafka = AppConfig.load(file, Map.of()).kafkaProperties();
        assertEquals("broker:9092", kafka.getProperty("bootstrap.servers"));
        assertEquals("3", kafka.getProperty("num.stream.threads"));
        assertEquals("7", kafka.getProperty("producer.linger.ms"));
        assertEquals("at_least_once", kafka.getProperty("processing.guarantee"));
        assertFalse(kafka.keySet().stream().anyMatch(k -> k.toString().startsWith("gda.")));
    }

    @Test
    void shouldMapKafkaEnvironmentVariablesLikeTheKafkaImage() throws IOException {
        Path file = file("bootstrap.servers=from-file:9092");
        AppConfig config = AppConfig.load(file, Map.of("KAFKA_STREAMS_BOOTSTRAP_SERVERS", "from-env:9092",
                "KAFKA_STREAMS_SOME__ODD___KEY", "x"));
        assertEquals("from-env:9092", config.kafkaProperties().getProperty("bootstrap.servers"));
        assertEquals("x", config.kafkaProperties().getProperty("some_odd-key"));
        assertEquals("bootstrap.servers", ConfigSources.kafkaKeyOf("KAFKA_STREAMS_BOOTSTRAP_SERVERS"));
    }

    @Test
    void shouldDeriveApplicationIdPerRole() throws IOException {
        AppConfig config = AppConfig.load(file("gda.application.id=fraud"), Map.of());
        assertEquals("fraud-training", config.streamsProperties(Role.TRAINING).getProperty("application.id"));
        assertEquals("fraud-scoring", config.streamsProperties(Role.SCORING).getProperty("application.id"));
    }

    @Test
    void shouldRejectUnknownApplicationKeyNamingIt() throws IOException {
        Path file = file("gda.modle.id=typo");
        ConfigException e = assertThrows(ConfigException.class, () -> AppConfig.load(file, Map.of()));
        assertEquals("unknown key gda.modle.id in file " + file + "; did you mean gda.model.id? (every key: README,"
                + " \"Configuration\")", e.getMessage());
        ConfigException far = assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.colour=red"),
                Map.of()));
        assertFalse(far.getMessage().contains("did you mean"), "no key is near: " + far.getMessage());
        assertTrue(far.getMessage().contains(" (known application keys: gda."), "listed: " + far.getMessage());
        ConfigException doubled = assertThrows(ConfigException.class,
                () -> AppConfig.load(file("gda.publish.intervall.ms=5000"), Map.of()));
        assertTrue(doubled.getMessage().contains("; did you mean gda.publish.interval.ms?"), doubled.getMessage());
    }

    @Test
    void shouldRejectUnknownApplicationEnvironmentVariableNamingIt() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.load(null, Map.of("GDA_COVARIENCE", "full")));
        assertTrue(e.getMessage().startsWith("unknown environment variable GDA_COVARIENCE; did you mean"
                + " GDA_COVARIANCE? "), e.getMessage());
    }

    /**
     * bin/gda-streams reads GDA_STREAMS_JAR and GDA_STREAMS_VECTOR and passes them on to the JVM's environment: every
     * command that loads a configuration refused them as unknown application keys (exit 2). No key maps there.
     */
    @Test
    void shouldLeaveTheLaunchersOwnVariablesAlone() {
        for (ConfigKey key : ConfigKey.values()) {
            assertFalse(key.environmentVariable().startsWith("GDA_STREAMS_"), key.environmentVariable());
        }
        AppConfig config = AppConfig.load(null, Map.of("GDA_STREAMS_VECTOR", "off", "GDA_STREAMS_JAR", "/x.jar",
                "GDA_MIN_COUNT", "7"));
        assertEquals(7, config.scoringSettings().fitOptions().minCount());
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.load(null, Map.of("GDA_STREAM_VECTOR", "off")));
        assertTrue(e.getMessage().startsWith("unknown environment variable GDA_STREAM_VECTOR"), e.getMessage());
    }

    @Test
    void shouldRejectMalformedNumberNamingKeyValueAndSource() throws IOException {
        Path file = file("gda.publish.interval.ms=soon");
        ConfigException e = assertThrows(ConfigException.class, () -> AppConfig.load(file, Map.of()));
        assertEquals("gda.publish.interval.ms = 'soon' (file " + file + "): expected an integer >= 1",
                e.getMessage());
    }

    @Test
    void shouldWireOneDecisionRuleIntoTheScoringSettingsAndRefuseBoth() throws IOException {
        assertEquals(new DecisionRule.MostProbable(), AppConfig.defaults().scoringSettings().decisionRule());
        assertEquals(new DecisionRule.Threshold("Yes", 0.2),
                AppConfig.load(file("gda.decision.threshold=Yes:0.2"), Map.of()).scoringSettings().decisionRule());
        assertEquals(new DecisionRule.MinimumExpectedCost(Map.of("Yes", Map.of("No", 5.0))),
                AppConfig.load(null, Map.of("GDA_DECISION_COSTS", "Yes->No:5")).scoringSettings().decisionRule());
        ConfigException e = assertThrows(ConfigException.class, () -> AppConfig.load(
                file("gda.decision.threshold=Yes:0.2"), Map.of("GDA_DECISION_COSTS", "Yes->No:5")));
        assertTrue(e.getMessage().contains("gda.decision.threshold") && e.getMessage().contains("gda.decision.costs"),
                e.getMessage());
    }

    @Test
    void shouldReadForgettingAndFixedPriorsAlsoWithCategoricalFeatures() throws IOException {
        assertEquals(null, AppConfig.defaults().trainingSettings().forgetting());
        assertEquals(Map.of(), AppConfig.defaults().scoringSettings().fitOptions().fixedPriors());
        assertEquals(60000.0, AppConfig.load(file("gda.forgetting.half-life.ms=60000"), Map.of()).trainingSettings()
                .forgetting().halfLifeMs());
        assertEquals(Map.of("No", 0.25, "Yes", 0.75), AppConfig.load(null, Map.of("GDA_PRIORS", "No:0.25, Yes:0.75"))
                .scoringSettings().fitOptions().fixedPriors());
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.priors=No:0.25,Yes:0.7"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.priors=No:0,Yes:1"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.priors=No:0.5,No:0.5"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.forgetting.half-life.ms=0"), Map.of()));
        // Category counts decay with the Gaussian statistics: the combination is a valid configuration.
        assertEquals(1000.0, AppConfig.load(file("gda.forgetting.half-life.ms=1000",
                "gda.categorical.features=student"), Map.of()).trainingSettings().forgetting().halfLifeMs());
    }

    @Test
    void shouldReadTheDriftActionAndRefuseAResetWithoutTheDriftTest() throws IOException {
        assertEquals(false, AppConfig.load(file("gda.prequential=true"), Map.of()).trainingSettings().prequential()
                .driftReset(), "alert by default");
        assertEquals(true, AppConfig.load(file("gda.prequential=true", "gda.drift.action=reset"), Map.of())
                .trainingSettings().prequential().driftReset());
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.drift.action=restart"), Map.of()));
        AppConfig off = AppConfig.load(file("gda.drift.action=reset"), Map.of()); // replay turns prequential on later
        ConfigException e = assertThrows(ConfigException.class, off::trainingSettings);
        assertTrue(e.getMessage().contains("needs the drift test"), e.getMessage());
        assertThrows(ConfigException.class, () -> AppConfig.load(
                file("gda.prequential=true", "gda.drift.action=reset", "gda.drift.lambda="), Map.of()));
    }

    @Test
    void shouldRejectOutOfRangeAndUnknownEnumValues() throws IOException {
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.reg.param=1.5"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.min.count=0"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.partitions=2147483648"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.variance.floor=-1"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.covariance=spherical"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.estimator=MLE"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.create.topics=yes"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.topic.labelled=a b"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.features=a,,b"), Map.of()));
        assertThrows(ConfigException.class, () -> AppConfig.load(null, Map.of("GDA_OUTLIER_THRESHOLD", "NaN")));
    }

    @Test
    void shouldBoundFeaturesAt1024ByDefaultAndPassTheBoundToBothTopologies() throws IOException {
        AppConfig defaults = AppConfig.load(null, Map.of());
        assertEquals(1024, defaults.maxFeatures());
        assertEquals(1024, defaults.trainingSettings().maxFeatures());
        assertEquals(1024, defaults.scoringSettings().maxFeatures());
        AppConfig raised = AppConfig.load(file("gda.max.features=4096"), Map.of());
        assertEquals(4096, raised.trainingSettings().maxFeatures());
        assertEquals(4096, raised.scoringSettings().maxFeatures());
        assertEquals(2, AppConfig.load(null, Map.of("GDA_MAX_FEATURES", "2")).maxFeatures());
        ConfigException zero = assertThrows(ConfigException.class,
                () -> AppConfig.load(file("gda.max.features=0"), Map.of()));
        assertTrue(zero.getMessage().startsWith("gda.max.features = '0' (file "), zero.getMessage());
        assertTrue(zero.getMessage().endsWith("expected an integer >= 1"), zero.getMessage());
    }

    @Test
    void shouldListEveryClassUpTo256ByDefaultAndAcceptTopKUpToThatBoundOnly() throws IOException {
        AppConfig defaults = AppConfig.load(null, Map.of());
        assertEquals(0, defaults.scoringSettings().outputTopK());
        assertEquals(256, defaults.scoringSettings().listedClasses());
        assertEquals(20, AppConfig.load(file("gda.output.top-k=20"), Map.of()).scoringSettings().listedClasses());
        assertEquals(256, AppConfig.load(null, Map.of("GDA_OUTPUT_TOP_K", "256")).scoringSettings()
                .listedClasses());
        ConfigException over = assertThrows(ConfigException.class,
                () -> AppConfig.load(file("gda.output.top-k=257"), Map.of()));
        assertTrue(over.getMessage().endsWith("expected an integer in [0, 256] (0 = every class, at most 256)"),
                over.getMessage());
        assertThrows(ConfigException.class, () -> AppConfig.load(file("gda.output.top-k=-1"), Map.of()));
    }

    @Test
    void shouldBoundTheModelIdBecauseEveryPredictionRepeatsIt() throws IOException {
        assertEquals(249, AppConfig.load(file("gda.model.id=" + "m".repeat(249)), Map.of()).modelId().length());
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.load(file("gda.model.id=" + "m".repeat(250)), Map.of()));
        assertTrue(e.getMessage().endsWith("expected a non-blank name of at most 249 characters"), e.getMessage());
    }

    @Test
    void shouldRejectAConfiguredSchemaLongerThanTheFeatureBound() throws IOException {
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.load(file("gda.features=a,b,c"), Map.of("GDA_MAX_FEATURES", "2")));
        assertTrue(e.getMessage().startsWith("gda.features (file "), e.getMessage());
        assertTrue(e.getMessage().contains(") names 3 features, more than gda.max.features = 2 (environment"
                + " GDA_MAX_FEATURES): every event would be dead-lettered"), e.getMessage());
        assertEquals(List.of("a", "b"), AppConfig.load(file("gda.features=a,b"), Map.of("GDA_MAX_FEATURES", "2"))
                .trainingSettings().features());
    }

    @Test
    void shouldRejectTypeErrorFromEnvironmentNamingTheVariable() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.load(null, Map.of("GDA_PENDING_MAX", "-3")));
        assertTrue(e.getMessage().startsWith("gda.pending.max = '-3' (environment GDA_PENDING_MAX)"),
                e.getMessage());
    }

    @Test
    void shouldRejectExplicitApplicationIdBecauseRolesNeedTheirOwn() throws IOException {
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.load(file("application.id=x"), Map.of()));
        assertTrue(e.getMessage().contains("gda.application.id"), e.getMessage());
    }

    @Test
    void shouldRefuseAKafkaValueThatKafkaWouldRefuseNamingTheKeyAtLoad() throws IOException {
        // Kafka Streams' own keys, its producer's, its consumers' (bare and prefixed) and its admin client's.
        String[][] refused = {
            {"processing.guarantee=bogus", "processing.guarantee = 'bogus' is refused by Kafka: Invalid value bogus"
                    + " for configuration processing.guarantee: String must be one of: at_least_once, exactly_once_v2"},
            {"num.stream.threads=abc", "num.stream.threads = 'abc' is refused by Kafka: Invalid value abc for"
                    + " configuration num.stream.threads: Not a number of type INT"},
            {"commit.interval.ms=-5", "commit.interval.ms = '-5' is refused by Kafka: Invalid value -5 for"
                    + " configuration commit.interval.ms: Value must be at least 0"},
            {"compression.type=zip", "compression.type = 'zip' is refused by Kafka: Invalid value zip for"
                    + " configuration compression.type: String must be one of: none, gzip, snappy, lz4, zstd"},
            {"main.consumer.max.poll.records=0", "main.consumer.max.poll.records = '0' is refused by Kafka: Invalid"
                    + " value 0 for configuration max.poll.records: Value must be at least 1"},
            {"admin.retries=x", "admin.retries = 'x' is refused by Kafka: Invalid value x for configuration retries:"
                    + " Not a number of type INT"},
        };
        for (String[] setting : refused) {
            ConfigException e = assertThrows(ConfigException.class, () -> AppConfig.load(file(setting[0]), Map.of()),
                    setting[0]);
            assertEquals(setting[1] + " (a Kafka setting: from the file, a KAFKA_STREAMS_ variable or --set)",
                    e.getMessage());
        }
        // Values Kafka takes, keys it does not define (its clients warn about them) and topic settings load.
        // group.protocol=streams is Kafka Streams' (its consumer's own definition knows only classic and consumer);
        // a value from a config provider is only known when a client is made; an empty bootstrap.servers may still
        // be given on the command line.
        AppConfig config = AppConfig.load(file("processing.guarantee=at_least_once", "producer.linger.ms=5",
                "no.such.kafka.key=1", "topic.min.insync.replicas=2", "group.protocol=streams",
                "num.stream.threads=${file:/etc/threads.properties:n}", "bootstrap.servers="), Map.of());
        assertEquals("streams", config.kafkaProperties().getProperty("group.protocol"));
        ConfigException consumers = assertThrows(ConfigException.class, () -> AppConfig.load(
                file("main.consumer.group.protocol=streams"), Map.of()));
        assertTrue(consumers.getMessage().startsWith("main.consumer.group.protocol = 'streams' is refused by Kafka"),
                consumers.getMessage());
        assertEquals("5", config.kafkaProperties().getProperty("producer.linger.ms"));
    }

    @Test
    void shouldParseFeatureListAndOptionalThreshold() throws IOException {
        AppConfig config = AppConfig.load(file("gda.features=a, b ,c", "gda.outlier.threshold=-12.5"), Map.of());
        assertEquals(List.of("a", "b", "c"), config.features());
        assertEquals(-12.5, config.scoringSettings().outlierThreshold().getAsDouble());
        assertEquals(config.topics(), config.scoringSettings().topics());
        assertEquals(-12.5, config.scoringSettings().outlierThreshold().getAsDouble());
    }

    @Test
    void shouldApplyCommandLineOverrideAboveEnvironment() {
        AppConfig config = AppConfig.load(null, Map.of("GDA_COVARIANCE", "tied"))
                .with(ConfigKey.COVARIANCE, "diag", "--covariance");
        assertEquals(CovarianceType.DIAG, config.covariance());
        ConfigException e = assertThrows(ConfigException.class,
                () -> config.with(ConfigKey.ESTIMATOR, "biased", "--estimator"));
        assertEquals("gda.estimator = 'biased' (--estimator): expected one of mle, unbiased", e.getMessage());
    }

    @Test
    void shouldReportMissingConfigFileAsUserError() {
        UserError e = assertThrows(UserError.class, () -> AppConfig.load(dir.resolve("nope.properties"), Map.of()));
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    }

    @Test
    void shouldLoadBundledDemoConfiguration() throws IOException {
        AppConfig demo = AppConfig.load(Path.of("config/demo.properties"), Map.of());
        assertEquals("iris", demo.modelId());
        assertEquals(4, demo.partitions());
    }
}
