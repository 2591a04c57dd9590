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
    /** The older broker's image ({@code OlderBrokerContainerIT}): property, then environment, then the official one. */
    public static final String OLDER_PROPERTY = "test.kafka.older-image";
    public static final String OLDER_ENV = "TEST_KAFKA_OLDER_IMAGE";
    /** The pom's {@code kafka.older-broker.version}, which failsafe hands the tests. */
    public static final String OLDER_VERSION_PROPERTY = "test.kafka.older-broker.version";
    /** The previous line's broker image ({@code PreviousBrokerContainerIT}), found as the older one is. */
    public static final String PREVIOUS_PROPERTY = "test.kafka.previous-image";
    public static final String PREVIOUS_ENV = "TEST_KAFKA_PREVIOUS_IMAGE";
    /** The pom's {@code kafka.previous-broker.version}, which failsafe hands the tests. */
    public static final String PREVIOUS_VERSION_PROPERTY = "test.kafka.previous-broker.version";

    private static final String OFFICIAL_REPOSITORY = "apache/kafka";

    private BrokerImage() {
    }

    /** The configured image: system property, then environment, then {@link #DEFAULT}. */
    public static DockerImageName configured() {
        return named(firstNonBlank("no image name", System.getProperty(PROPERTY), System.getenv(ENV), DEFAULT));
    }

    /**
     * The image of the oldest broker line the suite runs against: {@value #OLDER_PROPERTY}, then
     * {@value #OLDER_ENV}, then the official image of the version in {@value #OLDER_VERSION_PROPERTY}.
     */
    public static DockerImageName older() {
        return ofLine(OLDER_PROPERTY, OLDER_ENV, OLDER_VERSION_PROPERTY);
    }

    /**
     * The image of the broker line before the clients' own: {@value #PREVIOUS_PROPERTY}, then
     * {@value #PREVIOUS_ENV}, then the official image of the version in {@value #PREVIOUS_VERSION_PROPERTY}.
     */
    public static DockerImageName previous() {
        return ofLine(PREVIOUS_PROPERTY, PREVIOUS_ENV, PREVIOUS_VERSION_PROPERTY);
    }

    private static DockerImageName ofLine(String imageProperty, String imageEnv, String versionProperty) {
        String version = System.getProperty(versionProperty);
        return named(firstNonBlank("no broker image: set " + imageProperty + " or " + imageEnv
                        + " (Maven's failsafe passes " + versionProperty + " from the pom)",
                System.getProperty(imageProperty), System.getenv(imageEnv),
                version == null || version.isBlank() ? null : OFFICIAL_REPOSITORY + ":" + version.trim()));
    }

    static DockerImageName named(String name) {
        DockerImageName image = DockerImageName.parse(name);
        return isOfficial(image) ? image : image.asCompatibleSubstituteFor(OFFICIAL_REPOSITORY);
    }

    /** Whether {@code image} is the official image from a registry rather than a locally built equivalent. */
    static boolean isOfficial(DockerImageName image) {
        return OFFICIAL_REPOSITORY.equals(image.getUnversionedPart());
    }

    private static String firstNonBlank(String noneMessage, String... candidates) {
        for (String candidate : candidates) {
            if (candidate != null && !candidate.isBlank()) {
                return candidate.trim();
            }
        }
        throw new IllegalStateException(noneMessage);
    }
}
