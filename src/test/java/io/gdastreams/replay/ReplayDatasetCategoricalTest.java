package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.UserError;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Categorical columns of a replay are text, whatever they look like: a Bernoulli 0/1 column stays "0"/"1". */
class ReplayDatasetCategoricalTest {

    private static CsvTable csv(String text) {
        return CsvTable.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t.csv");
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void shouldSendCategoricalCellsAsStringsAndTheRestAsNumbers() {
        CsvTable table = csv("y,flag,student,x\na,1,Yes,2.5\nb,0,,3\n");
        ReplayDataset data = ReplayDataset.of(table, table, "y", null, null, List.of("student", "flag"));
        assertEquals(List.of("x"), data.features());
        assertEquals(List.of("flag", "student"), data.categorical(), "file order");
        assertEquals("{\"features\":{\"flag\":\"1\",\"student\":\"Yes\",\"x\":2.5},\"label\":\"a\"}",
                text(data.training().get(0).value()));
        assertEquals("{\"id\":\"2\",\"features\":{\"flag\":\"0\",\"x\":3.0}}", text(data.scoring().get(1).value()),
                "an empty cell is a missing value");
    }

    @Test
    void shouldRefuseACategoricalFeatureThatIsNotAFeatureColumn() {
        CsvTable table = csv("y,x\na,1\n");
        UserError e = assertThrows(UserError.class,
                () -> ReplayDataset.of(table, table, "y", null, null, List.of("student")));
        assertTrue(e.getMessage().contains("categorical feature 'student'"), e.getMessage());
    }
}
