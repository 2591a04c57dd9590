package io.gdastreams.view;

import io.gdastreams.math.Conditioning;
import io.gdastreams.math.Exclusion;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.model.AppliedEvents;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.ModelConversion;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A model record as a table for people ({@code inspect}): identity, version and age, lineage, which classes a scorer
 * scores under the configured fit options, then one row per class with count, prior, mean and the condition number
 * of its stored (MLE) covariance. Numbers are printed with
 * enough digits to tell models apart, not to reproduce them: {@code inspect --json} gives the record itself.
 */
public final class ModelTable {

    /** Classes listed; a model may hold thousands (gda.max.classes), the rest are counted. */
    public static final int MAX_LISTED_CLASSES = 50;
    /** Lineage partitions listed; the rest are summed. */
    public static final int MAX_LISTED_SOURCES = 20;
    /** Classes named on the scoring line as left out; the rest are counted. */
    static final int MAX_LEFT_OUT_NAMED = 10;

    private ModelTable() {
    }

    /**
     * The table, lines ending in '\n'; {@code now} for the age, {@code scoring} the scorer's fit options
     * ({@code gda.covariance}, {@code gda.estimator}, {@code gda.min.count}, ...) for the scoring line.
     */
    public static String render(ModelParameters model, Instant now, FitOptions scoring) {
        StringBuilder out = new StringBuilder();
        line(out, "model", printable(model.modelId()));
        line(out, "version", Long.toString(model.version()));
        line(out, "published", model.updatedAt() + age(model.updatedAt(), now));
        line(out, "trainer", model.trainer().isEmpty() ? "(none: handed over by reset, or built outside a trainer)"
                : printable(model.trainer()));
        line(out, "events", String.format(Locale.ROOT, "%,d", model.totalCount())
                + AppliedEvents.beyondTheClasses(model));
        line(out, "features", model.features().size() + ": " + printable(String.join(", ", model.features())));
        if (!model.categorical().isEmpty()) {
            List<String> names = new ArrayList<>();
            for (CategoricalTable table : model.categorical()) {
                names.add(printable(table.feature()));
            }
            line(out, "categorical", names.size() + ": " + String.join(", ", names));
        }
        line(out, "lineage", lineage(model.sources()));
        line(out, "scoring", scoring(model, scoring));
        out.append('\n');
        classes(out, model);
        return out.toString();
    }

    /**
     * Which classes a scorer with {@code options} scores, fitted as it fits them: every one, some (the others named
     * with why they are left out), or none (then it holds events until a version that can score them).
     */
    static String scoring(ModelParameters model, FitOptions options) {
        String how = options.covarianceType().name().toLowerCase(Locale.ROOT) + " covariance, "
                + options.estimator().name().toLowerCase(Locale.ROOT) + ", gda.min.count " + options.minCount();
        List<Exclusion> leftOut;
        try {
            leftOut = GaussianModel.fit(ModelConversion.classSummaries(model), options).excluded();
        } catch (IllegalArgumentException e) {
            return "none: the model does not fit under the scorer's options (" + how + "): "
                    + printable(e.getMessage());
        }
        int classes = model.classes().size();
        if (leftOut.isEmpty()) {
            return "every class (" + how + ")";
        }
        String named = printable(Exclusion.describe(leftOut, MAX_LEFT_OUT_NAMED));
        return leftOut.size() == classes
                ? "no class (" + how + "): " + named + "; a scorer holds events until a version that can score them"
                : (classes - leftOut.size()) + " of " + classes + " classes (" + how + "); left out: " + named;
    }

    /**
     * Why no scorer with {@code options} can fit {@code model} (a malformed model: a covariance that is not
     * symmetric, a mean of the wrong length, ...; printable), or empty when it fits (some classes may still be left
     * out, which a young model's are).
     */
    public static Optional<String> fitProblem(ModelParameters model, FitOptions options) {
        try {
            GaussianModel.fit(ModelConversion.classSummaries(model), options);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(printable(e.getMessage()));
        }
    }

    /**
     * {@code text} with its control characters (a newline would break the table; ESC sequences would drive the
     * terminal) and lone surrogates written as \\uXXXX escapes. The scorer refuses such labels; a model file or a
     * topic record may still carry them, and inspect is where one looks at it.
     */
    static String printable(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean lone = Character.isHighSurrogate(c) ? i + 1 >= text.length()
                    || !Character.isLowSurrogate(text.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
            if (Character.isISOControl(c) || lone) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 8).append(text, 0, i);
                }
                out.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }

    private static void classes(StringBuilder out, ModelParameters model) {
        List<String[]> rows = new ArrayList<>();
        int listed = Math.min(model.classes().size(), MAX_LISTED_CLASSES);
        // Weighted or forgetting statistics: the weight W and Kish's effective sample size W²/V, which the priors and
        // gda.min.count go by, beside the raw count of events.
        boolean weighted = model.classes().stream().limit(listed).anyMatch(ClassParameters::carriesWeights);
        String mean = "mean (" + printable(String.join(", ", model.features())) + ")";
        rows.add(weighted ? new String[] {"class", "count", "weight", "eff. n", "prior", "cond(Σ)", mean}
                : new String[] {"class", "count", "prior", "cond(Σ)", mean});
        for (int i = 0; i < listed; i++) {
            ClassParameters c = model.classes().get(i);
            String label = printable(c.label());
            String count = String.format(Locale.ROOT, "%,d", c.count());
            String prior = String.format(Locale.ROOT, "%.4f", c.prior());
            rows.add(!weighted ? new String[] {label, count, prior, condition(c.covariance()), vector(c.mean())}
                    : new String[] {label, count, c.carriesWeights() ? weight(c.effectiveCount()) : count,
                            c.carriesWeights() ? weight(c.sampleSize()) : count, prior, condition(c.covariance()),
                            vector(c.mean())});
        }
        int[] widths = new int[rows.get(0).length - 1];
        for (String[] row : rows) {
            for (int j = 0; j < widths.length; j++) {
                widths[j] = Math.max(widths[j], row[j].length());
            }
        }
        for (String[] row : rows) {
            out.append(String.format(Locale.ROOT, "%-" + widths[0] + "s", row[0]));
            for (int j = 1; j < widths.length; j++) {
                out.append(String.format(Locale.ROOT, "  %" + widths[j] + "s", row[j]));
            }
            out.append("  ").append(row[row.length - 1]).append('\n');
        }
        if (model.classes().size() > listed) {
            out.append("… and ").append(model.classes().size() - listed).append(" more classes (--json lists all)\n");
        }
        out.append("\ncond(Σ) = λmax/λmin of the class's stored MLE covariance (∞: singular); above ~1e12 a "
                + "full-covariance fit relies on gda.reg.param or the variance floor.\n");
    }

    /** A weight with one decimal (a forgetting class's weight is a fraction of its count). */
    private static String weight(double weight) {
        return String.format(Locale.ROOT, "%,.1f", weight);
    }

    /** κ in 3 significant digits, or ∞. */
    static String condition(double[][] covariance) {
        double kappa = Conditioning.conditionNumber(covariance);
        return Double.isInfinite(kappa) ? "∞" : String.format(Locale.ROOT, "%.3g", kappa);
    }

    private static String vector(double[] values) {
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            text.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.5g", values[i]));
        }
        return text.append(']').toString();
    }

    /** "3 partitions, 150 events: 0→50, 1→50, 2→50" in partition order. */
    static String lineage(Map<String, Long> sources) {
        if (sources.isEmpty()) {
            return "(none)";
        }
        Map<Integer, Long> ordered = new TreeMap<>();
        long total = 0;
        for (Map.Entry<String, Long> e : sources.entrySet()) {
            ordered.put(partition(e.getKey()), e.getValue());
            total += e.getValue();
        }
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "%d partition%s, next offsets summing to %,d: ", ordered.size(), ordered.size() == 1 ? "" : "s",
                total));
        int i = 0;
        for (Map.Entry<Integer, Long> e : ordered.entrySet()) {
            if (i == MAX_LISTED_SOURCES) {
                text.append(", … ").append(ordered.size() - i).append(" more");
                break;
            }
            text.append(i++ == 0 ? "" : ", ").append(e.getKey()).append('→').append(e.getValue());
        }
        return text.toString();
    }

    private static int partition(String key) {
        try {
            return Integer.parseInt(key);
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE; // ModelSerde admits only partition numbers; keep going regardless
        }
    }

    /** " (3 h 12 min ago)", or nothing when the instant does not parse. */
    static String age(String updatedAt, Instant now) {
        Instant published;
        try {
            published = Instant.parse(updatedAt);
        } catch (DateTimeParseException e) {
            return "";
        }
        Duration age = Duration.between(published, now);
        if (age.isNegative()) {
            return " (in the future: check the clocks)";
        }
        long seconds = age.toSeconds();
        String text;
        if (seconds < 60) {
            text = seconds + " s";
        } else if (seconds < 3600) {
            text = age.toMinutes() + " min";
        } else if (seconds < 86_400 * 2) {
            text = age.toHours() + " h " + age.toMinutesPart() + " min";
        } else {
            text = age.toDays() + " days";
        }
        return " (" + text + " ago)";
    }

    private static void line(StringBuilder out, String name, String value) {
        out.append(String.format(Locale.ROOT, "%-12s %s%n", name + ":", value));
    }
}
