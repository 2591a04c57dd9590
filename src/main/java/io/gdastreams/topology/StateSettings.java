package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.math.FitOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The settings of a trainer instance that shape its tasks' state: which events a task applies and how it keeps
 * them. Kafka Streams gives tasks to instances without asking how each is configured, so every partial snapshot
 * carries the settings of the instance that made it ({@link #HEADER}), and the combiner holds the model back while
 * they differ from its own ({@link SettingsAgreement}; docs/RELIABILITY.md, "Instances of one application share
 * one configuration"). Settings that only change what the trainer reports (publish interval, prequential metrics
 * that reset nothing, ports) are not among them, nor the bounds ({@code gda.max.classes}, {@code gda.max.features},
 * {@code gda.categorical.max.values}, the model size): they refuse events, dead-lettered with the reason, but do not
 * change the form of what is kept, and states kept under two bounds merge soundly.
 *
 * <p>Encoded as UTF-8 lines {@code key=value}, in a fixed key order; a value longer than {@link #MAX_PLAIN_CHARS}
 * characters (a long feature list) travels as a digest, so the header stays small whatever the schema. Only keys
 * both sides carry are compared: an instance of a later release may send more, one of an earlier release none. The
 * text of a key's value must therefore never change between releases (add a key instead): a rolling upgrade would
 * hold the model until it ends.
 */
final class StateSettings {

    /** The header of a partial snapshot record that carries its sender's settings. */
    static final String HEADER = "gda.trainer.settings";
    /** Values longer than this travel as {@code sha256:} and the first 16 hex digits of their digest. */
    static final int MAX_PLAIN_CHARS = 64;
    /** A header longer than this (not one this class wrote) is not read: the sender's settings are then unknown. */
    static final int MAX_HEADER_BYTES = 16 * 1024;
    /** What an unset optional key reads as. */
    static final String NONE = "none";

    /** One key on which two instances differ: {@code theirs} the snapshot sender's value, {@code ours} this one's. */
    record Difference(String key, String theirs, String ours) {

        @Override
        public String toString() {
            return key + "=" + theirs + " (here: " + ours + ")";
        }
    }

    /** Key → value text, in encoding order. */
    private final Map<String, String> values;

    private StateSettings(Map<String, String> values) {
        this.values = values;
    }

    /** The settings of a trainer configured with {@code settings}. */
    static StateSettings of(TrainingSettings settings) {
        Map<String, String> values = new LinkedHashMap<>();
        putNames(values, ConfigKey.FEATURES, settings.features());
        putNames(values, ConfigKey.CATEGORICAL_FEATURES, settings.categorical().features());
        put(values, ConfigKey.STATISTICS, lower(settings.statistics()));
        put(values, ConfigKey.FORGETTING_HALF_LIFE_MS,
                settings.forgetting() == null ? NONE : number(settings.forgetting().halfLifeMs()));
        // A drift alarm that resets starts fresh statistics: when alarms fire shapes the state, and they fire on the
        // log-loss of the test-then-train scorer's fit. One that only alerts (or no evaluation at all) changes
        // nothing kept, so none of that is compared then.
        PrequentialSettings prequential = settings.prequential();
        boolean resets = prequential != null && prequential.driftReset();
        put(values, ConfigKey.DRIFT_ACTION, resets ? "reset" : "alert");
        if (resets) {
            put(values, ConfigKey.DRIFT_DELTA, number(prequential.driftDelta()));
            put(values, ConfigKey.DRIFT_LAMBDA, number(prequential.driftLambda()));
            put(values, ConfigKey.DRIFT_WARMUP_EVENTS, Long.toString(prequential.driftWarmupEvents()));
            values.putAll(fitValues(prequential.fitOptions(), prequential.alpha()));
        }
        return new StateSettings(values);
    }

    /**
     * What turns statistics into probabilities: the fit options and the categorical smoothing α, as
     * {@code key=value} texts in a fixed order (the test-then-train scorer's here, a scorer's in {@link ScorerFit}).
     */
    static Map<String, String> fitValues(FitOptions fit, double alpha) {
        Map<String, String> values = new LinkedHashMap<>();
        put(values, ConfigKey.COVARIANCE, lower(fit.covarianceType()));
        put(values, ConfigKey.ESTIMATOR, lower(fit.estimator()));
        put(values, ConfigKey.REG_PARAM, number(fit.regParam()));
        put(values, ConfigKey.VARIANCE_FLOOR, number(fit.varianceFloor()));
        put(values, ConfigKey.MIN_COUNT, Long.toString(fit.minCount()));
        // By label: the order the priors were written in does not change them.
        put(values, ConfigKey.PRIORS, fit.fixedPriors().isEmpty() ? NONE : String.join(",",
                new TreeMap<>(fit.fixedPriors()).entrySet().stream()
                        .map(e -> e.getKey() + ":" + number(e.getValue())).toList()));
        put(values, ConfigKey.CATEGORICAL_ALPHA, number(alpha));
        return values;
    }

    /**
     * The value of the last {@link #HEADER} in {@code headers}, or null when there is none or it is longer than
     * {@link #MAX_HEADER_BYTES}: what the combiner keeps of a snapshot's sender.
     */
    static byte[] headerValue(Headers headers) {
        Header header = headers == null ? null : headers.lastHeader(HEADER);
        return header == null || header.value() == null || header.value().length > MAX_HEADER_BYTES ? null
                : header.value();
    }

    /**
     * The settings a header value ({@link #headerValue}, or as kept in the combiner's store) holds, empty for null or
     * a value without one {@code key=value} line.
     */
    static Optional<StateSettings> decode(byte[] value) {
        if (value == null) {
            return Optional.empty();
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : new String(value, StandardCharsets.UTF_8).split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return values.isEmpty() ? Optional.empty() : Optional.of(new StateSettings(values));
    }

    /** The header value: one {@code key=value} line per key. */
    byte[] encoded() {
        return lines(values).getBytes(StandardCharsets.UTF_8);
    }

    /** {@code values} as text, one {@code key=value} line each, in their order. */
    static String lines(Map<String, String> values) {
        StringBuilder text = new StringBuilder();
        values.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        return text.toString();
    }

    /** The keys both carry on which {@code theirs} differs from these settings, in key order. */
    List<Difference> differencesFrom(StateSettings theirs) {
        List<Difference> differences = new ArrayList<>();
        values.forEach((key, ours) -> {
            String other = theirs.values.get(key);
            if (other != null && !other.equals(ours)) {
                differences.add(new Difference(key, other, ours));
            }
        });
        return differences;
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    private static void put(Map<String, String> values, ConfigKey key, String value) {
        values.put(key.key(), plain(value));
    }

    /**
     * A list of names: as written when short, else its digest after the number of names, so that a warning about
     * two long lists still says something an operator can check ({@code 200 names, sha256:…}).
     */
    private static void putNames(Map<String, String> values, ConfigKey key, List<String> names) {
        String text = String.join(",", names);
        String plain = plain(text);
        values.put(key.key(), plain.equals(text) ? text : names.size() + " names, " + plain);
    }

    /** {@code value}, or its digest when long or not one line: both sides encode alike, so equal stays equal. */
    static String plain(String value) {
        if (value.length() <= MAX_PLAIN_CHARS && value.indexOf('\n') < 0 && value.indexOf('\r') < 0) {
            return value;
        }
        return digest(value);
    }

    /** {@code sha256:} and the first 16 hex digits of the SHA-256 of {@code value}'s UTF-8 bytes. */
    static String digest(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** A number as written in a configuration: 60000 rather than 60000.0. */
    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : Double.toString(value);
    }
}
