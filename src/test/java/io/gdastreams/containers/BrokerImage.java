package io.gdastreams.containers;

import org.testcontainers.utility.DockerImageName;

/**
 * The Kafka broker image the Testcontainers tests run.
 *
 * <p>Users with an image registry get the official {@code apache/kafka} image. Machines without one build
 * an equivalent image locally ({@code docker/test-broker/build-image.sh}, which {@code .ci/run} calls) and
 * name it through the system property {@value #PROPERTY} or the environment variable {@value #ENV}; it is
 * declared a compatible substitute for {@code apache/kafka}, which Testcontainers' {@code KafkaContainer}
 * otherwise refuses.
 */
public final class BrokerImage {

    public static final String PROPERTY = "test.kafka.image";
    // Not GDA_*: the application treats every GDA_ variable as one of its settings and rejects unknown ones.
    public static final String ENV = "TEST_KAFKA_IMAGE";
    public static final String DEFAULT = "apache/kafka:4.4.0";

    private static final String OFFICIAL_REPOSITORY = "apache/kafka";

    private BrokerImage() {
    }

    /** The configured image: system property, then environment, then {@link #DEFAULT}. */
    public static DockerImageName configured() {
        return named(firstNonBlank(System.getProperty(PROPERTY), System.getenv(ENV), DEFAULT));
    }

    static DockerImageName named(String name) {
        DockerImageName image = DockerImageName.parse(name);
        return isOfficial(image) ? image : image.asCompatibleSubstituteFor(OFFICIAL_REPOSITORY);
    }

    /** Whether {@code image} is the official image from a registry rather than a locally built equivalent. */
    static boolean isOfficial(DockerImageName image) {
        return OFFICIAL_REPOSITORY.equals(image.getUnversionedPart());
    }

    private static String firstNonBlank(String... candidates) {
        for (String candidate : candidates) {
            if (candidate != null && !candidate.isBlank()) {
                return candidate.trim();
            }
        }
        throw new IllegalStateException("no image name");
    }
}
