package io.gdastreams.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every application key ({@code gda.*}), declared once: its name, its value type (which is also its validator and
 * its parser, {@link ValueType}), its default, and one line saying what it does. Everything else derives from
 * here: the defaults of the topologies' settings ({@code TrainingSettings}, {@code ScoringSettings},
 * {@code Topics}), the validation of every source (file, environment, {@code --set}), the environment variable
 * names and the key list in the commands' {@code --help}. {@code config/app.properties} and the README's key table
 * document the same keys with the same defaults: {@code ConfigDocumentationTest} fails until they agree.
 *
 * <p>Adding a key (docs/ARCHITECTURE.md, "Where to change what"): a constant here, the key with its default in
 * {@code config/app.properties}, a row in the README's table, and a typed accessor where it is read
 * ({@link ConfigValues}, or the settings record).
 */
public enum ConfigKey {
    MODEL_ID("gda.model.id", "gda", ValueType.NAME,
            "key of the model on the model topic; several models can share the topics"),
    FEATURES("gda.features", "", ValueType.NAME_LIST,
            "ordered feature names; empty: those of the model this trainer published, else each input partition's"
                    + " first labelled event (sorted names)"),
    TOPIC_LABELLED("gda.topic.labelled", "labelled-events", ValueType.TOPIC,
            "topic of the labelled events (training input)"),
    TOPIC_UNLABELLED("gda.topic.unlabelled", "unlabelled-events", ValueType.TOPIC,
            "topic of the unlabelled events (scoring input)"),
    TOPIC_MODEL("gda.topic.model", "model-parameters", ValueType.TOPIC,
            "compacted topic of the published models, key = model id"),
    TOPIC_PREDICTIONS("gda.topic.predictions", "predictions", ValueType.TOPIC,
            "topic of the predictions, one per unlabelled event"),
    TOPIC_DEAD_LETTERS("gda.topic.dead-letters", "dead-letters", ValueType.TOPIC,
            "topic of every unusable record, with the reason"),
    TOPIC_METRICS("gda.topic.metrics", "model-metrics", ValueType.TOPIC,
            "topic of the trainer's prequential window records (gda.prequential), key = model id"),
    PUBLISH_INTERVAL_MS("gda.publish.interval.ms", "1000", ValueType.POSITIVE_LONG,
            "how often (ms) the training tasks snapshot and the trainer publishes a model version (one per round)"),
    MAX_CLASSES("gda.max.classes", "1000", ValueType.POSITIVE_INT,
            "most distinct labels per training task; events of further labels are dead-lettered"),
    /*
     * 1024: a schema of d features costs every class d(d+1)/2 doubles in each training task's state (about 4.2 MB
     * per class at d = 1024, 420 MB at d = 10,000), and the first labelled event can fix the schema, so the bound
     * is checked before anything else looks at the features (docs/TRAINING.md, "Schema size and memory").
     */
    MAX_FEATURES("gda.max.features", "1024", ValueType.POSITIVE_INT,
            "most features an event may carry; a larger event is dead-lettered"),
    CATEGORICAL_FEATURES("gda.categorical.features", "", ValueType.NAME_LIST,
            "features whose values are strings or booleans (both topics); empty: none"),
    CATEGORICAL_MAX_VALUES("gda.categorical.max.values", "256", ValueType.POSITIVE_INT,
            "most distinct values of a categorical feature; events of further values are dead-lettered"),
    CATEGORICAL_ALPHA("gda.categorical.alpha", "1.0", ValueType.NON_NEGATIVE_DOUBLE,
            "scorer: Laplace smoothing α of the categorical probabilities; 0: none"),
    FORGETTING_HALF_LIFE_MS("gda.forgetting.half-life.ms", "", ValueType.OPTIONAL_POSITIVE_DOUBLE,
            "trainer: half-life h (ms of event time): an event of time t weighs 2^(-(T-t)/h) at time T; empty: none"),
    PREQUENTIAL("gda.prequential", "false", ValueType.BOOLEAN,
            "trainer: score each labelled event with the latest published model before applying it (test-then-train)"),
    METRICS_WINDOW_MS("gda.metrics.window.ms", "60000", ValueType.POSITIVE_LONG,
            "trainer: tumbling event-time window (ms) of the prequential records"),
    DRIFT_DELTA("gda.drift.delta", "0.1", ValueType.NON_NEGATIVE_DOUBLE,
            "trainer: Page-Hinkley tolerance δ (nats of prequential log-loss) of the drift test"),
    DRIFT_LAMBDA("gda.drift.lambda", "50", ValueType.OPTIONAL_POSITIVE_DOUBLE,
            "trainer: Page-Hinkley alarm threshold λ (nats) of the drift test on the prequential log-loss;"
                    + " empty: no test"),
    DRIFT_WARMUP_EVENTS("gda.drift.warmup.events", "200", ValueType.POSITIVE_LONG,
            "trainer: events a published model (of the current reset generation) must hold, and every class"
                    + " gda.min.count, before its prequential log-losses feed the drift test"),
    STATISTICS("gda.statistics", "full", ValueType.STATISTICS,
            "trainer: full (the scatter matrix per class, O(d²) per event, any covariance) or diagonal (its diagonal"
                    + " only, O(d) per event, for gda.covariance=diag alone)"),
    DRIFT_ACTION("gda.drift.action", "alert", ValueType.DRIFT_ACTION,
            "trainer: alert (a drift record only) or reset (also start fresh statistics at the alarm)"),
    COVARIANCE("gda.covariance", "full", ValueType.COVARIANCE,
            "scorer: full (QDA), tied (LDA) or diag (naive Bayes)"),
    ESTIMATOR("gda.estimator", "mle", ValueType.ESTIMATOR,
            "scorer: mle or unbiased covariance divisors"),
    REG_PARAM("gda.reg.param", "0.0", ValueType.UNIT_INTERVAL,
            "scorer: shrinkage r of each covariance towards (tr/d)·I"),
    VARIANCE_FLOOR("gda.variance.floor", "1e-9", ValueType.NON_NEGATIVE_DOUBLE,
            "scorer: relative variance floor that keeps a covariance positive definite"),
    MIN_COUNT("gda.min.count", "2", ValueType.POSITIVE_LONG,
            "scorer (and the trainer's prequential scoring and drift warm-up): classes with fewer observations are"
                    + " left out"),
    PRIORS("gda.priors", "", ValueType.PRIORS,
            "scorer: LABEL:P,... fixed prior beliefs P(y=k) (sum 1) instead of the learned ones; unlisted classes"
                    + " are left out; empty: learned"),
    OUTLIER_THRESHOLD("gda.outlier.threshold", "", ValueType.OPTIONAL_DOUBLE,
            "scorer: when set, predictions carry outlier = logDensity < threshold"),
    OUTLIER_P("gda.outlier.p", "", ValueType.OPTIONAL_PROBABILITY,
            "scorer: when set, predictions carry tailProbability and outlier = tailProbability < p"),
    PENDING_MAX("gda.pending.max", "10000", ValueType.POSITIVE_INT,
            "scorer: events held per input partition while no model can score them (none yet, or no scorable class)"),
    OUTPUT_TOP_K("gda.output.top-k", "0", ValueType.TOP_K,
            "scorer: classes a prediction lists, the rest summarised; 0 = every class up to "
                    + ValueType.MAX_TOP_K),
    OUTPUT_IMPUTED("gda.output.imputed", "true", ValueType.BOOLEAN,
            "scorer: an event with missing features gets imputed = their conditional means, and missing "
                    + "categorical features imputedCategories = their most probable values"),
    OUTPUT_EXPLAIN("gda.output.explain", "false", ValueType.BOOLEAN,
            "scorer: predictions carry the per-class log prior, log-likelihood, Mahalanobis distance"),
    DECISION_THRESHOLD("gda.decision.threshold", "", ValueType.DECISION_THRESHOLD,
            "scorer: LABEL:P predicts LABEL when p(LABEL|x) >= P, else the most probable other class"),
    DECISION_COSTS("gda.decision.costs", "", ValueType.DECISION_COSTS,
            "scorer: TRUE->PREDICTED:COST,... predicts the class of minimum expected cost (unlisted: 0-1 loss)"),
    REJECT_OLDER_VERSIONS("gda.model.reject-older-versions", "true", ValueType.BOOLEAN,
            "scorer: refuse a model whose version is lower than the one in force"),
    PARTITIONS("gda.partitions", "4", ValueType.POSITIVE_INT,
            "partitions of the event topics created at start-up"),
    REPLICATION_FACTOR("gda.replication.factor", "-1", ValueType.REPLICATION,
            "replication factor of created topics; -1 = the broker's default"),
    CREATE_TOPICS("gda.create.topics", "true", ValueType.BOOLEAN,
            "create missing topics at start-up"),
    APPLICATION_ID("gda.application.id", "gda-streams", ValueType.NAME,
            "Kafka Streams application.id base: <id>-training, <id>-scoring"),
    HTTP_PORT("gda.http.port", "", ValueType.OPTIONAL_PORT,
            "train/score: port of the HTTP endpoint (health, metrics, models, score, dashboard); empty = no endpoint,"
                    + " 0 = any free port"),
    HTTP_MANAGEMENT_PORT("gda.http.management-port", "", ValueType.OPTIONAL_PORT,
            "train/score: port of a second listener, on gda.http.management-host, that serves /health/* and"
                    + " /metrics only (then not on gda.http.port): probes and scrapers apart from the other clients;"
                    + " empty = none, 0 = any free port"),
    HTTP_HOST("gda.http.host", "127.0.0.1", ValueType.NAME,
            "train/score: address the HTTP endpoint binds (0.0.0.0 = every interface)"),
    HTTP_MANAGEMENT_HOST("gda.http.management-host", "", ValueType.OPTIONAL_TEXT,
            "train/score: address the management listener binds (e.g. the pod's address for the kubelet's probes"
                    + " while the endpoint stays on loopback); empty = gda.http.host"),
    HTTP_MAX_REQUEST_BYTES("gda.http.max-request-bytes", "1048576", ValueType.REQUEST_BYTES,
            "largest request body the HTTP endpoint reads (POST /score; at most 64 MiB); larger: 413"),
    HTTP_TOKEN("gda.http.token", "", ValueType.OPTIONAL_TEXT,
            "bearer token required on /score, /models/*, /api/*; a secret: from the environment (GDA_HTTP_TOKEN)"
                    + " only, refused in a file or on the command line; empty = no token"),
    HTTP_TOKEN_FILE("gda.http.token.file", "", ValueType.OPTIONAL_TEXT,
            "file holding the bearer token (instead of GDA_HTTP_TOKEN); empty = none"),
    HTTP_PROTECT_METRICS("gda.http.protect-metrics", "false", ValueType.BOOLEAN,
            "require the token on /health/* and /metrics too (refused without a token)"),
    HTTP_TLS_KEYSTORE("gda.http.tls.keystore", "", ValueType.OPTIONAL_TEXT,
            "keystore with the endpoint's key and certificate: serve HTTPS; empty = plain HTTP"),
    HTTP_TLS_KEYSTORE_TYPE("gda.http.tls.keystore.type", "PKCS12", ValueType.NAME,
            "type of gda.http.tls.keystore, as Java's KeyStore names it (e.g. PKCS12, JKS); checked when the"
                    + " listener opens"),
    HTTP_TLS_KEYSTORE_PASSWORD("gda.http.tls.keystore.password", "", ValueType.OPTIONAL_TEXT,
            "password of the keystore; a secret: from the environment (GDA_HTTP_TLS_KEYSTORE_PASSWORD) or"
                    + " gda.http.tls.keystore.password.file only"),
    HTTP_TLS_KEYSTORE_PASSWORD_FILE("gda.http.tls.keystore.password.file", "", ValueType.OPTIONAL_TEXT,
            "file holding the keystore password (instead of the environment); empty = none"),
    BROKER_TIMEOUT_MS("gda.broker.timeout.ms", "15000", ValueType.POSITIVE_LONG,
            "train/score: how long start-up waits for the cluster to answer before it fails (exit 1); also how long"
                    + " one check of stalled restores may ask the broker"),
    /*
     * A secret: from the environment (GDA_MODEL_SIGNING_KEY) only, refused in the properties file and on the command
     * line (docs/SECURITY.md); or read from the file gda.model.signing.key.file.
     */
    MODEL_SIGNING_KEY("gda.model.signing.key", "", ValueType.OPTIONAL_TEXT,
            "train/score: model signing keys id:secret[,id:secret...] (first signs, all verify); from the"
                    + " environment or gda.model.signing.key.file only"),
    MODEL_SIGNING_KEY_FILE("gda.model.signing.key.file", "", ValueType.OPTIONAL_TEXT,
            "train/score: file holding gda.model.signing.key's value instead; empty: none"),
    RESTORE_PATIENCE_MS("gda.restore.patience.ms", "300000", ValueType.POSITIVE_LONG,
            "train/score: a changelog restore without progress this long is reported with the broker's view of its"
                    + " partition, and Kafka Streams restarted when the client is stuck (readable records wait); an"
                    + " input held this long at its last stable offset is reported with the transaction that holds it"),
    RESTORE_ABORT_HANGING("gda.restore.abort-hanging", "true", ValueType.BOOLEAN,
            "train: abort a hanging transaction that holds a class-stats restore when its training input was"
                    + " provably never committed (else it is only reported)"),
    PROGRESS_INTERVAL_MS("gda.progress.interval.ms", "30000", ValueType.POSITIVE_LONG,
            "train/score: how often one progress line is logged (events, rate, dead letters, model version and age)");

    /** Every application key starts with it; any other key belongs to Kafka Streams. */
    public static final String PREFIX = "gda.";

    private static final Map<String, ConfigKey> BY_KEY = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(ConfigKey::key, Function.identity()));

    private final String key;
    private final String defaultValue;
    private final ValueType type;
    private final String doc;

    ConfigKey(String key, String defaultValue, ValueType type, String doc) {
        // A default its own validator refuses would fail every start-up that does not set the key.
        if (!type.accepts(defaultValue)) {
            throw new IllegalStateException(key + ": the default '" + defaultValue + "' is not " + type.expected());
        }
        this.key = key;
        this.defaultValue = defaultValue;
        this.type = type;
        this.doc = doc;
    }

    public String key() {
        return key;
    }

    public String defaultValue() {
        return defaultValue;
    }

    /** What a value must look like, and how it is read. */
    public ValueType type() {
        return type;
    }

    /** One line: what the key does. */
    public String doc() {
        return doc;
    }

    public static Optional<ConfigKey> byKey(String key) {
        return Optional.ofNullable(BY_KEY.get(key));
    }

    /** The key whose {@link #environmentVariable()} is {@code variable}. */
    public static Optional<ConfigKey> byEnvironmentVariable(String variable) {
        return Arrays.stream(values()).filter(k -> k.environmentVariable().equals(variable)).findFirst();
    }

    /**
     * The environment variable that overrides this key: upper case, dots and dashes become underscores
     * ({@code gda.topic.dead-letters} → {@code GDA_TOPIC_DEAD_LETTERS}).
     */
    public String environmentVariable() {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** Every key name, in declaration order. */
    public static List<String> names() {
        return Arrays.stream(values()).map(ConfigKey::key).toList();
    }
}
