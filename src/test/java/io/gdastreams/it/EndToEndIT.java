package io.gdastreams.it;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Training and scoring together on the shared in-JVM broker ({@link IrisEndToEndScenario}). */
@ExtendWith(KafkaBrokerExtension.class)
class EndToEndIT {

    @Test
    void shouldScoreIrisWithTheTrainedModelAtTheGoldenPosteriors(KafkaBroker broker, @TempDir Path stateDir) {
        IrisEndToEndScenario.run(broker, stateDir);
    }
}
