package io.gdastreams.topology;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The model a scorer would use, for the trainer's test-then-train evaluation: the latest record under the model id
 * on the model topic (the trainer's global store, {@link TrainingTopology#PUBLISHED_STORE}), not the partition's
 * own statistics. It is decoded (once for the task, {@link PublishedRecord}) and compiled once per record, with the
 * scorer's fit options and decision rule; the store returns the same array until the record changes, so per event the
 * cost is one reference comparison. A record that is no valid model of this id (a tombstone, unreadable, does not
 * compile) leaves no model: the events then count as scored before any model exists. Whether the model is mature enough
 * to feed the drift test ({@link DriftWarmUp}) is decided once per record too.
 */
final class PrequentialModel {

    private static final Logger LOG = LoggerFactory.getLogger(PrequentialModel.class);

    private final String modelId;
    private final PrequentialSettings settings;
    /** The record {@link #compiled} was made from (compared by identity). */
    private byte[] source;
    private CompiledModel compiled;
    /** Whether {@link #compiled} has warmed up ({@link DriftWarmUp}). */
    private boolean warmedUp;

    PrequentialModel(String modelId, PrequentialSettings settings) {
        this.modelId = modelId;
        this.settings = settings;
    }

    /** The compiled form of {@code record} (the published-model store's value), or null when it is no model. */
    CompiledModel of(byte[] record) {
        return record == source ? compiled : of(PublishedRecord.decode(modelId, record));
    }

    /**
     * The compiled form of {@code record} (decoded once for the task, {@link PublishedModelView#refresh}), or null
     * when it is no model of this id.
     */
    CompiledModel of(PublishedRecord record) {
        if (record.bytes() == source) {
            return compiled;
        }
        source = record.bytes();
        compiled = null;
        warmedUp = false;
        if (record.unreadable() != null) {
            LOG.warn("Prequential evaluation of model '{}': the published record is no model it can score with ({});"
                    + " events count as scored before any model until the next one", modelId, record.unreadable());
        } else if (record.model() != null) {
            try {
                // One listed class: the evaluation reads the full posterior, never the prediction's listing.
                compiled = CompiledModel.compile(record.model(), settings.fitOptions(), 1, settings.rule(),
                        settings.alpha());
                warmedUp = settings.warmUp().mature(record.model());
            } catch (RuntimeException e) {
                compiled = null;
                LOG.warn("Prequential evaluation of model '{}': the published model does not compile ({}); events"
                        + " count as scored before any model until the next one", modelId, e.getMessage());
            }
        }
        return compiled;
    }

    /**
     * Whether {@code model}, a model {@link #of} returned, holds enough events (and every class gda.min.count) for
     * its log-losses to feed the drift test ({@link DriftWarmUp}); false for null or a model no longer current.
     */
    boolean warmedUp(CompiledModel model) {
        return model != null && model == compiled && warmedUp;
    }
}
