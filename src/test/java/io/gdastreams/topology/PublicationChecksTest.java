package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The combiner's decisions from what it published and what the model topic holds. */
class PublicationChecksTest {

    private static final String APP = "app";
    private static final PublicationChecks CHECKS = new PublicationChecks("m", APP);

    private static ModelParameters model(long version, Map<String, Long> sources, long total, String trainer) {
        return new ModelParameters("m", version, List.of("a"), total, List.of(), sources, "2026-01-01T00:00:00Z",
                trainer);
    }

    private static PublishedModel published(long version, Map<String, Long> sources, long total, String trainer) {
        ModelParameters model = model(version, sources, total, trainer);
        return PublishedModel.of(model, (trainer + version + sources + total).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldNumberTheNextModelAboveItsOwnLastAndTheTopicsNewest() {
        assertEquals(1, PublicationChecks.nextVersion(0, Optional.empty()));
        assertEquals(8, PublicationChecks.nextVersion(7, Optional.empty()));
        assertEquals(42, PublicationChecks.nextVersion(3, Optional.of(published(41, Map.of(), 0, "other"))));
        assertEquals(8, PublicationChecks.nextVersion(7, Optional.of(published(5, Map.of(), 0, APP))));
        assertEquals(Long.MAX_VALUE, PublicationChecks.nextVersion(3, Optional.of(published(Long.MAX_VALUE - 1,
                Map.of(), 0, "other"))));
        assertEquals(PublicationChecks.NO_VERSION_LEFT, PublicationChecks.nextVersion(3, Optional.of(published(
                Long.MAX_VALUE, Map.of(), 0, "other"))));
        assertEquals(PublicationChecks.NO_VERSION_LEFT, PublicationChecks.nextVersion(Long.MAX_VALUE,
                Optional.empty()));
    }

    @Test
    void shouldCompareWithItsOwnLastModelAndANewerOneOfThisApplicationOnly() {
        PublishedModel last = published(3, Map.of("0", 5L), 5, APP);
        PublishedModel newerOwn = published(4, Map.of("0", 9L), 9, APP);
        assertEquals(List.of(last, newerOwn), CHECKS.references(last, Optional.of(newerOwn)));
        assertEquals(List.of(last), CHECKS.references(last, Optional.of(published(9, Map.of(), 0, "other"))));
        assertEquals(List.of(last), CHECKS.references(last, Optional.of(published(2, Map.of(), 0, APP))));
        assertEquals(List.of(newerOwn), CHECKS.references(null, Optional.of(newerOwn)), "the store lost its own");
    }

    @Test
    void shouldRefuseAModelThatGoesBackAndHoldOneThatLacksAPartition() {
        List<PublishedModel> references = List.of(published(3, Map.of("0", 5L, "1", 4L), 9, APP));

        assertNull(CHECKS.holdReason(references, model(4, Map.of("0", 5L, "1", 6L), 11, APP)));
        assertEquals("model 'm' waits for snapshots of partitions [1], which version 3 absorbed",
                CHECKS.holdReason(references, model(4, Map.of("0", 6L), 6, APP)));
        TrainingStateException back = assertThrows(TrainingStateException.class,
                () -> CHECKS.holdReason(references, model(4, Map.of("0", 4L, "1", 4L), 8, APP)));
        assertTrue(back.getMessage().startsWith("refusing to publish model 'm': partition 0 would go back from offset"
                + " 5 (version 3) to 4."), back.getMessage());
        // Every partition there and none behind, but fewer events: state lost (e.g. the combiner's store, whose
        // snapshots came back from partitions that lost theirs too).
        TrainingStateException fewer = assertThrows(TrainingStateException.class,
                () -> CHECKS.holdReason(references, model(4, Map.of("0", 5L, "1", 4L), 8, APP)));
        assertTrue(fewer.getMessage().contains("the total count would go back from 9 (version 3) to 8"),
                fewer.getMessage());
    }

    @Test
    void shouldAskForANewVersionWhenTheTopicNoLongerHoldsTheLastModel() {
        PublishedModel last = published(3, Map.of("0", 5L), 5, APP);
        assertEquals("the model topic holds no record for it",
                CHECKS.judgeTopic(null, Optional.empty(), last, false).republishReason());
        assertEquals("the model topic holds a tombstone for it",
                CHECKS.judgeTopic(new byte[0], Optional.empty(), last, false).republishReason());
        assertEquals("the newest record for it on the model topic is not a valid model",
                CHECKS.judgeTopic(new byte[] {'x'}, Optional.empty(), last, false).republishReason());
        PublishedModel sameVersionOtherContent = published(3, Map.of("0", 6L), 6, APP);
        assertEquals(new PublicationChecks.TopicVerdict("the model topic holds version 3 that is not this trainer's"
                        + " last model (version 3)", null),
                CHECKS.judgeTopic(new byte[] {'x'}, Optional.of(sameVersionOtherContent), last, false));
    }

    @Test
    void shouldLeaveItsOwnModelAndReportAnotherApplicationsWithoutAnsweringIt() {
        PublishedModel last = published(3, Map.of("0", 5L), 5, APP);
        assertEquals(PublicationChecks.TopicVerdict.FINE, CHECKS.judgeTopic(new byte[] {'x'}, Optional.of(last), last,
                false));
        assertEquals(PublicationChecks.TopicVerdict.FINE, CHECKS.judgeTopic(new byte[] {'x'}, Optional.of(last), last,
                true));
        assertEquals(PublicationChecks.TopicVerdict.FINE, CHECKS.judgeTopic(new byte[] {'x'},
                Optional.of(published(2, Map.of(), 0, APP)), last, false), "not read back yet");
        PublicationChecks.TopicVerdict other = CHECKS.judgeTopic(new byte[] {'x'},
                Optional.of(published(4, Map.of(), 0, "other")), last, false);
        assertNull(other.republishReason());
        assertEquals("application 'other' also publishes model 'm' (version 4, above or beside this trainer's version"
                + " 3) while this one runs: two trainers of one model id would give versions two contents and the model"
                + " the other's events. This trainer stops; run one trainer per model id (stop the other, or give each"
                + " its own gda.model.id)", other.conflict());
    }

    @Test
    void shouldAskForANewVersionWhenALowerOneWasWrittenAfterItsLastModelWasReadBack() {
        PublishedModel last = published(3, Map.of("0", 5L), 5, APP);
        // Replayed or forged after the trainer's own record: compaction would leave it alone under the model id.
        assertEquals(new PublicationChecks.TopicVerdict("the model topic's newest record is version 2 (by " + APP
                        + "), written after this trainer's last model (version 3)", null),
                CHECKS.judgeTopic(new byte[] {'x'}, Optional.of(published(2, Map.of(), 0, APP)), last, true));
        assertEquals(new PublicationChecks.TopicVerdict("the model topic's newest record is version 1 (by other),"
                        + " written after this trainer's last model (version 3)", null),
                CHECKS.judgeTopic(new byte[] {'x'}, Optional.of(published(1, Map.of(), 0, "other")), last, true));
    }
}
