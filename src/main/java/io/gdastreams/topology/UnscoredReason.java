package io.gdastreams.topology;

import io.gdastreams.math.Exclusion;
import io.gdastreams.serde.UnicodeText;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Why an event gets an unscored answer. Each case knows its text (the {@code reason} of the prediction, word for
 * word what consumers read) and whether the input is at fault, in which case it is dead-lettered with the same
 * text. A new reason is a new case here, and the scorer writes it like every other.
 */
sealed interface UnscoredReason permits UnscoredReason.DeadLettered, UnscoredReason.AnswerOnly {

    /** At most this many names in a reason: a hostile event may carry thousands of long ones. */
    int MAX_NAMES_SHOWN = 10;
    /** Longest name quoted whole in a reason. */
    int MAX_NAME_CHARS = 64;

    /** The text of the prediction's {@code reason} (and of the dead letter's, when there is one). */
    String text();

    /** True when the input itself is set aside on the dead-letter topic as well. */
    boolean deadLettered();

    /** The input is at fault (unreadable, outside the model's schema) or could not be handled: set aside too. */
    sealed interface DeadLettered extends UnscoredReason
            permits KeyTooLong, InvalidEvent, IdTooLong, UnknownFeatures, InternalError {
        @Override
        default boolean deadLettered() {
            return true;
        }

        /** The dead letter's reason as one of a fixed set (a metric's label). */
        DeadLetterCategory category();
    }

    /** The input is fine; the scorer cannot answer it (yet): the unscored answer says why, nothing else. */
    sealed interface AnswerOnly extends UnscoredReason
            permits NoScorableClass, NonFiniteDensity, NoModelTooLargeToHold, NoModelHoldFull {
        @Override
        default boolean deadLettered() {
            return false;
        }
    }

    /** The record key does not fit an output record's key; the answer and the dead letter go without a key. */
    record KeyTooLong(int bytes) implements DeadLettered {
        @Override
        public DeadLetterCategory category() {
            return DeadLetterCategory.OVERSIZED;
        }

        @Override
        public String text() {
            return "record key too long: " + bytes + " bytes > " + OutputKey.MAX_BYTES
                    + " (this answer and the dead letter are written without a key)";
        }
    }

    /** The value is not a valid unlabelled event ({@code error}: the decoder's message). */
    record InvalidEvent(String error) implements DeadLettered {
        @Override
        public DeadLetterCategory category() {
            return DeadLetterCategory.INVALID_EVENT;
        }

        @Override
        public String text() {
            return "invalid event: " + error;
        }
    }

    /** The id (the event's own, or the record key when {@code fromKey}) is too long to be written back. */
    record IdTooLong(int bytes, boolean fromKey) implements DeadLettered {
        @Override
        public DeadLetterCategory category() {
            return DeadLetterCategory.OVERSIZED;
        }

        @Override
        public String text() {
            return "id too long: " + bytes + " bytes of UTF-8 > " + ScoringProcessor.MAX_ID_BYTES
                    + (fromKey ? " (the record key, used as id)" : "");
        }
    }

    /**
     * The event names features the model does not know: more likely a schema mismatch than something safe to
     * ignore, so it is bad input.
     */
    record UnknownFeatures(List<String> names) implements DeadLettered {
        @Override
        public DeadLetterCategory category() {
            return DeadLetterCategory.SCHEMA_MISMATCH;
        }


        /** The start of this reason's text. */
        static final String PREFIX = "unknown feature(s): ";

        public UnknownFeatures {
            names = List.copyOf(names);
        }

        @Override
        public String text() {
            String shown = names.stream().limit(MAX_NAMES_SHOWN)
                    .map(n -> UnicodeText.cut(n, MAX_NAME_CHARS))
                    .collect(Collectors.joining(", "));
            return PREFIX + (names.size() <= MAX_NAMES_SHOWN ? shown
                    : shown + " and " + (names.size() - MAX_NAMES_SHOWN) + " more");
        }
    }

    /** Every class of model {@code version} is excluded under the scorer's fit options ({@code byLabel}). */
    record NoScorableClass(long version, List<Exclusion> byLabel) implements AnswerOnly {

        public NoScorableClass {
            byLabel = List.copyOf(byLabel);
        }

        @Override
        public String text() {
            return "no scorable class in model version " + version + ": " + exclusions();
        }

        /** The excluded classes with why, the first {@link #MAX_NAMES_SHOWN} of them. */
        String exclusions() {
            return Exclusion.describe(byLabel, MAX_NAMES_SHOWN);
        }
    }

    /** The log density of the event is not finite. */
    record NonFiniteDensity(double logDensity) implements AnswerOnly {
        @Override
        public String text() {
            return "non-finite log density " + logDensity;
        }
    }

    /**
     * No model yet, and the event cannot be held for the first one ({@code absence}: why there is no model):
     * it is larger than {@code maxHeldBytes}.
     */
    record NoModelTooLargeToHold(String absence, int bytes, int maxHeldBytes) implements AnswerOnly {
        @Override
        public String text() {
            return "no model yet (" + absence + "; an event of " + bytes + " bytes is too large to hold, at most "
                    + maxHeldBytes + ")";
        }
    }

    /** No model yet, and {@code maxPending} earlier events are already held ({@code absence}: why no model). */
    record NoModelHoldFull(String absence, int maxPending) implements AnswerOnly {
        @Override
        public String text() {
            return "no model yet (" + absence + "; " + maxPending + " earlier events already held)";
        }
    }

    /** Anything unexpected while scoring the event: it is answered and set aside, never lost. */
    record InternalError(RuntimeException failure) implements DeadLettered {
        @Override
        public DeadLetterCategory category() {
            return DeadLetterCategory.INTERNAL_ERROR;
        }

        @Override
        public String text() {
            return "internal error: " + failure;
        }
    }
}
