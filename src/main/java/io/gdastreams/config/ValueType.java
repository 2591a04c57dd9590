package io.gdastreams.config;

import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.Statistics;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a value of a key must look like, and what it reads as: one {@link #parse} serves as the validator of every
 * source and as the reader of the typed value, so a value that passed validation always reads the same way.
 */
public enum ValueType {
    /** A {@link String}. */
    NAME,
    /** A {@code List<String>} of distinct names; empty for the empty string. */
    NAME_LIST,
    /** A {@link String}. */
    TOPIC,
    /** A {@link Long}. */
    POSITIVE_LONG,
    /** An {@link Integer}. */
    POSITIVE_INT,
    /** An {@link Integer} in [1, {@link #MAX_REQUEST_BYTES}]: a request body the HTTP endpoint holds in memory. */
    REQUEST_BYTES,
    /** A {@link Short}. */
    REPLICATION,
    /** An {@link Integer}. */
    TOP_K,
    /** A {@link Double}. */
    UNIT_INTERVAL,
    /** A {@link Double}. */
    NON_NEGATIVE_DOUBLE,
    /** An {@link OptionalDouble}. */
    OPTIONAL_DOUBLE,
    /** An {@link OptionalDouble} in (0, 1): a probability threshold, empty for none. */
    OPTIONAL_PROBABILITY,
    /** An {@link OptionalDouble}, finite and &gt; 0 (a half-life), empty for none. */
    OPTIONAL_POSITIVE_DOUBLE,
    /** A {@code Map<String, Double>} of fixed priors {@code label:p,...}, in order; empty for none. */
    PRIORS,
    /** A {@link CovarianceType}, named in lower case. */
    COVARIANCE,
    /** An {@link Estimator}, named in lower case. */
    ESTIMATOR,
    /** A {@link Statistics}, named in lower case. */
    STATISTICS,
    /** A {@link Boolean}. */
    BOOLEAN,
    /** An {@code Optional<DecisionRule.Threshold>}: {@code label:p}, or empty for none. */
    DECISION_THRESHOLD,
    /** An {@code Optional<DecisionRule.MinimumExpectedCost>}: {@code true->predicted:cost,...}, or empty for none. */
    DECISION_COSTS,
    /** An {@link java.util.OptionalInt}: a TCP port in [0, 65535] (0 = any free port), or empty for none. */
    OPTIONAL_PORT,
    /** A {@link String}, any text (a path, a secret), empty for none; never quoted back in an error. */
    OPTIONAL_TEXT,
    /** A {@link String}: what a drift alarm does, {@code alert} or {@code reset}. */
    DRIFT_ACTION;

    /**
     * Longest model or application id: as long as a topic name may be. The model id is written in every
     * prediction and keys every model record, so it needs a bound like everything an output repeats.
     */
    public static final int MAX_NAME_CHARS = 249;

    /**
     * Most classes a prediction lists in {@code probabilities}, and in {@code excluded} ({@code gda.output.top-k}).
     * With labels of at most 256 UTF-16 units (at most 768 bytes of UTF-8; control characters, which JSON would
     * escape, are refused) an entry takes at most about 800 bytes, an excluded entry with its reason about 1.2 kB:
     * 256 of each stay below 512 KiB with the rest of the prediction, and so does the record with its key (at most
     * 64 KiB) below the broker's 1 MiB default, whatever the number of classes.
     */
    public static final int MAX_TOP_K = 256;
    /** The largest {@link #REQUEST_BYTES}: 64 MiB (an event on the topics is bounded at 1 MiB). */
    public static final int MAX_REQUEST_BYTES = 64 << 20;

    private static final Pattern TOPIC_NAME = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_NAME_CHARS + "}");

    /** What a valid value looks like, for error messages and help. */
    public String expected() {
        return switch (this) {
            case NAME -> "a non-blank name of at most " + MAX_NAME_CHARS + " characters";
            case NAME_LIST -> "a comma-separated list of distinct names (empty = from the first labelled event)";
            case TOPIC -> "a topic name (letters, digits, '.', '_', '-'; at most " + MAX_NAME_CHARS + " characters)";
            case POSITIVE_LONG, POSITIVE_INT -> "an integer >= 1";
            case REQUEST_BYTES -> "an integer in [1, " + MAX_REQUEST_BYTES + "] (64 MiB: each of the endpoint's"
                    + " workers holds one request body in memory)";
            case REPLICATION -> "an integer >= 1, or -1 for the broker default";
            case TOP_K -> "an integer in [0, " + MAX_TOP_K + "] (0 = every class, at most " + MAX_TOP_K + ")";
            case UNIT_INTERVAL -> "a number in [0, 1]";
            case NON_NEGATIVE_DOUBLE -> "a finite number >= 0";
            case OPTIONAL_DOUBLE -> "a number, or empty for none";
            case OPTIONAL_PROBABILITY -> "a number in (0, 1), or empty for none";
            case OPTIONAL_POSITIVE_DOUBLE -> "a finite number > 0, or empty for none";
            case PRIORS -> "a comma-separated list of LABEL:P (labels without ',', each once, P in (0, 1], summing"
                    + " to 1), or empty for none";
            case COVARIANCE -> "one of " + String.join(", ", lowerCaseNames(CovarianceType.values()));
            case ESTIMATOR -> "one of " + String.join(", ", lowerCaseNames(Estimator.values()));
            case STATISTICS -> "one of " + String.join(", ", lowerCaseNames(Statistics.values()));
            case BOOLEAN -> "true or false";
            case DECISION_THRESHOLD -> "LABEL:P with P in [0, 1] (the label may not contain ','), or empty for none";
            case DECISION_COSTS -> "a comma-separated list of TRUE->PREDICTED:COST (labels without ',' or '->',"
                    + " each pair once, costs finite and >= 0), or empty for none";
            case OPTIONAL_PORT -> "a port in [0, 65535] (0 = any free port), or empty for none";
            case OPTIONAL_TEXT -> "any text, or empty for none";
            case DRIFT_ACTION -> "alert or reset";
        };
    }

    public boolean accepts(String value) {
        return parse(value).isPresent();
    }

    /**
     * The value as the type named in this constant's comment (surrounding white space ignored), or empty when it
     * is not valid.
     */
    public Optional<Object> parse(String value) {
        String v = value.trim();
        return Optional.ofNullable(switch (this) {
            case NAME -> !v.isEmpty() && v.length() <= MAX_NAME_CHARS ? v : null;
            case NAME_LIST -> names(v);
            case TOPIC -> TOPIC_NAME.matcher(v).matches() && !v.equals(".") && !v.equals("..") ? v : null;
            case POSITIVE_LONG -> inRange(v, 1, Long.MAX_VALUE);
            case POSITIVE_INT -> intOrNull(inRange(v, 1, Integer.MAX_VALUE));
            case REQUEST_BYTES -> intOrNull(inRange(v, 1, MAX_REQUEST_BYTES));
            case REPLICATION -> replication(inRange(v, -1, Short.MAX_VALUE));
            case TOP_K -> intOrNull(inRange(v, 0, MAX_TOP_K));
            case UNIT_INTERVAL -> number(v, x -> x >= 0.0 && x <= 1.0);
            case NON_NEGATIVE_DOUBLE -> number(v, x -> Double.isFinite(x) && x >= 0.0);
            case OPTIONAL_DOUBLE -> v.isEmpty() ? OptionalDouble.empty()
                    : Optional.ofNullable(number(v, x -> !Double.isNaN(x))).map(OptionalDouble::of).orElse(null);
            case OPTIONAL_PROBABILITY -> v.isEmpty() ? OptionalDouble.empty()
                    : Optional.ofNullable(number(v, x -> x > 0.0 && x < 1.0)).map(OptionalDouble::of).orElse(null);
            case OPTIONAL_POSITIVE_DOUBLE -> v.isEmpty() ? OptionalDouble.empty()
                    : Optional.ofNullable(number(v, x -> Double.isFinite(x) && x > 0.0)).map(OptionalDouble::of)
                            .orElse(null);
            case PRIORS -> v.isEmpty() ? Map.of() : priors(v).orElse(null);
            case COVARIANCE -> byLowerCaseName(CovarianceType.values(), v);
            case ESTIMATOR -> byLowerCaseName(Estimator.values(), v);
            case STATISTICS -> byLowerCaseName(Statistics.values(), v);
            case BOOLEAN -> v.equals("true") ? Boolean.TRUE : v.equals("false") ? Boolean.FALSE : null;
            case DECISION_THRESHOLD -> v.isEmpty() ? Optional.empty() : threshold(v).map(Optional::of).orElse(null);
            case DECISION_COSTS -> v.isEmpty() ? Optional.empty() : costs(v).map(Optional::of).orElse(null);
            case OPTIONAL_PORT -> v.isEmpty() ? java.util.OptionalInt.empty()
                    : Optional.ofNullable(intOrNull(inRange(v, 0, 65535))).map(java.util.OptionalInt::of).orElse(null);
            case OPTIONAL_TEXT -> v;
            case DRIFT_ACTION -> v.equals("alert") || v.equals("reset") ? v : null;
        });
    }

    /** {@code label:p}; the last ':' separates them, so a label may contain ':'. */
    private static Optional<DecisionRule.Threshold> threshold(String v) {
        int colon = v.lastIndexOf(':');
        String label = colon < 0 ? "" : v.substring(0, colon).trim();
        Double p = colon < 0 ? null : number(v.substring(colon + 1).trim(), x -> x >= 0.0 && x <= 1.0);
        return label.isEmpty() || label.contains(",") || p == null ? Optional.empty()
                : Optional.of(new DecisionRule.Threshold(label, p));
    }

    /** {@code label:p,...}: the last ':' of an entry starts its probability; checked as {@link FitOptions} does. */
    private static Optional<Map<String, Double>> priors(String v) {
        Map<String, Double> priors = new LinkedHashMap<>();
        for (String entry : v.split(",", -1)) {
            int colon = entry.lastIndexOf(':');
            String label = colon < 0 ? "" : entry.substring(0, colon).trim();
            Double p = colon < 0 ? null : number(entry.substring(colon + 1).trim(), x -> x > 0.0 && x <= 1.0);
            if (label.isEmpty() || p == null || priors.put(label, p) != null) {
                return Optional.empty();
            }
        }
        return FitOptions.fixedPriorsProblem(priors) == null ? Optional.of(priors) : Optional.empty();
    }

    /** {@code true->predicted:cost,...}: the last ':' of an entry starts its cost, its first "->" ends the truth. */
    private static Optional<DecisionRule.MinimumExpectedCost> costs(String v) {
        Map<String, Map<String, Double>> costs = new LinkedHashMap<>();
        for (String entry : v.split(",", -1)) {
            int colon = entry.lastIndexOf(':');
            int arrow = entry.indexOf("->");
            if (colon < 0 || arrow < 0 || arrow > colon) {
                return Optional.empty();
            }
            String truth = entry.substring(0, arrow).trim();
            String predicted = entry.substring(arrow + 2, colon).trim();
            Double cost = number(entry.substring(colon + 1).trim(), x -> Double.isFinite(x) && x >= 0.0);
            if (truth.isEmpty() || predicted.isEmpty() || predicted.contains("->") || cost == null
                    || costs.computeIfAbsent(truth, t -> new LinkedHashMap<>()).put(predicted, cost) != null) {
                return Optional.empty();
            }
        }
        return Optional.of(new DecisionRule.MinimumExpectedCost(costs));
    }

    private static List<String> names(String v) {
        if (v.isEmpty()) {
            return List.of();
        }
        List<String> names = Arrays.stream(v.split(",", -1)).map(String::trim).toList();
        // A duplicate would reach TrainingSettings and fail there with an exception instead of a config error.
        boolean valid = names.stream().noneMatch(String::isEmpty) && new HashSet<>(names).size() == names.size();
        return valid ? names : null;
    }

    private static Long inRange(String v, long min, long max) {
        try {
            long n = Long.parseLong(v);
            return n >= min && n <= max ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Integer intOrNull(Long n) {
        return n == null ? null : Math.toIntExact(n);
    }

    private static Short replication(Long n) {
        return n == null || n == 0 ? null : (short) (long) n;
    }

    private static Double number(String v, DoublePredicate valid) {
        try {
            double x = Double.parseDouble(v);
            return valid.test(x) ? x : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static <E extends Enum<E>> E byLowerCaseName(E[] constants, String v) {
        return Arrays.stream(constants).filter(c -> c.name().toLowerCase(Locale.ROOT).equals(v)).findFirst()
                .orElse(null);
    }

    private static List<String> lowerCaseNames(Enum<?>[] constants) {
        return Arrays.stream(constants).map(c -> c.name().toLowerCase(Locale.ROOT)).collect(Collectors.toList());
    }
}
