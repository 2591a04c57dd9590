package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Which hold the trainer's figures show, and when: a settings disagreement over a publish attempt's reason. */
class HoldNoticesTest {

    private final List<String> told = new ArrayList<>();
    private final HoldNotices notices = new HoldNotices(LoggerFactory.getLogger(HoldNoticesTest.class),
            new StreamObserver() {
                @Override
                public void modelHeld(String reason) {
                    told.add(reason);
                }
            });

    @Test
    void shouldTellTheSettingsDisagreementFirstAndFallBackToTheAttemptsReasonWhenTheyAgree() {
        notices.hold("too large");
        notices.hold("too large");
        notices.settings("disagree");
        notices.settings("disagree");
        notices.settings(null);
        assertEquals(Arrays.asList("too large", "disagree", "too large"), told,
                "the agreement ends the disagreement's hold only: the model is still too large");
        notices.published();
        assertEquals(null, told.get(told.size() - 1));
        notices.settings("disagree");
        notices.published();
        assertEquals("disagree", told.get(told.size() - 1), "publishing ends no disagreement (none is published)");
        notices.clear();
        assertEquals(Arrays.asList("too large", "disagree", "too large", null, "disagree", null), told);
        notices.clear();
        assertEquals(6, told.size(), "nothing to tell twice");
    }
}
