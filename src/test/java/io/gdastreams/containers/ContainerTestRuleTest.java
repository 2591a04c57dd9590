package io.gdastreams.containers;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.EnabledIfDockerAvailable;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * No container test can skip silently in CI: every test class that uses Testcontainers is a {@link ContainerTest}
 * (whose {@link DockerRequirement} fails it under CI=true without Docker), and none skips itself by Testcontainers'
 * own means ({@code @Testcontainers(disabledWithoutDocker = true)}, {@code @EnabledIfDockerAvailable}), which
 * would decide before {@link DockerRequirement} is asked.
 */
class ContainerTestRuleTest {

    private static final String TESTCONTAINERS_PACKAGE = "org.testcontainers";

    private static final DescribedPredicate<JavaClass> HAVE_TESTS = DescribedPredicate.describe("have tests",
            c -> c.getAllMethods().stream().anyMatch(m -> m.isMetaAnnotatedWith(Testable.class)));

    private static final DescribedPredicate<JavaClass> USE_TESTCONTAINERS = DescribedPredicate.describe(
            "use Testcontainers", c -> c.getDirectDependenciesFromSelf().stream()
                    .map(d -> d.getTargetClass())
                    .anyMatch(t -> t.getPackageName().startsWith(TESTCONTAINERS_PACKAGE)
                            || t.isAssignableTo(GenericContainer.class)));

    /** Every test class that uses Testcontainers is a {@link ContainerTest}. */
    static final ArchRule CONTAINER_TESTS_ARE_GUARDED = classes().that(HAVE_TESTS).and(USE_TESTCONTAINERS)
            .should().beMetaAnnotatedWith(ContainerTest.class)
            .because("without Docker a container test must fail under CI=true, not skip (DockerRequirement)");

    /** Testcontainers' own skipping is reserved to {@link ContainerTest}, which does not use it. */
    static final ArchRule NO_SILENT_SKIPS = noClasses().that().doNotHaveFullyQualifiedName(ContainerTest.class.getName())
            .should().beAnnotatedWith(Testcontainers.class)
            .orShould().beMetaAnnotatedWith(EnabledIfDockerAvailable.class)
            .because("Testcontainers' disabledWithoutDocker / @EnabledIfDockerAvailable skip even under CI=true;"
                    + " use @ContainerTest");

    private static JavaClasses tests;

    @BeforeAll
    static void importTestClasses() {
        // Without this class: it and its fixtures use Testcontainers' annotations on purpose.
        tests = new ClassFileImporter().withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("/" + ContainerTestRuleTest.class.getSimpleName()))
                .importPackages("io.gdastreams");
    }

    @Test
    void shouldMakeEveryTestClassThatUsesTestcontainersAContainerTest() {
        CONTAINER_TESTS_ARE_GUARDED.check(tests);
        // The rule is not vacuous: the container ITs are among the classes it constrains.
        List<String> guarded = tests.stream().filter(HAVE_TESTS).filter(USE_TESTCONTAINERS)
                .map(JavaClass::getSimpleName).sorted().toList();
        assertTrue(guarded.containsAll(List.of("AppImageContainerIT", "EndToEndContainerIT", "KafkaContainerIT",
                "OlderBrokerContainerIT", "PreviousBrokerContainerIT")),
                "classes seen as container tests: " + guarded);
    }

    @Test
    void shouldLetNoTestSkipItselfByTestcontainersMeans() {
        NO_SILENT_SKIPS.check(tests);
    }

    @Test
    void shouldCatchTheWaysAContainerTestCouldSkipSilently() {
        assertTrue(CONTAINER_TESTS_ARE_GUARDED.evaluate(imported(Unguarded.class)).hasViolation(),
                "a container test without @ContainerTest");
        assertTrue(NO_SILENT_SKIPS.evaluate(imported(SkipsWithoutDocker.class)).hasViolation(),
                "@Testcontainers(disabledWithoutDocker = true)");
        assertTrue(NO_SILENT_SKIPS.evaluate(imported(EnabledOnlyWithDocker.class)).hasViolation(),
                "@EnabledIfDockerAvailable");
        assertFalse(CONTAINER_TESTS_ARE_GUARDED.evaluate(imported(Guarded.class)).hasViolation(), "@ContainerTest");
        assertFalse(NO_SILENT_SKIPS.evaluate(imported(Guarded.class)).hasViolation(), "@ContainerTest");
    }

    private static JavaClasses imported(Class<?> fixture) {
        return new ClassFileImporter().importClasses(fixture);
    }

    // Fixtures for the rules above; never run (static nested, and disabled should a runner pick them up anyway).

    @Disabled("fixture of ContainerTestRuleTest")
    static class Unguarded {
        @Container
        static final GenericContainer<?> CONTAINER = null;

        @Test
        void test() {
        }
    }

    @Disabled("fixture of ContainerTestRuleTest")
    @Testcontainers(disabledWithoutDocker = true)
    static class SkipsWithoutDocker {
        @Test
        void test() {
        }
    }

    @Disabled("fixture of ContainerTestRuleTest")
    @EnabledIfDockerAvailable
    static class EnabledOnlyWithDocker {
        @Test
        void test() {
        }
    }

    @Disabled("fixture of ContainerTestRuleTest")
    @ContainerTest
    static class Guarded {
        @Container
        static final GenericContainer<?> CONTAINER = null;

        @Test
        void test() {
        }
    }
}
