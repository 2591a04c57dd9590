package io.gdastreams.topology;

import io.gdastreams.model.ModelParameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the combiner decides from what it published and what the model topic holds (docs/TRAINING.md, "Guards
 * against lost state" and "Versions are identities"). Pure decisions, no Kafka: the combiner acts on them.
 *
 * @param modelId the model the combiner builds
 * @param applicationId this trainer's application id (the {@code trainer} of the models it publishes)
 */
record PublicationChecks(String modelId, String applicationId) {

    /**
     * What the topic asks of the trainer: publish again (with the reason), or stop on a conflict (another trainer
     * publishes the model while this one runs).
     */
    record TopicVerdict(String republishReason, String conflict) {
        static final TopicVerdict FINE = new TopicVerdict(null, null);
    }

    /**
     * The version of the next model: above this trainer's last ({@code own}, 0 before the first) and above the
     * newest valid one on the topic ({@code latest}), whoever published it: after an application reset or under a
     * new application id (model id, version) may be taken already, and a version names one content.
     */
    static long nextVersion(long own, Optional<PublishedModel> latest) {
        long above = Math.max(own, latest.map(PublishedModel::version).orElse(0L));
        // A record of version Long.MAX_VALUE (written by hand or forged: a trainer would need 2^63 publications)
        // leaves no version above it; wrapping to a negative one would publish a model every scorer refuses.
        return above == Long.MAX_VALUE ? NO_VERSION_LEFT : above + 1;
    }

    /** {@link #nextVersion}'s answer when no version is left above the topic's. */
    static final long NO_VERSION_LEFT = -1;

    /**
     * Why nothing can be published above this trainer's last version {@code own} or the topic's {@code latest}, one
     * of which is {@link Long#MAX_VALUE}.
     */
    String noVersionLeft(long own, Optional<PublishedModel> latest) {
        String where = own == Long.MAX_VALUE
                ? "this trainer's last version is " + Long.MAX_VALUE + " (it published above a record of version "
                + (Long.MAX_VALUE - 1) + "); only a reset of the application (the reset command) starts it afresh"
                : "the model topic holds version " + Long.MAX_VALUE + " (by " + latest.map(PublishedModel::trainer)
                .orElse("?") + "); delete that record (a tombstone under the model id; then restart the scorers,"
                + " which keep the version in force)";
        return "model '" + modelId + "' cannot be published: no version is left above " + Long.MAX_VALUE + ": "
                + where + ". No trainer publishes that many versions: a record was written by hand or forged;"
                + " consider signed models (docs/SECURITY.md)";
    }

    /**
     * The models a new one must not go back from: this trainer's own last model, and the topic's newest when this
     * application published it and it is newer (the trainer's own store lost it: exactly the case to catch).
     * Another application's lineage is not this trainer's to compare.
     */
    List<PublishedModel> references(PublishedModel last, Optional<PublishedModel> latest) {
        List<PublishedModel> references = new ArrayList<>(2);
        if (last != null) {
            references.add(last);
        }
        latest.filter(m -> m.publishedBy(applicationId) && (last == null || m.version() > last.version()))
                .ifPresent(references::add);
        return references;
    }

    /**
     * Why {@code candidate} must wait (a partition a reference absorbed has no snapshot yet), or null when it may
     * be published.
     *
     * @throws TrainingStateException when it would go backwards from a reference: the state was lost
     */
    String holdReason(List<PublishedModel> references, ModelParameters candidate) {
        for (PublishedModel reference : references) {
            String regression = reference.regressionOf(candidate);
            if (regression != null) {
                throw new TrainingStateException("refusing to publish model '" + modelId + "': " + regression
                        + ". The training state no longer holds what this application published: it was lost or"
                        + " damaged (see docs/RELIABILITY.md, 'Recovering from lost training state')");
            }
            Set<String> missing = reference.missingPartitions(candidate);
            if (!missing.isEmpty()) {
                return "model '" + modelId + "' waits for snapshots of partitions " + missing + ", which version "
                        + reference.version() + " absorbed";
            }
        }
        return null;
    }

    /** Whether {@code newest}, read from the topic, is this trainer's {@code last} model (version and content). */
    static boolean isLast(PublishedModel newest, PublishedModel last) {
        return newest.version() == last.version() && newest.sameContent(last);
    }

    /**
     * Whether the newest record under the model id ({@code record}, null if none; {@code latest} its decoding) still
     * is this trainer's {@code last} model: garbage, a tombstone, nothing, or another content of this application
     * at or above its version ask for a new version; another application's newer model is a conflict: two trainers
     * publish one model id, and the trainer stops rather than answer it. A lower version is the topic before
     * {@code last} was read back, unless it was ({@code lastReadBack}): then a lower version was written after it,
     * and once compacted it is all a scorer that starts would find, so it too asks for a new version.
     */
    TopicVerdict judgeTopic(byte[] record, Optional<PublishedModel> latest, PublishedModel last,
                            boolean lastReadBack) {
        long lastVersion = last.version();
        if (latest.isEmpty()) {
            return new TopicVerdict(record == null ? "the model topic holds no record for it"
                    : record.length == 0 ? "the model topic holds a tombstone for it"
                    : "the newest record for it on the model topic is not a valid model", null);
        }
        PublishedModel newest = latest.get();
        if (isLast(newest, last)) {
            return TopicVerdict.FINE; // its own last model
        }
        if (newest.version() < lastVersion) {
            return !lastReadBack ? TopicVerdict.FINE // not read back yet
                    : new TopicVerdict("the model topic's newest record is version " + newest.version() + " (by "
                    + newest.trainer() + "), written after this trainer's last model (version " + lastVersion + ")",
                    null);
        }
        if (newest.publishedBy(applicationId)) {
            return new TopicVerdict("the model topic holds version " + newest.version() + " that is not this"
                    + " trainer's last model (version " + lastVersion + ")", null);
        }
        return new TopicVerdict(null, "application '" + newest.trainer() + "' also publishes model '" + modelId
                + "' (version " + newest.version() + ", above or beside this trainer's version " + lastVersion
                + ") while this one runs: two trainers of one model id would give versions two contents and the"
                + " model the other's events. This trainer stops; run one trainer per model id (stop the other, or"
                + " give each its own gda.model.id)");
    }
}
