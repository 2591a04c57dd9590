package io.gdastreams.containers;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.Image;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.utility.DockerImageName;

/**
 * The application image, built from {@code docker/Dockerfile} and {@code target/gda-streams-service.jar} exactly as the
 * README builds it by hand: on the image the broker tests run when that one is built locally (no registry:
 * {@code --build-arg BASE_IMAGE=<broker image>}), on the Dockerfile's default JRE base otherwise.
 *
 * <p>The build context holds only what the Dockerfile copies (the Dockerfile, {@code config/}, the jar), not the
 * whole project. The RUN step needs no network and an engine without a bridge has none, so the build runs with
 * network mode {@code none}. The image keeps a fixed name and stays after the tests, so the next build reuses
 * every layer above the jar's; the image a rebuild untags is removed, so runs do not pile up 120 MB jar layers.
 */
final class AppImage {

    static final String NAME = "gda-streams/app-image-test:latest";
    static final Path JAR = Path.of("target", "gda-streams-service.jar");

    private static final Logger LOG = LoggerFactory.getLogger(AppImage.class);
    private static final String BASE_IMAGE_ARG = "BASE_IMAGE";
    // Marks this test's images, so that only they are ever removed here.
    private static final String LABEL = "io.gdastreams.app-image-test";

    private AppImage() {
    }

    /** A lazy build of the image (run on first {@code get()}); its value is the image name. */
    static ImageFromDockerfile build(Path projectRoot) {
        ImageFromDockerfile image = new ImageFromDockerfile(NAME, false)
                .withDockerfilePath("docker/Dockerfile")
                .withFileFromPath("docker/Dockerfile", projectRoot.resolve("docker/Dockerfile"))
                .withFileFromPath("config", projectRoot.resolve("config"))
                .withFileFromPath(JAR.toString(), projectRoot.resolve(JAR))
                .withBuildImageCmdModifier(cmd -> cmd.withNetworkMode("none").withLabels(Map.of(LABEL, "true")));
        localBase().ifPresent(base -> image.withBuildArg(BASE_IMAGE_ARG, base));
        return image;
    }

    /** The locally built broker image to base on, or empty to keep the Dockerfile's default (a registry exists). */
    static Optional<String> localBase() {
        DockerImageName broker = BrokerImage.configured();
        return BrokerImage.isOfficial(broker) ? Optional.empty() : Optional.of(broker.asCanonicalNameString());
    }

    static boolean jarExists(Path projectRoot) {
        return Files.isRegularFile(projectRoot.resolve(JAR));
    }

    /** Removes earlier builds of this image that a rebuild left untagged; one still in use simply stays. */
    static void removeSuperseded() {
        DockerClient docker = DockerClientFactory.instance().client();
        for (Image stale : docker.listImagesCmd().withDanglingFilter(true).withLabelFilter(LABEL).exec()) {
            try {
                docker.removeImageCmd(stale.getId()).withNoPrune(false).exec();
                LOG.info("removed the superseded application test image {}", stale.getId());
            } catch (DockerException e) {
                LOG.info("kept the superseded application test image {}: {}", stale.getId(), e.getMessage());
            }
        }
    }
}
