package io.gdastreams.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gdastreams.math.DecisionRule;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The numeric types accept exactly the ranges their help text ({@link ValueType#expected}) promises: the closed
 * ends read as themselves, the values just outside are refused, so a user's 0 or 1 works and a negative floor or
 * half-life is a configuration error rather than a strange model.
 */
class NumericBoundsTest {

    @Test
    void shouldAcceptBothEndsOfTheUnitIntervalAndNothingOutside() {
        // gda.reg.param: 0 = no regularisation, 1 = fully pooled; both documented as valid.
        assertEquals(Optional.of(0.0), ValueType.UNIT_INTERVAL.parse("0"));
        assertEquals(Optional.of(1.0), ValueType.UNIT_INTERVAL.parse("1"));
        for (String outside : List.of("-0.01", "1.01", "NaN")) {
            assertFalse(ValueType.UNIT_INTERVAL.accepts(outside), outside);
        }
    }

    @Test
    void shouldAcceptZeroButNoNegativeOrInfiniteNonNegativeDouble() {
        // gda.categorical.alpha=0 (no smoothing) is a documented choice.
        assertEquals(Optional.of(0.0), ValueType.NON_NEGATIVE_DOUBLE.parse("0"));
        for (String outside : List.of("-1e-9", "Infinity", "NaN")) {
            assertFalse(ValueType.NON_NEGATIVE_DOUBLE.accepts(outside), outside);
        }
    }

    @Test
    void shouldRefuseAZeroNegativeOrInfiniteHalfLife() {
        assertEquals(Optional.of(OptionalDouble.of(1e-3)), ValueType.OPTIONAL_POSITIVE_DOUBLE.parse("1e-3"));
        for (String outside : List.of("0", "-5", "Infinity", "NaN")) {
            assertFalse(ValueType.OPTIONAL_POSITIVE_DOUBLE.accepts(outside), outside);
        }
    }

    @Test
    void shouldAcceptThresholdsAndCostsAtTheEndsOfTheirRanges() {
        assertEquals(Optional.of(Optional.of(new DecisionRule.Threshold("Yes", 0.0))),
                ValueType.DECISION_THRESHOLD.parse("Yes:0"));
        assertEquals(Optional.of(Optional.of(new DecisionRule.Threshold("Yes", 1.0))),
                ValueType.DECISION_THRESHOLD.parse("Yes:1"));
        // A zero cost (a mistake that costs nothing) is valid.
        assertEquals(Optional.of(Optional.of(new DecisionRule.MinimumExpectedCost(Map.of("Yes", Map.of("No", 0.0))))),
                ValueType.DECISION_COSTS.parse("Yes->No:0"));
    }

    @Test
    void shouldAcceptANameOfExactlyTheLongestLength() {
        String longest = "n".repeat(ValueType.MAX_NAME_CHARS);
        assertEquals(Optional.of(longest), ValueType.NAME.parse(longest));
    }
}
