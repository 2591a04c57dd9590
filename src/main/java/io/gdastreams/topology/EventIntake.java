package io.gdastreams.topology;

import io.gdastreams.model.UnlabelledEvent;
import io.gdastreams.serde.Decoded;
import io.gdastreams.serde.EventDecoder;
import io.gdastreams.serde.EventFields;
import io.gdastreams.serde.EventReader;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The part of scoring one event that needs no store: read and check the record, then score it with a compiled
 * model. {@link ScoringProcessor} and {@link LiveScoring} (the HTTP {@code POST /score}) both go through it, so the
 * same record and model give the same answer, to the last bit, on either path.
 */
final class EventIntake {

    /**
     * A record read and checked: {@code event} with its {@code id} (the event's own, else the key as text; may be
     * null), or, when it cannot be scored whatever the model, the unscored answer {@code refused} (then the others
     * are null). An event the scorer's {@link EventReader} read is in {@code read} instead of {@code event}.
     */
    record Checked(String id, UnlabelledEvent event, EventFields read, ScoringOutcome.Unscored refused) {
    }

    private final ScoringSettings settings;
    /** {@code settings.categorical().features()} as a set, for the decoder. */
    private final Set<String> categorical;

    EventIntake(ScoringSettings settings) {
        this.settings = settings;
        this.categorical = settings.categorical().featureSet();
    }

    /** Reads and checks the record {@code key} (may be null), {@code value}; {@code stamp} goes on a refusal. */
    Checked check(byte[] key, byte[] value, ScoringOutcome.ModelStamp stamp) {
        Decoded<UnlabelledEvent> decoded = EventDecoder.decodeUnlabelled(value, settings.maxFeatures(), categorical);
        if (!OutputKey.fits(key)) {
            return refused(new ScoringOutcome.Unscored(null, new UnscoredReason.KeyTooLong(key.length), stamp));
        }
        if (!decoded.isOk()) {
            // Its own id when it could still be read (the features were wrong, say), else the key, as for any event.
            String own = decoded.id();
            return refused(new ScoringOutcome.Unscored(idOrNull(own != null ? own : keyText(key)),
                    new UnscoredReason.InvalidEvent(decoded.error()), stamp));
        }
        return identified(key, decoded.value().id(), decoded.value(), null, stamp);
    }

    /**
     * As {@link #check(byte[], byte[], ScoringOutcome.ModelStamp)} for an event an {@link EventReader} accepted into
     * {@code read} (so it is valid: only the key and id bounds remain to check).
     */
    Checked check(byte[] key, EventFields read, ScoringOutcome.ModelStamp stamp) {
        if (!OutputKey.fits(key)) {
            return refused(new ScoringOutcome.Unscored(null, new UnscoredReason.KeyTooLong(key.length), stamp));
        }
        return identified(key, read.id(), null, read, stamp);
    }

    /** The event's id ({@code own}, else the key as text) if it is within its bound. */
    private static Checked identified(byte[] key, String own, UnlabelledEvent event, EventFields read,
                                      ScoringOutcome.ModelStamp stamp) {
        String id = own != null ? own : keyText(key);
        if (id != null && utf8Length(id) > ScoringProcessor.MAX_ID_BYTES) {
            return refused(new ScoringOutcome.Unscored(null,
                    new UnscoredReason.IdTooLong(utf8Length(id), own == null), stamp));
        }
        return new Checked(id, event, read, null);
    }

    /** The answer of {@code model} to a checked event (not refused), read or decoded. */
    ScoringOutcome.Answer score(CompiledModel model, Checked checked) {
        if (checked.read() != null) {
            EventFields read = checked.read();
            return model.score(checked.id(), read.point(), read.observed(), settings.outlierThreshold(),
                    settings.extras());
        }
        return score(model, checked.id(), checked.event());
    }

    /** The answer of {@code model} to a checked event (not refused). */
    ScoringOutcome.Answer score(CompiledModel model, String id, UnlabelledEvent event) {
        return model.score(id, event.features(), event.categories(), settings.outlierThreshold(), settings.extras());
    }

    Set<String> categorical() {
        return categorical;
    }

    private static Checked refused(ScoringOutcome.Unscored answer) {
        return new Checked(null, null, null, answer);
    }

    static String keyText(byte[] key) {
        return key == null ? null : new String(key, StandardCharsets.UTF_8);
    }

    /** {@code id} when it may appear on an output, else null (it is too long). */
    static String idOrNull(String id) {
        return id == null || utf8Length(id) <= ScoringProcessor.MAX_ID_BYTES ? id : null;
    }

    /** Bytes of {@code text} in UTF-8, without encoding it; an unpaired surrogate counts 3 (an upper bound). */
    static int utf8Length(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
