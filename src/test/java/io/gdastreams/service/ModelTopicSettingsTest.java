package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which model-topic settings lose models, and what the warning says to do. */
class ModelTopicSettingsTest {

    @Test
    void shouldWarnWhenTheModelTopicDeletesRecordsByTimeOrIsNotCompacted() {
        assertEquals(Optional.empty(), ModelTopicSettings.warning("models", "compact", 604_800_000L),
                "compacted: retention.ms does not apply");
        assertEquals(Optional.empty(), ModelTopicSettings.warning("models", "compact,delete", -1));
        assertEquals(Optional.of("the model topic models has cleanup.policy=delete with retention.ms=3600000: the"
                + " broker deletes a model record once it is older than that, however current, and a scorer started"
                + " later finds no model (the trainer does not see deletions by retention and does not publish it"
                + " again); make it compacted: kafka-configs.sh --alter --entity-type topics --entity-name models"
                + " --add-config cleanup.policy=compact --delete-config retention.ms (gda.create.topics=true creates"
                + " it so)"), ModelTopicSettings.warning("models", "delete", 3_600_000L));
        assertEquals(true, ModelTopicSettings.warning("models", "compact,delete", 86_400_000L).isPresent());
        assertEquals(Optional.of("the model topic models has cleanup.policy=delete: the broker keeps every model"
                + " record instead of the newest per model id; make it compacted: kafka-configs.sh --alter"
                + " --entity-type topics --entity-name models --add-config cleanup.policy=compact"
                + " (gda.create.topics=true creates it so)"), ModelTopicSettings.warning("models", "delete", -1));
    }
}
