package io.gdastreams.it;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives integration tests a real broker: one {@link KafkaBroker} per test JVM, started on first use and shared by
 * every {@code *IT} class (kept in the root extension store, so JUnit closes it when the JVM's tests end).
 *
 * <pre>
 * &#64;ExtendWith(KafkaBrokerExtension.class)
 * class SomethingIT {
 *     &#64;Test
 *     void shouldWork(KafkaBroker broker, &#64;TempDir Path stateDir) {
 *         String input = KafkaBroker.uniqueName("input");
 *         broker.createTopics(Map.of(input, 4));
 *         Properties props = broker.streamsProperties(KafkaBroker.uniqueName("app"), stateDir);
 *         ...
 *     }
 * }
 * </pre>
 * A {@code KafkaBroker} parameter can be declared on test methods, lifecycle methods and constructors.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KafkaBrokerExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        broker(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == KafkaBroker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return broker(context);
    }

    /** The JVM's broker, started if needed. */
    public static KafkaBroker broker(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(KafkaBroker.class, type -> KafkaBroker.start(), KafkaBroker.class);
    }
}
