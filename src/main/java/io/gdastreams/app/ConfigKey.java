package io.gdastreams.app;

import io.gdastreams.topology.ScoringSettings;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every application key ({@code gda.*}) with its default and its value type. {@code config/app.properties}
 * documents the same keys with the same defaults (a test keeps them in step).
 */
public enum ConfigKey {
    MODEL_ID("gda.model.id", "gda", ValueType.NAME),
    FEATURES("gda.features", "", ValueType.NAME_LIST),
    TOPIC_LABELLED("gda.topic.labelled", "labelled-events", ValueType.TOPIC),
    TOPIC_UNLABELLED("gda.topic.unlabelled", "unlabelled-events", ValueType.TOPIC),
    TOPIC_MODEL("gda.topic.model", "model-parameters", ValueType.TOPIC),
    TOPIC_PREDICTIONS("gda.topic.predictions", "predictions", ValueType.TOPIC),
    TOPIC_DEAD_LETTERS("gda.topic.dead-letters", "dead-letters", ValueType.TOPIC),
    PUBLISH_INTERVAL_MS("gda.publish.interval.ms", "1000", ValueType.POSITIVE_LONG),
    MAX_CLASSES("gda.max.classes", "1000", ValueType.POSITIVE_INT),
    MAX_FEATURES("gda.max.features", "1024", ValueType.POSITIVE_INT),
    COVARIANCE("gda.covariance", "full", ValueType.COVARIANCE),
    ESTIMATOR("gda.estimator", "mle", ValueType.ESTIMATOR),
    REG_PARAM("gda.reg.param", "0.0", ValueType.UNIT_INTERVAL),
    VARIANCE_FLOOR("gda.variance.floor", "1e-9", ValueType.NON_NEGATIVE_DOUBLE),
    MIN_COUNT("gda.min.count", "2", ValueType.POSITIVE_LONG),
    OUTLIER_THRESHOLD("gda.outlier.threshold", "", ValueType.OPTIONAL_DOUBLE),
    PENDING_MAX("gda.pending.max", "10000", ValueType.POSITIVE_INT),
    OUTPUT_TOP_K("gda.output.top-k", "0", ValueType.TOP_K),
    REJECT_OLDER_VERSIONS("gda.model.reject-older-versions", "true", ValueType.BOOLEAN),
    PARTITIONS("gda.partitions", "4", ValueType.POSITIVE_INT),
    REPLICATION_FACTOR("gda.replication.factor", "-1", ValueType.REPLICATION),
    CREATE_TOPICS("gda.create.topics", "true", ValueType.BOOLEAN),
    APPLICATION_ID("gda.application.id", "gda-streams", ValueType.NAME);

    /**
     * Longest model or application id: as long as a topic name may be. The model id is written in every
     * prediction and keys every model record, so it needs a bound like everything an output repeats.
     */
    static final int MAX_NAME_CHARS = 249;

    private static final Map<String, ConfigKey> BY_KEY = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(ConfigKey::key, Function.identity()));

    private final String key;
    private final String defaultValue;
    private final ValueType type;

    ConfigKey(String key, String defaultValue, ValueType type) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.type = type;
    }

    public String key() {
        return key;
    }

    public String defaultValue() {
        return defaultValue;
    }

    ValueType type() {
        return type;
    }

    public static Optional<ConfigKey> byKey(String key) {
        return Optional.ofNullable(BY_KEY.get(key));
    }

    /**
     * The environment variable that overrides this key: upper case, dots and dashes become underscores
     * ({@code gda.topic.dead-letters} → {@code GDA_TOPIC_DEAD_LETTERS}).
     */
    public String environmentVariable() {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** What a value of a key must look like. */
    enum ValueType {
        NAME("a non-blank name of at most " + ConfigKey.MAX_NAME_CHARS + " characters"),
        NAME_LIST("a comma-separated list of names (empty = from the first labelled event)"),
        TOPIC("a topic name (letters, digits, '.', '_', '-'; at most 249 characters)"),
        POSITIVE_LONG("an integer >= 1"),
        POSITIVE_INT("an integer >= 1"),
        REPLICATION("an integer >= 1, or -1 for the broker default"),
        TOP_K("an integer in [0, " + ScoringSettings.MAX_OUTPUT_TOP_K + "] (0 = every class, at most "
                + ScoringSettings.MAX_OUTPUT_TOP_K + ")"),
        UNIT_INTERVAL("a number in [0, 1]"),
        NON_NEGATIVE_DOUBLE("a finite number >= 0"),
        OPTIONAL_DOUBLE("a number, or empty for none"),
        COVARIANCE("one of full, tied, diag"),
        ESTIMATOR("one of mle, unbiased"),
        BOOLEAN("true or false");

        private final String expected;

        ValueType(String expected) {
            this.expected = expected;
        }

        String expected() {
            return expected;
        }

        boolean accepts(String value) {
            String v = value.trim();
            Long n = parseLong(v);
            Double x = parseDouble(v);
            return switch (this) {
                case NAME -> !v.isEmpty() && v.length() <= MAX_NAME_CHARS;
                case NAME_LIST -> v.isEmpty() || Arrays.stream(v.split(",", -1)).noneMatch(String::isBlank);
                case TOPIC -> v.matches("[A-Za-z0-9._-]{1,249}") && !v.equals(".") && !v.equals("..");
                case POSITIVE_LONG -> n != null && n >= 1;
                case POSITIVE_INT -> n != null && n >= 1 && n <= Integer.MAX_VALUE;
                case REPLICATION -> n != null && (n == -1 || (n >= 1 && n <= Short.MAX_VALUE));
                case TOP_K -> n != null && n >= 0 && n <= ScoringSettings.MAX_OUTPUT_TOP_K;
                case UNIT_INTERVAL -> x != null && x >= 0.0 && x <= 1.0;
                case NON_NEGATIVE_DOUBLE -> x != null && Double.isFinite(x) && x >= 0.0;
                case OPTIONAL_DOUBLE -> v.isEmpty() || (x != null && !Double.isNaN(x));
                case COVARIANCE -> v.equals("full") || v.equals("tied") || v.equals("diag");
                case ESTIMATOR -> v.equals("mle") || v.equals("unbiased");
                case BOOLEAN -> v.equals("true") || v.equals("false");
            };
        }

        private static Long parseLong(String v) {
            try {
                return Long.parseLong(v);
            } catch (NumberFormatException e) {
                return null;
            }
        }

        private static Double parseDouble(String v) {
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }
}
