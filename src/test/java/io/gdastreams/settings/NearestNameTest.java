package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The "did you mean" hint of an unknown key or variable: the edit distance is Levenshtein's, and a name at exactly
 * the allowed distance (2 edits, or a fifth of a longer name) still gets its hint.
 */
class NearestNameTest {

    @Test
    void shouldCountInsertionsDeletionsAndSubstitutions() {
        assertEquals(3, NearestName.distance("kitten", "sitting"));
        assertEquals(3, NearestName.distance("", "abc"));
        assertEquals(3, NearestName.distance("abc", ""));
        assertEquals(0, NearestName.distance("gda.model.id", "gda.model.id"));
    }

    @Test
    void shouldHintANameAtExactlyTheAllowedDistanceAndNoFarther() {
        assertEquals(Optional.of("abxy"), NearestName.nearest("abcd", List.of("zzzzzz", "abxy")));
        assertEquals(Optional.empty(), NearestName.nearest("abcd", List.of("axyz")));
        // 15 characters: 3 edits allowed.
        assertEquals("; did you mean gda.model.id?", NearestName.hint("gda.modelxx.idx", List.of("gda.model.id")));
    }
}
