package io.gdastreams.topology;

import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ModelParameters;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compiled form of the scorer's model, shared by the global-store updater (which offers every valid model
 * record it stores) and the scoring tasks of one topology (which read it once per event).
 *
 * <p>A model is compiled once per version: re-publishing the version in force (a replayed or duplicated model
 * record) is a no-op, so the version number is taken as the model's identity. A model that cannot be compiled is
 * logged and ignored; the previous compiled model stays in force. A lower version than the one in force is
 * accepted (with a warning): the model topic's latest record is the truth, e.g. after a trainer was reset.
 *
 * <p>Thread-safe: offers are serialised; readers see the latest compiled model through a volatile read.
 */
final class CompiledModelCache {

    private static final Logger LOG = LoggerFactory.getLogger(CompiledModelCache.class);

    private final String modelId;
    private final FitOptions options;
    /** Most classes a prediction lists ({@link ScoringSettings#listedClasses()}). */
    private final int listed;
    private final AtomicLong compilations = new AtomicLong();
    private volatile CompiledModel current;

    CompiledModelCache(String modelId, FitOptions options, int listed) {
        this.modelId = modelId;
        this.options = options;
        this.listed = listed;
    }

    /** The cache of a scorer with {@code settings}: its model id, fit options and output listing. */
    static CompiledModelCache of(ScoringSettings settings) {
        return new CompiledModelCache(settings.modelId(), settings.fitOptions(), settings.listedClasses());
    }

    String modelId() {
        return modelId;
    }

    /** The model in force, if any. */
    Optional<CompiledModel> current() {
        return Optional.ofNullable(current);
    }

    /** How many times a model was compiled (fitted and factorised) and put in force by this cache. */
    long compilations() {
        return compilations.get();
    }

    /**
     * Puts {@code model} in force unless its version already is. Returns false, keeping the previous model,
     * when the model belongs to another id or cannot be compiled.
     */
    synchronized boolean offer(ModelParameters model) {
        if (!modelId.equals(model.modelId())) {
            LOG.warn("Ignoring model record for '{}' published under key '{}'", model.modelId(), modelId);
            return false;
        }
        CompiledModel inForce = current;
        if (inForce != null && inForce.version() == model.version()) {
            return true;
        }
        CompiledModel compiled;
        try {
            compiled = CompiledModel.compile(model, options, listed);
        } catch (RuntimeException e) {
            LOG.warn("Ignoring model '{}' version {}: {}; {}", modelId, model.version(), e.getMessage(),
                    inForce == null ? "no model in force" : "keeping version " + inForce.version());
            return false;
        }
        if (inForce != null && model.version() < inForce.version()) {
            LOG.warn("Model '{}' went back from version {} to {}", modelId, inForce.version(), model.version());
        }
        compilations.incrementAndGet();
        current = compiled;
        LOG.info("Model '{}' version {} in force", modelId, model.version());
        return true;
    }
}
