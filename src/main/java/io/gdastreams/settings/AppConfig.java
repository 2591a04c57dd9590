package io.gdastreams.settings;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import io.gdastreams.config.Role;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Estimator;
import io.gdastreams.topology.ModelSigning;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Properties;

/**
 * The resolved configuration of one run, validated. Precedence, lowest first: built-in defaults ({@link ConfigKey}),
 * the properties file, environment variables ({@link ConfigSources}), command-line options ({@link #set},
 * {@link #with}). Keys under {@code gda.} belong to the application and must be known; every other key is passed
 * to Kafka Streams (and its clients) unchanged ({@link KafkaSettings}). The settings of the topologies are read
 * from it as from the defaults ({@link TrainingSettings#from}, {@link ScoringSettings#from}).
 */
public final class AppConfig implements ConfigValues {

    /** Kafka keys that plain clients need too ({@link #clientProperties()}). */
    private static final List<String> CLIENT_KEY_PREFIXES = List.of("security.", "sasl.", "ssl.",
            "client.dns.lookup");

    private final Map<ConfigKey, String> values;
    private final Map<ConfigKey, String> origins;
    private final Map<String, String> kafka;

    AppConfig(Map<ConfigKey, String> values, Map<ConfigKey, String> origins, Map<String, String> kafka) {
        this.values = values;
        this.origins = origins;
        this.kafka = kafka;
        for (ConfigKey key : ConfigKey.values()) {
            validate(key);
        }
        Secrets.refuseInClear(values, origins);
        validateSigningKeys();
        KeyAgreement.check(this, kafka);
        KafkaValueCheck.check(kafka);
    }

    /** Built-in defaults only (no file, no environment). */
    public static AppConfig defaults() {
        return ConfigSources.load(null, Map.of(), List.of());
    }

    /**
     * One key set on the command line ({@code --set}, an option such as {@code --covariance}): an application key
     * (an unknown one is an error, as in the file) or a Kafka key; {@code origin} names where it came from.
     */
    public record Setting(String name, String value, String origin) {

        /** An application key. */
        public Setting(ConfigKey key, String value, String origin) {
            this(key.key(), value, origin);
        }
    }

    /** Reads {@code file} (may be null: defaults only) and applies the environment {@code env} on top. */
    public static AppConfig load(Path file, Map<String, String> env) {
        return ConfigSources.load(file, env, List.of());
    }

    /**
     * {@link #load(Path, Map)}, then {@code settings} in order (a later one wins), validated once as a whole: keys
     * that must agree may be changed together, in any order.
     */
    public static AppConfig load(Path file, Map<String, String> env, List<Setting> settings) {
        return ConfigSources.load(file, env, settings);
    }

    /** Reads a properties resource from the class path (the bundled demo configuration). */
    public static AppConfig loadResource(String resource, Map<String, String> env) {
        return ConfigSources.loadResource(resource, env);
    }

    /** A copy with one application key set from the command line (validated like any other source). */
    public AppConfig with(ConfigKey key, String value, String origin) {
        return with(List.of(new Setting(key, value, origin)));
    }

    /** A copy with {@code settings} applied in order (a later one wins), validated once as a whole. */
    public AppConfig with(List<Setting> settings) {
        Map<ConfigKey, String> newValues = new EnumMap<>(values);
        Map<ConfigKey, String> newOrigins = new EnumMap<>(origins);
        Map<String, String> newKafka = new LinkedHashMap<>(kafka);
        ConfigSources.apply(settings, newValues, newOrigins, newKafka);
        return new AppConfig(newValues, newOrigins, newKafka);
    }

    /**
     * The key and the value of a {@code KEY=VALUE} given to {@code option} (e.g. {@code --set}), split at the first
     * '=', or a user error.
     */
    public static Map.Entry<String, String> keyValue(String setting, String option) {
        int equals = setting.indexOf('=');
        if (equals <= 0) {
            throw new UserError(option + " " + setting + ": expected KEY=VALUE");
        }
        return Map.entry(setting.substring(0, equals).trim(), setting.substring(equals + 1));
    }

    /** A copy with any key set: an application key (unknown ones are an error, as in the file) or a Kafka key. */
    public AppConfig set(String name, String value, String origin) {
        return with(List.of(new Setting(name, value, origin)));
    }

    /** A copy with one Kafka key set (e.g. {@code bootstrap.servers} from {@code --bootstrap-servers}). */
    public AppConfig withKafka(String name, String value) {
        if (name.startsWith(ConfigKey.PREFIX)) {
            throw new IllegalArgumentException(name + " is an application key");
        }
        return with(List.of(new Setting(name, value, "the command line")));
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

    /** Most distinct labels per training task; events of further labels are dead-lettered. */
    public int maxClasses() {
        return intValue(ConfigKey.MAX_CLASSES);
    }

    /** Most features an event may carry; larger events are dead-lettered and never fix the schema. */
    public int maxFeatures() {
        return intValue(ConfigKey.MAX_FEATURES);
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

    /** Port of the HTTP endpoint of train/score; empty: no endpoint (0: any free port). */
    public java.util.OptionalInt httpPort() {
        return value(ConfigKey.HTTP_PORT, java.util.OptionalInt.class);
    }

    /**
     * Port of the management listener (health and metrics only, then not on {@link #httpPort}); empty: none (0: any
     * free port).
     */
    public java.util.OptionalInt httpManagementPort() {
        return value(ConfigKey.HTTP_MANAGEMENT_PORT, java.util.OptionalInt.class);
    }

    /** Address the HTTP endpoint binds. */
    public String httpHost() {
        return string(ConfigKey.HTTP_HOST);
    }

    /** {@code gda.http.management-host}: the management listener's own address, if one is set. */
    public Optional<String> httpManagementHost() {
        String host = string(ConfigKey.HTTP_MANAGEMENT_HOST);
        return host.isEmpty() ? Optional.empty() : Optional.of(host);
    }

    /** Largest request body the HTTP endpoint reads. */
    public int httpMaxRequestBytes() {
        return intValue(ConfigKey.HTTP_MAX_REQUEST_BYTES);
    }

    /** Token, TLS keystore and what the token protects, with the secrets read (environment or file). */
    public HttpSecurity httpSecurity() {
        return HttpSecurity.of(this);
    }

    /** How long train/score wait at start-up for the cluster to answer. */
    public Duration brokerTimeout() {
        return millis(ConfigKey.BROKER_TIMEOUT_MS);
    }

    /** How long a changelog restore may make no progress before it is reported (gda.restore.patience.ms). */
    public Duration restorePatience() {
        return millis(ConfigKey.RESTORE_PATIENCE_MS);
    }

    /** Whether the trainer aborts a hanging transaction whose abort provably loses nothing. */
    public boolean abortHangingTransactions() {
        return booleanValue(ConfigKey.RESTORE_ABORT_HANGING);
    }

    /** How often train/score log a progress line. */
    public Duration progressInterval() {
        return millis(ConfigKey.PROGRESS_INTERVAL_MS);
    }

    /** What the training topology needs, from this configuration. */
    public TrainingSettings trainingSettings() {
        return trainingSettings(topics());
    }

    /** What the training topology needs, from this configuration, on a run's own {@code topics}. */
    public TrainingSettings trainingSettings(Topics topics) {
        // Checked here, not with the other combinations: replay turns gda.prequential on after loading.
        if (raw(ConfigKey.DRIFT_ACTION).equals("reset") && !booleanValue(ConfigKey.PREQUENTIAL)) {
            throw KeyAgreement.driftResetWithoutTest(this);
        }
        return TrainingSettings.from(this, topics, RecordSizeLimits.modelRecordLimit(kafka));
    }

    /** What the scoring topology needs, from this configuration. */
    public ScoringSettings scoringSettings() {
        return scoringSettings(topics());
    }

    /** What the scoring topology needs, from this configuration, on a run's own {@code topics}. */
    public ScoringSettings scoringSettings(Topics topics) {
        return ScoringSettings.from(this, topics);
    }

    /**
     * Kafka Streams properties for one application role: the Kafka keys plus
     * {@code application.id = <gda.application.id>-<role>}, so one file configures both applications.
     */
    public Properties streamsProperties(Role role) {
        return stageStreamsProperties(role.toString());
    }

    /**
     * As {@link #streamsProperties(Role)} for an application {@code <gda.application.id>-<suffix>}: the bench's
     * stages (passthrough, training, scoring); the services name their role.
     */
    public Properties stageStreamsProperties(String suffix) {
        return KafkaSettings.forRole(kafka, applicationId(), suffix);
    }

    /** Valid settings that weaken what gda-streams promises, one sentence each (empty when there are none). */
    public List<String> warnings() {
        return KafkaSettings.warnings(kafka);
    }

    /** The bootstrap servers, or a user error saying how to set them. */
    public String bootstrapServers() {
        return KafkaSettings.bootstrapServers(kafka);
    }

    /**
     * The Kafka keys a command's own producer, consumer or admin client needs besides the bootstrap servers: how to
     * reach and authenticate to the cluster ({@code security.*}, {@code sasl.*}, {@code ssl.*},
     * {@code client.dns.lookup}); not the Kafka Streams keys, which a plain client would warn about. A fresh copy.
     */
    public Properties clientProperties() {
        Properties client = new Properties();
        for (Map.Entry<String, String> entry : kafka.entrySet()) {
            if (CLIENT_KEY_PREFIXES.stream().anyMatch(entry.getKey()::startsWith)) {
                client.put(entry.getKey(), entry.getValue());
            }
        }
        return client;
    }

    /** The Kafka keys (everything not under {@code gda.}), including our Kafka defaults; a fresh copy. */
    public Properties kafkaProperties() {
        Properties properties = new Properties();
        properties.putAll(kafka);
        return properties;
    }

    /**
     * The model signing keys: from {@code GDA_MODEL_SIGNING_KEY}, or the contents of
     * {@code gda.model.signing.key.file} ({@link Secrets}); empty when neither.
     */
    @Override
    public String signingKeys() {
        return Secrets.read(this, ConfigKey.MODEL_SIGNING_KEY, ConfigKey.MODEL_SIGNING_KEY_FILE).orElse("");
    }

    /** The signing keys parse (read from their file if so configured); else a configuration error without them. */
    private void validateSigningKeys() {
        try {
            ModelSigning.parse(signingKeys());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private void validate(ConfigKey key) {
        String value = values.get(key);
        if (!key.type().accepts(value)) {
            throw new ConfigException(key.key() + " = '" + value + "' (" + origins.get(key) + "): expected "
                    + key.type().expected());
        }
    }
}
