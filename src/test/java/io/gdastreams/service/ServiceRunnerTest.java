package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** How long a service waits before it starts a new Kafka Streams client after consecutive failures. */
class ServiceRunnerTest {

    @Test
    void shouldDoubleTheWaitFromOneSecondUpToThirty() {
        List<Long> seconds = IntStream.rangeClosed(1, 8).mapToObj(ServiceRunner::backoff).map(Duration::toSeconds)
                .toList();
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L), seconds);
    }
}
