/**
 * Classes that each break one rule of {@link io.gdastreams.arch.LayeringTest}, in packages named as the product's;
 * {@code LayeringTest.everyRuleShouldCatchItsViolation} checks that each rule finds its class. Used by nothing else.
 */
package io.gdastreams.arch.violation;
