package io.gdastreams.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Layers point one way: bench → {cli, replay, service, settings, broker, lifecycle} → topology → {serde, model, config} → math; math imports only java.* and
 * EJML; config (the declaration of the configuration keys) only java.* and math.
 */
class LayeringTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.gdastreams");
    }

    @Test
    void mathShouldDependOnlyOnJavaAndEjml() {
        noClasses().that().resideInAPackage("io.gdastreams.math..")
                .should().dependOnClassesThat()
                .resideOutsideOfPackages("java..", "org.ejml..", "io.gdastreams.math..")
                .check(classes);
    }

    @Test
    void modelRecordsShouldNotDependOnKafkaOrOtherLayers() {
        noClasses().that().resideInAPackage("io.gdastreams.model..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("org.apache.kafka..", "io.gdastreams.serde..", "io.gdastreams.topology..",
                        "io.gdastreams.config..", "io.gdastreams.cli..", "io.gdastreams.service..", "io.gdastreams.settings..", "io.gdastreams.replay..",
                        "io.gdastreams.broker..", "io.gdastreams.lifecycle..")
                .check(classes);
    }

    @Test
    void lowerLayersShouldNotDependOnTopologyOrApp() {
        noClasses().that().resideInAnyPackage("io.gdastreams.math..", "io.gdastreams.model..",
                        "io.gdastreams.serde..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.gdastreams.topology..", "io.gdastreams.cli..", "io.gdastreams.service..", "io.gdastreams.settings..", "io.gdastreams.replay..",
                        "io.gdastreams.broker..", "io.gdastreams.lifecycle..")
                .check(classes);
    }

    /** The bench builds on app (the broker, topic provisioning); app finds its command as a CommandPlugin. */
    @Test
    void appShouldNotDependOnBench() {
        noClasses().that().resideInAnyPackage("io.gdastreams.cli..", "io.gdastreams.service..", "io.gdastreams.settings..", "io.gdastreams.replay..",
                        "io.gdastreams.broker..", "io.gdastreams.lifecycle..")
                .should().dependOnClassesThat().resideInAPackage("io.gdastreams.bench..")
                .check(classes);
    }

    /** Declarations only: the topology and serde layers read their defaults here, so nothing may flow back. */
    @Test
    void configShouldDependOnlyOnJavaAndMath() {
        noClasses().that().resideInAPackage("io.gdastreams.config..")
                .should().dependOnClassesThat()
                .resideOutsideOfPackages("java..", "io.gdastreams.config..", "io.gdastreams.math..")
                .check(classes);
    }

    @Test
    void topologyShouldNotDependOnApp() {
        noClasses().that().resideInAPackage("io.gdastreams.topology..")
                .should().dependOnClassesThat().resideInAnyPackage("io.gdastreams.cli..", "io.gdastreams.service..", "io.gdastreams.settings..", "io.gdastreams.replay..",
                        "io.gdastreams.broker..", "io.gdastreams.lifecycle..")
                .check(classes);
    }
}
