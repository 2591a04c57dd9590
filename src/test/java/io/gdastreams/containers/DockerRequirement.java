package io.gdastreams.containers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * What a {@link ContainerTest} does when no Docker engine answers. On a developer's machine it is skipped, with
 * the reason. Under {@code CI=true} it FAILS with the reason instead: a skipped container test would let CI pass
 * without ever having run the Testcontainers tests. The reason is the one {@code .ci/provision-docker.sh} recorded
 * in {@value #SKIP_REASON_FILE} when it could not provide an engine.
 *
 * <p>The check is an execution condition, so it runs before any container is started; JUnit reports an
 * exception thrown by a condition as the failure of the class.
 */
public final class DockerRequirement implements ExecutionCondition {

    /** The variable CI systems set; its value "true" (any case) means this run is CI. */
    static final String CI_VARIABLE = "CI";
    /** Where {@code .ci/provision-docker.sh up target/ci-docker} (as {@code .ci/run} calls it) writes why it failed. */
    static final String SKIP_REASON_FILE = "target/ci-docker/skip-reason";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return evaluate(System.getenv(), () -> DockerClientFactory.instance().isDockerAvailable(),
                DockerRequirement::recordedProvisioningFailure);
    }

    /**
     * Enabled when {@code docker} answers; otherwise disabled with the reason, or, when {@code environment} says
     * this is CI, a {@link DockerUnavailableInCi} failure carrying {@code provisioningFailure}'s reason.
     */
    static ConditionEvaluationResult evaluate(Map<String, String> environment, BooleanSupplier docker,
                                              Supplier<Optional<String>> provisioningFailure) {
        if (docker.getAsBoolean()) {
            return ConditionEvaluationResult.enabled("a Docker engine answers");
        }
        String reason = "no Docker engine answers ("
                + provisioningFailure.get().map(r -> ".ci/provision-docker.sh: " + r)
                        .orElse("no provisioning failure recorded in " + SKIP_REASON_FILE)
                + ")";
        if (isCi(environment)) {
            throw new DockerUnavailableInCi(CI_VARIABLE + "=" + environment.get(CI_VARIABLE)
                    + ": this container test must run in CI, but " + reason
                    + ". Fix the Docker provisioning; outside CI (CI unset) the test is skipped instead.");
        }
        return ConditionEvaluationResult.disabled("SKIPPED, " + reason + "; under " + CI_VARIABLE
                + "=true this fails");
    }

    static boolean isCi(Map<String, String> environment) {
        String value = environment.get(CI_VARIABLE);
        return value != null && value.trim().toLowerCase(Locale.ROOT).equals("true");
    }

    /** The reason the last provisioning attempt of this checkout gave, if it failed. */
    private static Optional<String> recordedProvisioningFailure() {
        Path file = Path.of(System.getProperty("basedir", "")).toAbsolutePath().resolve(SKIP_REASON_FILE);
        try {
            String reason = Files.readString(file, StandardCharsets.UTF_8).trim();
            return reason.isEmpty() ? Optional.empty() : Optional.of(reason);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** A container test that cannot run under CI: a failure, never a skip. */
    static final class DockerUnavailableInCi extends RuntimeException {
        DockerUnavailableInCi(String message) {
            super(message);
        }
    }
}
