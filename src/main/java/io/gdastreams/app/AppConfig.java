package io.gdastreams.app;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Estimator;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The resolved configuration of one run. Precedence, lowest first: built-in defaults ({@link ConfigKey}), the
 * properties file, environment variables, command-line options. Keys under {@code gda.} belong to the
 * application and must be known; every other key is passed to Kafka Streams (and its clients) unchanged.
 *
 * <p>Environment: {@code GDA_X_Y} sets the application key whose name, upper-cased with '.' and '-' turned into
 * '_', is {@code GDA_X_Y} (e.g. {@code GDA_MODEL_ID} → {@code gda.model.id}); any other {@code GDA_} variable is
 * an error. {@code KAFKA_STREAMS_X_Y} sets the Kafka key {@code x.y}, decoded as the apache/kafka image does:
 * '_' → '.', '__' → '_', '___' → '-' (e.g. {@code KAFKA_STREAMS_BOOTSTRAP_SERVERS} → {@code bootstrap.servers}).
 */
public final class AppConfig implements ConfigValues {

    public static final String GDA_PREFIX = ConfigKey.PREFIX;
    public static final String GDA_ENV_PREFIX = "GDA_";
    public static final String KAFKA_ENV_PREFIX = "KAFKA_STREAMS_";

    private static final String PROCESSING_GUARANTEE_KEY = "processing.guarantee";
    private static final String GLOBAL_HANDLER_KEY = "processing.exception.handler.global.enabled";
    private static final String MAIN_CONSUMER_PREFIX = "main.consumer.";

    /**
     * Kafka Streams settings we default differently from Kafka (the file and environment may override them).
     * {@code processing.exception.handler.global.enabled=true}: the scorer's global model updater catches every
     * exception of its own (a bad model record is logged and skipped), so the handler changes nothing today; it
     * makes a configured {@code processing.exception.handler} govern the global thread like the stream threads,
     * anticipates the Kafka 5.0 default, and silences Kafka Streams' start-up warning that it is disabled (with the
     * copy {@link #streamsProperties} adds for the partition assignor). The
     * record size limits: {@link RecordSizeLimits}.
     */
    static final Map<String, String> KAFKA_DEFAULTS = kafkaDefaults();

    private final Map<ConfigKey, String> values;
    private final Map<ConfigKey, String> origins;
    private final Map<String, String> kafka;

    private AppConfig(Map<ConfigKey, String> values, Map<ConfigKey, String> origins, Map<String, String> kafka) {
        this.values = values;
        this.origins = origins;
        this.kafka = kafka;
        for (ConfigKey key : ConfigKey.values()) {
            validate(key);
        }
        if (features().size() > maxFeatures()) {
            throw new ConfigException(ConfigKey.FEATURES.key() + " (" + origins.get(ConfigKey.FEATURES) + ") names "
                    + features().size() + " features, more than " + ConfigKey.MAX_FEATURES.key() + " = "
                    + maxFeatures() + " (" + origins.get(ConfigKey.MAX_FEATURES) + "): every event would be "
                    + "dead-lettered; raise " + ConfigKey.MAX_FEATURES.key());
        }
        if (kafka.containsKey("application.id")) {
            throw new ConfigException("application.id is derived from " + ConfigKey.APPLICATION_ID.key()
                    + " (training and scoring need different ids); set " + ConfigKey.APPLICATION_ID.key()
                    + " instead");
        }
    }

    /** Built-in defaults only (no file, no environment). */
    public static AppConfig defaults() {
        return resolve(new Properties(), "defaults", Map.of());
    }

    /** Reads {@code file} (may be null: defaults only) and applies the environment {@code env} on top. */
    public static AppConfig load(Path file, Map<String, String> env) {
        if (file == null) {
            return resolve(new Properties(), "defaults", env);
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new UserError("cannot read config file " + file + (Files.exists(file) ? "" : " (no such file)"));
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new UserError("cannot read config file " + file + ": " + e.getMessage());
        }
        return resolve(properties, "file " + file, env);
    }

    /** Reads a properties resource from the class path (the bundled demo configuration). */
    public static AppConfig loadResource(String resource, Map<String, String> env) {
        Properties properties = new Properties();
        try (InputStream in = AppConfig.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("resource " + resource + " is missing from the class path");
            }
            properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read resource " + resource, e);
        }
        return resolve(properties, "resource " + resource, env);
    }

    private static Map<String, String> kafkaDefaults() {
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put(PROCESSING_GUARANTEE_KEY, "exactly_once_v2");
        defaults.put(GLOBAL_HANDLER_KEY, "true");
        defaults.putAll(RecordSizeLimits.streamsDefaults());
        return Collections.unmodifiableMap(defaults);
    }

    static AppConfig resolve(Properties file, String fileOrigin, Map<String, String> env) {
        Map<ConfigKey, String> values = new EnumMap<>(ConfigKey.class);
        Map<ConfigKey, String> origins = new EnumMap<>(ConfigKey.class);
        for (ConfigKey key : ConfigKey.values()) {
            values.put(key, key.defaultValue());
            origins.put(key, "default");
        }
        Map<String, String> kafka = new LinkedHashMap<>(KAFKA_DEFAULTS);
        for (String name : new TreeMap<>(toMap(file)).keySet()) {
            String value = file.getProperty(name).trim();
            if (name.startsWith(GDA_PREFIX)) {
                ConfigKey key = ConfigKey.byKey(name).orElseThrow(() -> new ConfigException(
                        "unknown key " + name + " in " + fileOrigin + " (known application keys: "
                                + knownKeys() + ")"));
                values.put(key, value);
                origins.put(key, fileOrigin);
            } else {
                kafka.put(name, value);
            }
        }
        for (Map.Entry<String, String> variable : new TreeMap<>(env).entrySet()) {
            String name = variable.getKey();
            if (name.startsWith(KAFKA_ENV_PREFIX)) {
                kafka.put(kafkaKeyOf(name), variable.getValue().trim());
            } else if (name.startsWith(GDA_ENV_PREFIX)) {
                ConfigKey key = ConfigKey.byEnvironmentVariable(name).orElseThrow(() -> new ConfigException(
                        "unknown environment variable " + name + " (GDA_ variables set application keys; known: "
                                + knownVariables() + ")"));
                values.put(key, variable.getValue().trim());
                origins.put(key, "environment " + name);
            }
        }
        return new AppConfig(values, origins, kafka);
    }

    /** {@code KAFKA_STREAMS_BOOTSTRAP_SERVERS} → {@code bootstrap.servers} (the apache/kafka image convention). */
    static String kafkaKeyOf(String variable) {
        String rest = variable.substring(KAFKA_ENV_PREFIX.length()).toLowerCase(Locale.ROOT);
        return rest.replace("___", "\u0000").replace("__", "\u0001").replace('_', '.')
                .replace('\u0001', '_').replace('\u0000', '-');
    }

    /** A copy with one application key set from the command line (validated like any other source). */
    public AppConfig with(ConfigKey key, String value, String origin) {
        Map<ConfigKey, String> newValues = new EnumMap<>(values);
        Map<ConfigKey, String> newOrigins = new EnumMap<>(origins);
        newValues.put(key, value.trim());
        newOrigins.put(key, origin);
        return new AppConfig(newValues, newOrigins, kafka);
    }

    /** A copy with any key set: an application key (unknown ones are an error, as in the file) or a Kafka key. */
    public AppConfig set(String name, String value, String origin) {
        if (name.startsWith(GDA_PREFIX)) {
            ConfigKey key = ConfigKey.byKey(name).orElseThrow(() -> new ConfigException(
                    "unknown key " + name + " in " + origin + " (known application keys: " + knownKeys() + ")"));
            return with(key, value, origin);
        }
        return withKafka(name, value.trim());
    }

    /** A copy with one Kafka key set (e.g. {@code bootstrap.servers} from {@code --bootstrap-servers}). */
    public AppConfig withKafka(String name, String value) {
        if (name.startsWith(GDA_PREFIX)) {
            throw new IllegalArgumentException(name + " is an application key");
        }
        Map<String, String> newKafka = new LinkedHashMap<>(kafka);
        newKafka.put(name, value);
        return new AppConfig(values, origins, newKafka);
    }

    @Override
    public String raw(ConfigKey key) {
        return values.get(key);
    }

    /** Where the value of {@code key} came from: "default", "file …", "environment …" or a CLI option. */
    public String origin(ConfigKey key) {
        return origins.get(key);
    }

    public String modelId() {
        return string(ConfigKey.MODEL_ID);
    }

    /** Configured feature names in order; empty when the schema comes from the first labelled event. */
    public List<String> features() {
        return names(ConfigKey.FEATURES);
    }

    public Topics topics() {
        return Topics.from(this);
    }

    public Duration publishInterval() {
        return millis(ConfigKey.PUBLISH_INTERVAL_MS);
    }

    public CovarianceType covariance() {
        return value(ConfigKey.COVARIANCE, CovarianceType.class);
    }

    public Estimator estimator() {
        return value(ConfigKey.ESTIMATOR, Estimator.class);
    }

    public double regParam() {
        return doubleValue(ConfigKey.REG_PARAM);
    }

    public double varianceFloor() {
        return doubleValue(ConfigKey.VARIANCE_FLOOR);
    }

    public long minCount() {
        return longValue(ConfigKey.MIN_COUNT);
    }

    /** log p(x) below which a prediction is flagged as an outlier; empty when not configured. */
    public OptionalDouble outlierThreshold() {
        return optionalDouble(ConfigKey.OUTLIER_THRESHOLD);
    }

    /** Most distinct labels per training task; events of further labels are dead-lettered. */
    public int maxClasses() {
        return intValue(ConfigKey.MAX_CLASSES);
    }

    /** Most features an event may carry; larger events are dead-lettered and never fix the schema. */
    public int maxFeatures() {
        return intValue(ConfigKey.MAX_FEATURES);
    }

    /** Classes a prediction lists (the most probable; the rest summarised); 0 = every class up to the bound. */
    public int outputTopK() {
        return intValue(ConfigKey.OUTPUT_TOP_K);
    }

    public int pendingMax() {
        return intValue(ConfigKey.PENDING_MAX);
    }

    /** Whether a scorer refuses a model version lower than the one it holds. */
    public boolean rejectOlderVersions() {
        return booleanValue(ConfigKey.REJECT_OLDER_VERSIONS);
    }

    /** Partitions of the event topics (labelled, unlabelled, predictions, dead letters) when we create them. */
    public int partitions() {
        return intValue(ConfigKey.PARTITIONS);
    }

    /** Replication factor of created topics; -1 = the broker's default.replication.factor. */
    public short replicationFactor() {
        return value(ConfigKey.REPLICATION_FACTOR, Short.class);
    }

    public boolean createTopics() {
        return booleanValue(ConfigKey.CREATE_TOPICS);
    }

    public String applicationId() {
        return string(ConfigKey.APPLICATION_ID);
    }

    /** What the training topology needs, from this configuration. */
    public TrainingSettings trainingSettings() {
        return TrainingSettings.from(this, topics(), RecordSizeLimits.modelRecordLimit(kafka));
    }

    /** What the scoring topology needs, from this configuration. */
    public ScoringSettings scoringSettings() {
        return ScoringSettings.from(this, topics());
    }

    /**
     * Kafka Streams properties for one application role ("training" or "scoring"): the Kafka keys plus
     * {@code application.id = <gda.application.id>-<role>}, so one file configures both applications.
     */
    public Properties streamsProperties(String role) {
        Properties properties = kafkaProperties();
        properties.put("application.id", applicationId() + "-" + role);
        // Kafka Streams 4.3 builds a second StreamsConfig inside its partition assignor, from the main consumer's
        // configuration, which carries only consumer keys and main.consumer.* ones: without this copy that config
        // sees the global handler disabled and logs the "not enabled for the GlobalThread" warning at every start
        // even though the application enabled it. The assignor only reads assignment keys from it.
        String global = properties.getProperty(GLOBAL_HANDLER_KEY);
        if (global != null) {
            properties.putIfAbsent(MAIN_CONSUMER_PREFIX + GLOBAL_HANDLER_KEY, global);
        }
        return properties;
    }

    /**
     * Valid settings that weaken what gda-streams promises, one sentence each (empty when there are none).
     * {@code processing.guarantee=at_least_once} is accepted (some clusters cannot run transactions), but then a
     * crash replays the records read since the last commit: the trainer counts them again, the scorer answers
     * them again.
     */
    public List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        String guarantee = kafka.get(PROCESSING_GUARANTEE_KEY);
        if (guarantee != null && guarantee.trim().equals("at_least_once")) {
            warnings.add(PROCESSING_GUARANTEE_KEY + "=at_least_once: after a crash the events read since the last "
                    + "commit are processed again, so the model's counts may double for them and the scorer may "
                    + "answer an event twice; exactly_once_v2 (the gda-streams default) prevents both");
        }
        return warnings;
    }

    /** The bootstrap servers, or a user error saying how to set them. */
    public String bootstrapServers() {
        String servers = kafka.get("bootstrap.servers");
        if (servers == null || servers.isBlank()) {
            throw new ConfigException("bootstrap.servers is not set (set it in the config file, with "
                    + "--bootstrap-servers, or with KAFKA_STREAMS_BOOTSTRAP_SERVERS)");
        }
        return servers;
    }

    /** The Kafka keys (everything not under {@code gda.}), including our Kafka defaults; a fresh copy. */
    public Properties kafkaProperties() {
        Properties properties = new Properties();
        properties.putAll(kafka);
        return properties;
    }

    private void validate(ConfigKey key) {
        String value = values.get(key);
        if (!key.type().accepts(value)) {
            throw new ConfigException(key.key() + " = '" + value + "' (" + origins.get(key) + "): expected "
                    + key.type().expected());
        }
    }

    private static Map<String, String> toMap(Properties properties) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) {
            map.put(name, properties.getProperty(name));
        }
        return map;
    }

    private static String knownKeys() {
        return String.join(", ", ConfigKey.names());
    }

    private static String knownVariables() {
        return String.join(", ", Arrays.stream(ConfigKey.values()).map(ConfigKey::environmentVariable).toList());
    }
}
