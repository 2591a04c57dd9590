package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.settings.AppConfig;
import org.junit.jupiter.api.Test;

/** The reset options a replay on a shared cluster prints: its own application id and the topics it read. */
class ReplayCleanUpTest {

    @Test
    void shouldPointResetAtTheRunsApplicationAndTopics() {
        AppConfig config = AppConfig.defaults().set("gda.application.id", "app-replay-0a1b", "--set")
                .set("gda.topic.labelled", "in-replay-0a1b", "--set").set("gda.topic.unlabelled", "u-replay-0a1b",
                        "--set").set("gda.topic.model", "m-replay-0a1b", "--set");
        assertEquals(" --set gda.application.id=app-replay-0a1b --set gda.topic.labelled=in-replay-0a1b"
                + " --set gda.topic.unlabelled=u-replay-0a1b --set gda.topic.model=m-replay-0a1b",
                ReplayDriver.cleanUpSettings(config));
    }
}
