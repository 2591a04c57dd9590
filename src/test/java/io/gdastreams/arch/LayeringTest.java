package io.gdastreams.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.File;
import java.io.IOException;
import java.io.FileInputStream;
import java.io.FileReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The package map of docs/ARCHITECTURE.md, enforced: which packages of ours each package may import
 * ({@link #MAY_IMPORT}, also checked against the table in that file), no cycles between packages, and what each
 * may use of the outside world (math and model plain Java, topologies reading no configuration themselves, the
 * Kafka broker only in {@code broker}). {@link #everyRuleShouldCatchItsViolation()} shows that every rule fails on
 * a class that breaks it.
 */
class LayeringTest {

    private static final String ROOT = "io.gdastreams";
    private static final Path ARCHITECTURE_MD = Path.of("docs/ARCHITECTURE.md");
    private static final String VIOLATIONS = "io.gdastreams.arch.violation";

    /**
     * Each package of ours (bottom to top) and the packages of ours it may import besides itself. Imports flow
     * one way: nothing imports {@code bench}, {@code cli} finds it as a CommandPlugin.
     */
    static final Map<String, List<String>> MAY_IMPORT = packageMap(
            "math", "",
            "model", "math",
            "config", "math",
            "serde", "model config math",
            "topology", "serde model config math",
            "lifecycle", "",
            "settings", "topology config math lifecycle",
            "broker", "lifecycle",
            "service", "settings topology serde model config math lifecycle",
            "replay", "service broker settings topology serde model config math lifecycle",
            "sample", "topology serde model config math lifecycle",
            "ops", "service settings topology serde model config math lifecycle",
            "view", "replay topology model math lifecycle",
            "console", "lifecycle",
            "cli", "ops console view sample replay service broker settings topology serde model config math lifecycle",
            "bench", "cli replay service broker settings topology serde model config math lifecycle");

    /** What the slim service jar ships besides the JDK (pom.xml, execution "service"): no broker, no Scala. */
    private static final String[] SERVICE_JAR_PACKAGES = {"java..", "io.gdastreams..", "org.apache.kafka.clients..",
            "org.apache.kafka.common..", "org.apache.kafka.streams..", "com.fasterxml.jackson..", "org.ejml..",
            "org.apache.commons.numbers..", "picocli..", "org.slf4j..", "io.micrometer..", "com.sun.net.httpserver..",
            "javax.net.ssl..", "javax.crypto..", // both the JDK's own (java.base): TLS of the endpoint, signatures
            "jdk.incubator.vector.."}; // the JDK's; optional (math.KernelChoice)

    private static JavaClasses product;

    @BeforeAll
    static void importProduct() {
        product = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    private static Map<String, List<String>> packageMap(String... packageAndImports) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (int i = 0; i < packageAndImports.length; i += 2) {
            String imports = packageAndImports[i + 1];
            map.put(packageAndImports[i], imports.isEmpty() ? List.of() : List.of(imports.split(" ")));
        }
        return map;
    }

    private static String[] packages(String root, Stream<String> names) {
        return names.map(name -> root + "." + name + "..").toArray(String[]::new);
    }

    static ArchRule mayImportOnly(String root, String name) {
        String[] allowed = packages(root, Stream.concat(Stream.of(name), MAY_IMPORT.get(name).stream()));
        return classes().that().resideInAPackage(root + "." + name + "..")
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(root + "..").or(resideInAnyPackage(allowed)))
                .as(name + " may import only " + MAY_IMPORT.get(name) + " of ours");
    }

    static ArchRule everyClassInAMappedPackage(String root) {
        return classes().should().resideInAnyPackage(packages(root, MAY_IMPORT.keySet().stream()))
                .as("every class lives in a package of the map (a new package is added to it and to the docs)");
    }

    static ArchRule freeOfCycles(String root) {
        return slices().matching(root + ".(*)..").should().beFreeOfCycles();
    }

    /**
     * Java, EJML (the factorisations), Commons Numbers (the chi-square tail, {@code math.ChiSquare}) and the JDK's
     * Vector API (the optional kernel {@code math.VectorTriangularKernel}, loaded only with its module).
     */
    static ArchRule mathUsesOnlyJavaAndEjml(String root) {
        return classes().that().resideInAPackage(root + ".math..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "org.ejml..",
                        "org.apache.commons.numbers..", "jdk.incubator.vector..", root + ".math..");
    }

    /** The wire records: no Kafka, no Jackson (their JSON mapping is serde's). */
    static ArchRule modelIsPlainJava(String root) {
        return classes().that().resideInAPackage(root + ".model..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", root + ".math..", root + ".model..");
    }

    /** Declarations only: the topologies and serdes read their defaults here. */
    static ArchRule configIsPlainJava(String root) {
        return classes().that().resideInAPackage(root + ".config..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", root + ".math..", root + ".config..");
    }

    static ArchRule lifecycleUsesOnlyJavaAndSlf4j(String root) {
        return classes().that().resideInAPackage(root + ".lifecycle..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "org.slf4j..", root + ".lifecycle..");
    }

    /**
     * The topologies and everything below them take their settings as values: no command line, no files, no
     * environment, no system properties, no {@code Properties}. Reading those is {@code settings}' job.
     */
    static ArchRule topologiesReadNoConfiguration(String root) {
        return noClasses().that().resideInAnyPackage(packages(root, Stream.of("topology", "serde", "model", "config",
                        "math")))
                .should().dependOnClassesThat().resideInAnyPackage("picocli..", "java.nio.file..")
                .orShould().dependOnClassesThat().belongToAnyOf(Properties.class, File.class, FileInputStream.class,
                        FileReader.class)
                .orShould().callMethod(System.class, "getenv")
                .orShould().callMethod(System.class, "getenv", String.class)
                .orShould().callMethod(System.class, "getProperty", String.class)
                .orShould().callMethod(System.class, "getProperty", String.class, String.class)
                .as("topology, serde, model, config and math read no configuration (command line, files, "
                        + "environment, system properties)");
    }

    /**
     * The slim service jar leaves the broker (kafka_2.13, Scala) out: only {@code broker} may reach it. It leaves
     * the charts out too: only {@code view} draws (XChart, VectorGraphics2D, AWT, ImageIO), and checks that it can.
     */
    static ArchRule onlyTheBrokerUsesKafkaServerClasses(String root) {
        return classes().that().resideOutsideOfPackages(root + ".broker..", root + ".view..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(SERVICE_JAR_PACKAGES)
                .as("outside broker and view, only what the slim service jar ships");
    }

    static ArchRule onlyCommandsUsePicocli(String root) {
        return noClasses().that().resideOutsideOfPackages(root + ".cli..", root + ".bench..")
                .should().dependOnClassesThat().resideInAPackage("picocli..");
    }

    /**
     * Metrics and HTTP are the operating layer's ({@code ops}): the topologies tell what they do through
     * {@code topology.StreamObserver} and stay free of Micrometer and of any server.
     */
    static ArchRule onlyOpsUsesMetricsAndHttp(String root) {
        return noClasses().that().resideOutsideOfPackages(root + ".ops..")
                .should().dependOnClassesThat().resideInAnyPackage("io.micrometer..", "io.prometheus..",
                        "com.sun.net.httpserver..")
                .as("only ops uses Micrometer, Prometheus and the HTTP server");
    }

    /** A rule with the class of the violation fixtures that breaks it: every rule is shown to be able to fail. */
    private record Rule(String name, Function<String, ArchRule> definition, String offender) {
    }

    /** The rules besides the per-package imports of {@link #MAY_IMPORT}. */
    private static final List<Rule> RULES = List.of(
            new Rule("packagesShouldBeFreeOfCycles", LayeringTest::freeOfCycles, "settings.Settings"),
            new Rule("everyClassShouldLiveInAMappedPackage", LayeringTest::everyClassInAMappedPackage,
                    "util.Unmapped"),
            new Rule("mathShouldDependOnlyOnJavaAndEjml", LayeringTest::mathUsesOnlyJavaAndEjml, "math.UsesKafka"),
            new Rule("modelRecordsShouldNotDependOnKafkaOrJackson", LayeringTest::modelIsPlainJava,
                    "model.JsonAnnotated"),
            new Rule("configShouldDependOnlyOnJavaAndMath", LayeringTest::configIsPlainJava, "config.UsesTopology"),
            new Rule("lifecycleShouldDependOnlyOnJavaAndSlf4j", LayeringTest::lifecycleUsesOnlyJavaAndSlf4j,
                    "lifecycle.UsesPicocli"),
            new Rule("topologiesShouldReadNoConfigurationThemselves", LayeringTest::topologiesReadNoConfiguration,
                    "topology.ReadsEnvironment"),
            new Rule("onlyTheBrokerShouldUseKafkaServerClasses", LayeringTest::onlyTheBrokerUsesKafkaServerClasses,
                    "service.StartsBroker"),
            new Rule("onlyCommandsShouldUsePicocli", LayeringTest::onlyCommandsUsePicocli, "lifecycle.UsesPicocli"),
            new Rule("onlyOpsShouldUseMetricsAndHttp", LayeringTest::onlyOpsUsesMetricsAndHttp,
                    "topology.CountsWithMicrometer"));

    /** Breaches of the per-package rule, one up the map (topology → settings) and one across it (service → broker). */
    private static final List<Rule> IMPORT_VIOLATIONS = List.of(
            new Rule("topologyShouldNotImportSettings", root -> mayImportOnly(root, "topology"),
                    "topology.ReadsSettings"),
            new Rule("serviceShouldNotImportTheBroker", root -> mayImportOnly(root, "service"),
                    "service.StartsBroker"));

    @TestFactory
    Stream<DynamicTest> eachPackageShouldImportOnlyWhatTheMapAllows() {
        return MAY_IMPORT.keySet().stream().map(name -> DynamicTest.dynamicTest(name,
                () -> mayImportOnly(ROOT, name).check(product)));
    }

    @TestFactory
    Stream<DynamicTest> productShouldKeepEveryRule() {
        return RULES.stream().map(rule -> DynamicTest.dynamicTest(rule.name(),
                () -> rule.definition().apply(ROOT).check(product)));
    }

    /**
     * Every rule applied to classes that break it (src/test/java/io/gdastreams/arch/violation, one small class per
     * violation, in packages named as ours): a rule that cannot fail would guard nothing.
     */
    @TestFactory
    Stream<DynamicTest> everyRuleShouldCatchItsViolation() {
        JavaClasses violations = new ClassFileImporter().importPackages(VIOLATIONS);
        return Stream.concat(RULES.stream(), IMPORT_VIOLATIONS.stream()).map(rule -> DynamicTest.dynamicTest(
                rule.name() + " catches " + rule.offender(), () -> {
                    ArchRule archRule = rule.definition().apply(VIOLATIONS);
                    AssertionError e = assertThrows(AssertionError.class, () -> archRule.check(violations),
                            archRule.getDescription());
                    assertTrue(e.getMessage().contains(VIOLATIONS + "." + rule.offender()), e.getMessage());
                }));
    }

    /** Listed bottom to top, each package imports only packages listed before it: the map itself has no cycle. */
    @Test
    void mapShouldPointOnlyDownwards() {
        List<String> below = new ArrayList<>();
        for (Map.Entry<String, List<String>> entry : MAY_IMPORT.entrySet()) {
            assertTrue(below.containsAll(entry.getValue()), entry.getKey() + " imports " + entry.getValue()
                    + ", not all listed before it: " + below);
            below.add(entry.getKey());
        }
    }

    /** The table "Package map" of docs/ARCHITECTURE.md: one row per package, its imports in the last column. */
    @Test
    void architectureDocShouldShowThisPackageMap() throws IOException {
        Pattern row = Pattern.compile("^\\| `(\\w+)` \\|.*\\| ([^|]*) \\|$");
        Pattern code = Pattern.compile("`(\\w+)`");
        Map<String, List<String>> documented = new LinkedHashMap<>();
        boolean inMap = false;
        for (String line : Files.readAllLines(ARCHITECTURE_MD, StandardCharsets.UTF_8)) {
            if (line.startsWith("## ")) {
                inMap = line.startsWith("## Package map");
            }
            Matcher m = row.matcher(line);
            if (inMap && m.matches()) {
                List<String> imports = new ArrayList<>();
                Matcher c = code.matcher(m.group(2));
                while (c.find()) {
                    imports.add(c.group(1));
                }
                documented.put(m.group(1), imports);
            }
        }
        assertEquals(MAY_IMPORT, documented, ARCHITECTURE_MD + ", section 'Package map'");
    }
}
