package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.config.Role;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code GET /models/{modelId}} for a model id with characters a URL encodes. */
class ModelRouteTest {

    /**
     * The server hands routes the decoded path ({@code /models/a+b %41 ü} for {@code /models/a%2Bb%20%2541%20%C3%BC});
     * decoding it a second time turned '+' into ' ' and "%41" into "A", so such a model was a 404 unless encoded twice.
     */
    @Test
    void shouldServeAModelWhoseIdHasPlusAndPercentSigns() {
        String id = "a+b %41 ü";
        ModelParameters model = Iris.model(id, 3, Iris.rows());
        OpsRoutes routes = new OpsRoutes(new Health(Role.TRAINING, Optional::empty, Optional::empty),
                new OpsMetrics(null, java.time.Clock.systemUTC()), id, () -> Optional.of(model),
                FitOptions.defaults(), new DecisionRule.MostProbable(), null, false);
        try {
            OpsServer.Reply reply = routes.model(new OpsServer.Request("GET", "/models/" + id, null, new byte[0]));
            assertEquals(200, reply.status(), new String(reply.body(), StandardCharsets.UTF_8));
            assertEquals(404, routes.model(new OpsServer.Request("GET", "/models/a b A ü", null, new byte[0]))
                    .status());
        } finally {
            routes.close();
        }
    }
}
