package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.serde.Json;
import io.gdastreams.topology.Topics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * inspect of a model file: a model no scorer can fit is shown (its scoring line says why) and then refused, exit 2,
 * as sample and plot refuse it; it used to end with exit 0.
 */
class InspectCommandTest {

    @TempDir
    Path dir;

    private record Outcome(int code, String out, String err) {
    }

    private Outcome inspect(Path model) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"inspect", "--model", model.toString()}, Map.of(), new PrintWriter(out, true),
                new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void shouldShowAndThenRefuseAModelWhoseCovarianceIsNotSymmetric() throws Exception {
        ObjectNode model = (ObjectNode) Json.mapper().readTree(Topics.defaults().model()
                .valueBytes(Iris.model("iris", 3, Iris.rows())));
        Path good = dir.resolve("good.json");
        Files.write(good, Json.mapper().writeValueAsBytes(model));
        Outcome fine = inspect(good);
        assertEquals(ExitCodes.OK, fine.code(), fine.err());
        assertTrue(fine.out().contains("scoring:     every class"), fine.out());

        ArrayNode row = (ArrayNode) model.get("classes").get(0).get("covariance").get(0);
        row.set(1, row.get(1).asDouble() + 0.5);
        Path bad = dir.resolve("bad.json");
        Files.write(bad, Json.mapper().writeValueAsBytes(model));
        Outcome refused = inspect(bad);
        assertEquals(ExitCodes.USAGE, refused.code(), refused.out() + refused.err());
        assertTrue(refused.out().contains("scoring:     none: the model does not fit"), refused.out());
        assertEquals(1, refused.err().strip().lines().count(), refused.err());
        assertTrue(refused.err().contains("model 'iris' version 3 cannot be scored: "), refused.err());
        assertTrue(refused.err().contains("symmetric"), refused.err());
    }
}
