package io.gdastreams.containers;

import io.gdastreams.it.IrisEndToEndScenario;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Container;

/**
 * The end-to-end Iris scenario against the broker image in a container, as against a production cluster: a
 * separate broker process reached over its advertised 127.0.0.1 listener. Needs Docker ({@link ContainerTest}:
 * skipped without it, failed under CI=true).
 */
@ContainerTest
class EndToEndContainerIT {

    @Container
    static final HostNetworkKafkaContainer KAFKA = new HostNetworkKafkaContainer(BrokerImage.configured());

    @Test
    void shouldScoreIrisWithTheTrainedModelAtTheGoldenPosteriors(@TempDir Path stateDir) {
        try (ContainerBroker broker = new ContainerBroker(KAFKA)) {
            IrisEndToEndScenario.run(broker, stateDir);
        }
    }
}
