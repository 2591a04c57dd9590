package io.gdastreams.topology;

import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.UnicodeText;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scorer's model in force, in compiled form, shared by the global-store updater (which offers every record of
 * the model topic) and the scoring tasks of one topology (which read it once per event). It decides which record
 * becomes the model in force, and counts and logs every record it refuses:
 * <ul>
 *   <li>a record that is not a valid model (unreadable, a tombstone, another model id, does not compile) is
 *       <em>invalid</em>; the model in force stays, so a bad record or a tombstone never leaves the scorer without
 *       a model;</li>
 *   <li>a record of the version in force is compiled once: with the same content it is a no-op (a replayed or
 *       re-published record), with other content it is a <em>conflicting</em> version and refused (two models
 *       under one version: the one in force stays, the predictions it stamped keep their meaning);</li>
 *   <li>a lower version than the one in force is an <em>older</em> version: refused when {@code
 *       rejectOlderVersions} (the default: a regressed trainer must not roll scorers back), else put in force with
 *       a warning (the latest record is the truth, e.g. after a deliberate trainer reset).</li>
 * </ul>
 * While no model is in force, any valid model is accepted, whatever its version.
 *
 * <p>A model in force can score events only when at least one of its classes is not excluded under the scorer's fit
 * options ({@link #scorable()}): the first models of a stream, built from a few events, often have every class
 * below {@code gda.min.count}. Until one can, the scoring tasks hold events as they do before a first model, and
 * {@link #notScoring()} says why.
 *
 * <p>The counters only grow; they are the figures a metric will export.
 *
 * <p>Thread-safe: offers are serialised; readers see the latest compiled model through a volatile read.
 */
final class CompiledModelCache {

    private static final Logger LOG = LoggerFactory.getLogger(CompiledModelCache.class);

    /** Longest reason kept for the "no valid model" description (a parser message can quote a lot). */
    private static final int MAX_REASON_CHARS = 300;

    /** What {@link #offer} did with a model. */
    enum Outcome {
        /** The model is now in force (compiled). */
        IN_FORCE,
        /** The same model is already in force; nothing changed. */
        UNCHANGED,
        /** Refused (invalid, conflicting or older); the previous model, if any, stays in force. */
        REJECTED
    }

    private final String modelId;
    private final FitOptions options;
    /** Most classes a prediction lists ({@link ScoringSettings#listedClasses()}). */
    private final int listed;
    /** The Laplace smoothing α of the categorical probabilities. */
    private final double alpha;
    private final boolean rejectOlderVersions;
    private final DecisionRule decisionRule;
    private final AtomicLong compilations = new AtomicLong();
    private final AtomicLong invalidRecords = new AtomicLong();
    private final AtomicLong conflictingVersions = new AtomicLong();
    private final AtomicLong olderVersions = new AtomicLong();
    private final AtomicBoolean absenceReported = new AtomicBoolean();
    /** Whether the model in force not scoring was reported; cleared when a model that scores comes in force. */
    private final AtomicBoolean unscorableReported = new AtomicBoolean();
    private volatile CompiledModel current;
    private volatile String lastInvalid;
    /**
     * The record in force, to compare a record of the same version with (written under this lock; volatile for
     * readers that show it, such as the HTTP endpoint).
     */
    private volatile ModelParameters inForce;
    private final InForceLines inForceLines;

    /**
     * @param alpha     the Laplace smoothing of the category tables ({@code gda.categorical.alpha})
     * @param restoring whether the client has yet to restore the model topic ({@link #restored()})
     */
    private CompiledModelCache(String modelId, FitOptions options, int listed, boolean rejectOlderVersions,
                               DecisionRule decisionRule, double alpha, boolean restoring) {
        this.modelId = modelId;
        this.inForceLines = new InForceLines(modelId, InForceLines.INTERVAL, System::nanoTime, restoring);
        this.decisionRule = decisionRule;
        this.options = options;
        this.listed = listed;
        this.rejectOlderVersions = rejectOlderVersions;
        this.alpha = alpha;
    }

    /**
     * The cache of a scorer with {@code settings}: its model id, fit options, output listing, version rule and
     * decision rule, and
     * smoothing of category tables.
     */
    static CompiledModelCache of(ScoringSettings settings) {
        return of(settings, false);
    }

    /**
     * As {@link #of(ScoringSettings)}, for a client that restores the model topic before it runs: the versions of
     * that restore are not logged one by one; {@link #restored()} names the model in force after it.
     */
    static CompiledModelCache restoring(ScoringSettings settings) {
        return of(settings, true);
    }

    private static CompiledModelCache of(ScoringSettings settings, boolean restoring) {
        return new CompiledModelCache(settings.modelId(), settings.fitOptions(), settings.listedClasses(),
                settings.rejectOlderVersions(), settings.decisionRule(), settings.categorical().alpha(), restoring);
    }

    /**
     * The client has restored the model topic (Kafka Streams' start returns once its global stores are): logs the
     * model that restore put in force, if any. A no-op for a cache not made {@link #restoring}, and after the first
     * call.
     */
    void restored() {
        inForceLines.restored().ifPresent(LOG::info);
    }

    String modelId() {
        return modelId;
    }

    /** The model in force, if any, whether or not it can score. */
    Optional<CompiledModel> current() {
        return Optional.ofNullable(current);
    }

    /** The model in force when it can score events (a class is not excluded), else empty. */
    Optional<CompiledModel> scorable() {
        return current().filter(CompiledModel::canScore);
    }

    /**
     * Why no event can be scored now: no model in force ("no model in force: " and {@link #absence()}), or the one
     * in force has no scorable class (its exclusions); empty when {@link #scorable()} is present.
     */
    Optional<String> notScoring() {
        CompiledModel inForceNow = current;
        if (inForceNow == null) {
            return Optional.of("no model in force: " + absence());
        }
        return inForceNow.canScore() ? Optional.empty() : Optional.of(inForceNow.unscorable().text());
    }

    /** The model in force as it was published (the record {@link #current()} was compiled from), if any. */
    Optional<ModelParameters> modelInForce() {
        return Optional.ofNullable(inForce);
    }

    /** How many times a model was compiled (fitted and factorised) and put in force by this cache. */
    long compilations() {
        return compilations.get();
    }

    /** Records under the model's key that were no valid model (unreadable, tombstone, wrong id, not compilable). */
    long invalidRecords() {
        return invalidRecords.get();
    }

    /** Records of the version in force with different content. */
    long conflictingVersionsRejected() {
        return conflictingVersions.get();
    }

    /** Records of a lower version than the one in force, refused because older versions are rejected. */
    long olderVersionsRejected() {
        return olderVersions.get();
    }

    /** Every record refused so far, whatever the reason. */
    long rejectedRecords() {
        return invalidRecords() + conflictingVersionsRejected() + olderVersionsRejected();
    }

    /**
     * Counts and logs a record under the model's key that is not a model ({@code source}: where it was read, e.g.
     * "model-parameters-0 offset 7"). The model in force, if any, stays.
     */
    synchronized void rejectInvalid(String source, String reason) {
        invalidRecords.incrementAndGet();
        // The reason can quote bytes of the record (a parser error names the token): no control characters in
        // logs and answers.
        String printable = reason.replaceAll("\\p{Cntrl}", "?");
        String shortReason = UnicodeText.cut(printable, MAX_REASON_CHARS);
        lastInvalid = source + ": " + shortReason;
        CompiledModel inForceNow = current;
        LOG.warn("Rejecting invalid record for model '{}' at {}: {}; {}", modelId, source, shortReason,
                inForceNow == null ? "no valid model in force" : "keeping version " + inForceNow.version());
    }

    /**
     * Puts {@code model} (read at {@code source}) in force if the rules above allow it, compiling it once.
     * Never throws for a bad model: it is counted and logged, and {@link Outcome#REJECTED} returned.
     */
    synchronized Outcome offer(ModelParameters model, String source) {
        if (!modelId.equals(model.modelId())) {
            rejectInvalid(source, "model '" + model.modelId() + "' published under the key '" + modelId + "'");
            return Outcome.REJECTED;
        }
        ModelParameters held = inForce;
        if (held != null && held.version() == model.version()) {
            String difference = ModelContent.difference(held, model);
            if (difference == null) {
                return Outcome.UNCHANGED;
            }
            conflictingVersions.incrementAndGet();
            LOG.warn("Rejecting model '{}' version {} at {}: the model in force has this version with other content "
                    + "({}); keeping it", modelId, model.version(), source, difference);
            return Outcome.REJECTED;
        }
        if (held != null && model.version() < held.version()) {
            if (rejectOlderVersions) {
                olderVersions.incrementAndGet();
                LOG.warn("Rejecting model '{}' version {} at {}: older than version {} in force "
                        + "(gda.model.reject-older-versions=true)", modelId, model.version(), source, held.version());
                return Outcome.REJECTED;
            }
            LOG.warn("Model '{}' goes back from version {} to {} at {} (gda.model.reject-older-versions=false)",
                    modelId, held.version(), model.version(), source);
        }
        CompiledModel compiled;
        try {
            compiled = compile(model);
        } catch (RuntimeException e) {
            rejectInvalid(source, "version " + model.version() + " does not compile: " + e.getMessage());
            return Outcome.REJECTED;
        }
        compilations.incrementAndGet();
        inForce = model;
        current = compiled;
        inForceLines.inForce(model.version(), source).ifPresentOrElse(LOG::info,
                () -> LOG.debug(inForceLines.brief(model.version(), source)));
        if (compiled.canScore()) {
            unscorableReported.set(false);
        }
        return Outcome.IN_FORCE;
    }

    /**
     * {@code model} compiled as this cache puts it in force (its fit options, listing, decision rule and smoothing).
     *
     * @throws IllegalArgumentException when it does not compile
     */
    CompiledModel compile(ModelParameters model) {
        return CompiledModel.compile(model, options, listed, decisionRule, alpha);
    }

    /**
     * Why no model scores events, for "no model yet" answers: not published, or only invalid records seen (the last
     * one with where and why), or the model in force has no scorable class.
     */
    String absence() {
        CompiledModel inForceNow = current;
        if (inForceNow != null && !inForceNow.canScore()) {
            return inForceNow.unscorable().text();
        }
        String last = lastInvalid;
        return last == null ? "model '" + modelId + "' not published"
                : "no valid record of model '" + modelId + "': " + invalidRecords() + " invalid, the last at " + last;
    }

    /**
     * True once (the first caller) while no model is in force: the scorer says so in one log line, not once per
     * task.
     */
    boolean claimAbsenceReport() {
        return current == null && absenceReported.compareAndSet(false, true);
    }

    /**
     * The model in force, to the first caller while it has no scorable class, once until a model that scores comes
     * in force: a scorer holding events says why in one log line, not once per task or per version. Claimed when an
     * event is held, not when the model comes in force: a restarted scorer replays every version of the topic,
     * the first ones often without a scorable class, and holds nothing for them.
     */
    Optional<CompiledModel> claimUnscorableReport() {
        CompiledModel inForceNow = current;
        return inForceNow != null && !inForceNow.canScore() && unscorableReported.compareAndSet(false, true)
                ? Optional.of(inForceNow) : Optional.empty();
    }
}
