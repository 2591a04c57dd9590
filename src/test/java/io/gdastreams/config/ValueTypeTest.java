package io.gdastreams.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Estimator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** One parse per type: what it accepts is what it reads, as the type the accessors cast to. */
class ValueTypeTest {

    @Test
    void shouldAcceptEveryDeclaredDefaultWithTheKeysOwnValidator() {
        for (ConfigKey key : ConfigKey.values()) {
            assertTrue(key.type().accepts(key.defaultValue()), key.key() + " = '" + key.defaultValue() + "'");
        }
    }

    @Test
    void shouldReadEachValueAsTheTypeItsAccessorCastsTo() {
        assertEquals(Optional.of("iris"), ValueType.NAME.parse(" iris "));
        assertEquals(Optional.of(List.of("a", "b", "c")), ValueType.NAME_LIST.parse("a, b ,c"));
        assertEquals(Optional.of(List.of()), ValueType.NAME_LIST.parse(""));
        assertEquals(Optional.of(1000L), ValueType.POSITIVE_LONG.parse("1000"));
        assertEquals(Optional.of(7), ValueType.POSITIVE_INT.parse("7"));
        assertEquals(Optional.of((short) -1), ValueType.REPLICATION.parse("-1"));
        assertEquals(Optional.of((short) 3), ValueType.REPLICATION.parse("3"));
        assertEquals(Optional.of(1e-9), ValueType.NON_NEGATIVE_DOUBLE.parse("1e-9"));
        assertEquals(Optional.of(OptionalDouble.empty()), ValueType.OPTIONAL_DOUBLE.parse(""));
        assertEquals(Optional.of(OptionalDouble.of(-12.5)), ValueType.OPTIONAL_DOUBLE.parse("-12.5"));
        assertEquals(Optional.of(Boolean.FALSE), ValueType.BOOLEAN.parse("false"));
        assertEquals(Optional.of(Optional.empty()), ValueType.DECISION_THRESHOLD.parse(""));
        assertEquals(Optional.of(Optional.of(new DecisionRule.Threshold("a:b", 0.25))),
                ValueType.DECISION_THRESHOLD.parse(" a:b : 0.25 "), "the last ':' starts the probability");
        assertEquals(Optional.of(Optional.of(new DecisionRule.MinimumExpectedCost(Map.of(
                        "Yes", Map.of("No", 5.0), "No", Map.of("Yes", 1.0, "Maybe", 0.5))))),
                ValueType.DECISION_COSTS.parse("Yes->No:5, No->Yes:1,No->Maybe:0.5"));
    }

    @Test
    void shouldRefuseMalformedDecisionRules() {
        for (String bad : List.of("Yes", "Yes:", ":0.2", "Yes:1.5", "Yes:-0.1", "Yes:NaN", "a,b:0.2")) {
            assertFalse(ValueType.DECISION_THRESHOLD.accepts(bad), bad);
        }
        for (String bad : List.of("Yes:5", "Yes->No", "Yes->No:-1", "Yes->No:Infinity", "->No:1", "Yes->:1",
                "Yes->No:1,Yes->No:2", "Yes->No:1,", "a->b->c:1", "Yes->No:abc")) {
            assertFalse(ValueType.DECISION_COSTS.accepts(bad), bad);
        }
    }

    @Test
    void shouldReadFixedPriorsInTheirOrderWithTheLastColonStartingEachProbability() {
        Optional<Object> read = ValueType.PRIORS.parse(" Yes : 0.25, No:0.5 ,a:b:0.25 ");
        assertEquals(Optional.of(Map.of("Yes", 0.25, "No", 0.5, "a:b", 0.25)), read);
        assertEquals(List.of("Yes", "No", "a:b"), List.copyOf(((Map<?, ?>) read.orElseThrow()).keySet()),
                "in the order written");
        assertEquals(Optional.of(Map.of()), ValueType.PRIORS.parse("  "), "empty: learned priors");
        assertEquals(Optional.of(Map.of("only", 1.0)), ValueType.PRIORS.parse("only:1"));
        // Within the fit's tolerance of 1 (1e-9): thirds written to six digits are not.
        assertTrue(ValueType.PRIORS.accepts("a:0.3333333333,b:0.3333333333,c:0.3333333334"));
        assertFalse(ValueType.PRIORS.accepts("a:0.333333,b:0.333333,c:0.333333"));
    }

    @Test
    void shouldRefuseMalformedPriors() {
        for (String bad : List.of("Yes", "Yes:", ":1", "Yes:0,No:1", "Yes:1.5,No:-0.5", "Yes:NaN", "Yes:0.5,Yes:0.5",
                "Yes:0.5,No:0.5,", ",Yes:1", "Yes:0.25,No:0.7", "Yes:Infinity", "Yes:one")) {
            assertFalse(ValueType.PRIORS.accepts(bad), bad);
        }
    }

    @Test
    void shouldRefuseValuesOutsideEachTypesRange() {
        for (String replication : List.of("0", "-2", "32768", "x")) {
            assertFalse(ValueType.REPLICATION.accepts(replication), replication);
        }
        assertFalse(ValueType.POSITIVE_INT.accepts("2147483648"));
        assertFalse(ValueType.TOP_K.accepts(Integer.toString(ValueType.MAX_TOP_K + 1)));
        assertFalse(ValueType.NAME.accepts("n".repeat(ValueType.MAX_NAME_CHARS + 1)));
        assertFalse(ValueType.TOPIC.accepts(".."));
        assertFalse(ValueType.OPTIONAL_DOUBLE.accepts("NaN"));
        assertEquals(Optional.of(OptionalDouble.empty()), ValueType.OPTIONAL_PROBABILITY.parse(""));
        assertEquals(Optional.of(OptionalDouble.of(0.001)), ValueType.OPTIONAL_PROBABILITY.parse(" 0.001 "));
        for (String outside : new String[] {"0", "1", "-0.1", "1.5", "NaN", "x"}) {
            assertFalse(ValueType.OPTIONAL_PROBABILITY.accepts(outside), outside);
        }
        assertFalse(ValueType.BOOLEAN.accepts("yes"));
        assertEquals(Optional.of(java.util.OptionalInt.empty()), ValueType.OPTIONAL_PORT.parse(" "));
        assertEquals(Optional.of(java.util.OptionalInt.of(0)), ValueType.OPTIONAL_PORT.parse("0"));
        assertEquals(Optional.of(java.util.OptionalInt.of(65535)), ValueType.OPTIONAL_PORT.parse("65535"));
        for (String port : List.of("-1", "65536", "80x", "1.5")) {
            assertFalse(ValueType.OPTIONAL_PORT.accepts(port), port);
        }
    }

    /** A duplicate name reached TrainingSettings and failed there, with a stack trace, not as a config error. */
    @Test
    void shouldRefuseAFeatureListWithADuplicateOrABlankName() {
        assertFalse(ValueType.NAME_LIST.accepts("a,b,a"));
        assertFalse(ValueType.NAME_LIST.accepts("a, a"));
        assertFalse(ValueType.NAME_LIST.accepts("a,,b"));
    }

    /** A covariance type or estimator added to the math package is a valid value at once, under its name. */
    @Test
    void shouldTakeTheCovarianceAndEstimatorNamesFromTheMathTypes() {
        for (CovarianceType type : CovarianceType.values()) {
            assertEquals(Optional.of(type), ValueType.COVARIANCE.parse(type.name().toLowerCase(Locale.ROOT)));
        }
        for (Estimator estimator : Estimator.values()) {
            assertEquals(Optional.of(estimator), ValueType.ESTIMATOR.parse(estimator.name().toLowerCase(Locale.ROOT)));
        }
        assertEquals("one of full, tied, diag", ValueType.COVARIANCE.expected());
        assertFalse(ValueType.COVARIANCE.accepts("FULL"), "names are lower case, as documented");
    }
}
