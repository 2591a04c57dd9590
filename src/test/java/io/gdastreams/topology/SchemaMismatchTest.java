package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The reason a labelled event's features do not fit the schema names only what is wrong. */
class SchemaMismatchTest {

    private static final List<String> SCHEMA = List.of("x", "y");

    @Test
    void shouldNameOnlyWhatIsWrong() {
        assertNull(LabelledEventCheck.schemaMismatch(Map.of("x", 1.0, "y", 2.0), SCHEMA));
        // A CSV row with an empty cell: a feature missing, nothing unexpected (it used to say "unexpected []").
        assertEquals("feature set differs from the schema [x, y]: missing [x]",
                LabelledEventCheck.schemaMismatch(Map.of("y", 2.0), SCHEMA));
        assertEquals("feature set differs from the schema [x, y]: unexpected [z]",
                LabelledEventCheck.schemaMismatch(Map.of("x", 1.0, "y", 2.0, "z", 3.0), SCHEMA));
        assertEquals("feature set differs from the schema [x, y]: missing [y], unexpected [w]",
                LabelledEventCheck.schemaMismatch(Map.of("x", 1.0, "w", 2.0), SCHEMA));
    }
}
