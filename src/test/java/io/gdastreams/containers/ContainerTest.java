package io.gdastreams.containers;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Marks a test class that needs a Docker engine: Testcontainers manages its {@code @Container} fields, and
 * {@link DockerRequirement} decides what happens without an engine: skipped with the reason on a developer's
 * machine, FAILED under {@code CI=true}, so CI can never report green with these tests silently skipped.
 *
 * <p>Use this instead of {@code @Testcontainers}; {@code ContainerTestRuleTest} fails any test class that uses
 * Testcontainers without it, or that skips itself through {@code disabledWithoutDocker = true} or
 * {@code @EnabledIfDockerAvailable}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Testcontainers
@ExtendWith(DockerRequirement.class)
public @interface ContainerTest {
}
