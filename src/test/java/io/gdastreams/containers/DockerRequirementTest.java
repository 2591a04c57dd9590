package io.gdastreams.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.containers.DockerRequirement.DockerUnavailableInCi;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;

/** The decision of {@link DockerRequirement}, with the environment and the engine check injected (no Docker). */
class DockerRequirementTest {

    private static final String REASON = "dockerd exited during start-up: cgroup mount failed";
    private static final BooleanSupplier NO_DOCKER = () -> false;
    private static final BooleanSupplier DOCKER = () -> true;
    private static final Supplier<Optional<String>> RECORDED = () -> Optional.of(REASON);
    private static final Supplier<Optional<String>> NOTHING_RECORDED = Optional::empty;

    @Test
    void shouldFailWithTheProvisioningReasonUnderCiWithoutDocker() {
        DockerUnavailableInCi failure = assertThrows(DockerUnavailableInCi.class,
                () -> DockerRequirement.evaluate(Map.of("CI", "true"), NO_DOCKER, RECORDED));

        assertTrue(failure.getMessage().contains(REASON), failure.getMessage());
        assertTrue(failure.getMessage().startsWith("CI=true: this container test must run in CI"),
                failure.getMessage());
    }

    @Test
    void shouldFailUnderCiWithoutDockerEvenWhenNoReasonWasRecorded() {
        DockerUnavailableInCi failure = assertThrows(DockerUnavailableInCi.class,
                () -> DockerRequirement.evaluate(Map.of("CI", "TRUE"), NO_DOCKER, NOTHING_RECORDED));

        assertTrue(failure.getMessage().contains("no provisioning failure recorded in target/ci-docker/skip-reason"),
                failure.getMessage());
    }

    @Test
    void shouldSkipWithTheReasonWithoutDockerOutsideCi() {
        ConditionEvaluationResult result = DockerRequirement.evaluate(Map.of(), NO_DOCKER, RECORDED);

        assertTrue(result.isDisabled());
        assertEquals(Optional.of("SKIPPED, no Docker engine answers (.ci/provision-docker.sh: " + REASON
                + "); under CI=true this fails"), result.getReason());
    }

    @Test
    void shouldSkipWithoutDockerWhenCiIsNotTrue() {
        for (String notCi : new String[] {"false", "", "0", "yes please"}) {
            ConditionEvaluationResult result = DockerRequirement.evaluate(Map.of("CI", notCi), NO_DOCKER,
                    NOTHING_RECORDED);
            assertTrue(result.isDisabled(), "CI=" + notCi);
        }
    }

    @Test
    void shouldRunWhenDockerAnswersWhetherCiOrNot() {
        Supplier<Optional<String>> mustNotBeRead = () -> {
            throw new AssertionError("the provisioning reason is irrelevant when Docker answers");
        };
        assertFalse(DockerRequirement.evaluate(Map.of("CI", "true"), DOCKER, mustNotBeRead).isDisabled());
        assertFalse(DockerRequirement.evaluate(Map.of(), DOCKER, mustNotBeRead).isDisabled());
    }
}
