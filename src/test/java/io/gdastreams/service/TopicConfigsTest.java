package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The note for topics whose settings the principal may not see (the refusals themselves: AuthorizerIT). */
class TopicConfigsTest {

    @Test
    void nothingToNoteWhenEveryTopicWasDescribed() {
        assertEquals(Optional.empty(), new TopicConfigs.Described(Map.of(), List.of()).refusalNote());
    }

    @Test
    void theRefusedTopicsAreNamedWithTheRightToGrant() {
        assertEquals(Optional.of("no DESCRIBE_CONFIGS on topic unlabelled-events, so the start cannot check its"
                + " settings (a model topic that deletes models, no bound on a record's decompressed size); grant it"
                + " to see such warnings (docs/SECURITY.md, \"ACLs per role\")"),
                new TopicConfigs.Described(Map.of(), List.of("unlabelled-events")).refusalNote());
        assertEquals("no DESCRIBE_CONFIGS on topics labelled-events, model-parameters, so the start cannot check"
                + " their settings", new TopicConfigs.Described(Map.of(), List.of("labelled-events",
                "model-parameters")).refusalNote().orElseThrow().substring(0, 105));
    }
}
