package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ApplicationResetTest {

    /** Kafka Streams names its internal topics <application.id>-<store or node>-changelog | -repartition. */
    @Test
    void shouldRecogniseOnlyTheApplicationsOwnInternalTopics() {
        String app = "gda-streams-training";
        assertTrue(ApplicationReset.isInternalTopic(app, "gda-streams-training-class-stats-changelog"));
        assertTrue(ApplicationReset.isInternalTopic(app, "gda-streams-training-class-stats-partials-repartition"));
        assertFalse(ApplicationReset.isInternalTopic(app, "gda-streams-scoring-scoring-pending-changelog"));
        assertFalse(ApplicationReset.isInternalTopic(app, "gda-streams-training2-class-stats-changelog"));
        assertFalse(ApplicationReset.isInternalTopic(app, "labelled-events"));
        assertFalse(ApplicationReset.isInternalTopic(app, "gda-streams-training-model-changelog-archive"));
    }

    @Test
    void shouldFindTheStateDirectoryUnderStateDir() {
        Properties streams = new Properties();
        streams.put("state.dir", "/var/lib/gda");
        assertEquals(Path.of("/var/lib/gda/app-training"), ApplicationReset.stateDirectory(streams, "app-training"));
        assertEquals(Path.of(System.getProperty("java.io.tmpdir"), "kafka-streams", "app-training"),
                ApplicationReset.stateDirectory(new Properties(), "app-training"));
    }
}
