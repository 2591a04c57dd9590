package io.gdastreams.topology;

import io.gdastreams.model.UnlabelledEvent;
import io.gdastreams.serde.Decoded;
import io.gdastreams.serde.EventDecoder;
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
     * are null).
     */
    record Checked(String id, UnlabelledEvent event, ScoringOutcome.Unscored refused) {
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
            return refused(new ScoringOutcome.Unscored(idOrNull(keyText(key)),
                    new UnscoredReason.InvalidEvent(decoded.error()), stamp));
        }
        UnlabelledEvent event = decoded.value();
        String id = event.id() != null ? event.id() : keyText(key);
        if (id != null && utf8Length(id) > ScoringProcessor.MAX_ID_BYTES) {
            return refused(new ScoringOutcome.Unscored(null,
                    new UnscoredReason.IdTooLong(utf8Length(id), event.id() == null), stamp));
        }
        return new Checked(id, event, null);
    }

    /** The answer of {@code model} to a checked event (not refused). */
    ScoringOutcome.Answer score(CompiledModel model, String id, UnlabelledEvent event) {
        return model.score(id, event.features(), event.categories(), settings.outlierThreshold(), settings.extras());
    }

    Set<String> categorical() {
        return categorical;
    }

    private static Checked refused(ScoringOutcome.Unscored answer) {
        return new Checked(null, null, answer);
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
