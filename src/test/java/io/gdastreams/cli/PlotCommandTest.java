package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.serde.ModelSerde;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plot} and {@code inspect} on a model file: what they write, and the one-line refusals. */
class PlotCommandTest {

    @TempDir
    Path dir;

    private Path model;
    private Path iris;

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    @BeforeEach
    void writeModel() throws IOException {
        model = dir.resolve("model.json");
        Files.write(model, new ModelSerde().serializer().serialize("m", Iris.model("iris", 4, Iris.rows())));
        iris = dir.resolve("iris.csv");
        try (InputStream in = PlotCommandTest.class.getResourceAsStream(DemoCommand.IRIS)) {
            Files.write(iris, in.readAllBytes());
        }
    }

    @Test
    void shouldWriteAPngOfTheRequestedSizeWithPoints() throws IOException {
        Path png = dir.resolve("iris.png");
        Outcome outcome = run("plot", "--model", model.toString(), "--x", "petal_length", "--y", "petal_width",
                "--data", iris.toString(), "--label", "species", "--covariance", "full", "--width", "800",
                "--height", "600", "--output", png.toString());
        assertEquals(ExitCodes.OK, outcome.code(), outcome.err());
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(800, image.getWidth());
        assertEquals(600, image.getHeight());
        assertTrue(outcome.err().contains("model 'iris' version 4, petal_length × petal_width, 150 points"),
                outcome.err());
    }

    @Test
    void shouldWriteAnSvgWithDensityContours() throws IOException {
        Path svg = dir.resolve("iris.svg");
        Outcome outcome = run("plot", "--model", model.toString(), "--x", "sepal_length", "--y", "sepal_width",
                "--density", "--output", svg.toString());
        assertEquals(ExitCodes.OK, outcome.code(), outcome.err());
        String text = Files.readString(svg, StandardCharsets.UTF_8);
        assertTrue(text.contains("width=\"1000px\"") && text.contains("height=\"750px\""), text.substring(0, 400));
    }

    @Test
    void shouldRefuseInOneLine() throws IOException {
        assertUserError(run("plot", "--model", model.toString(), "--x", "petal_length", "--y", "petal_width",
                "--output", dir.resolve("x.jpg").toString()), "must end in .png or .svg");
        assertUserError(run("plot", "--model", model.toString(), "--x", "petal_length", "--y", "petal_width",
                "--data", iris.toString(), "--output", dir.resolve("x.png").toString()), "--data and --label");
        assertUserError(run("plot", "--model", model.toString(), "--x", "petal_length", "--y", "petal_width",
                "--width", "640", "--output", dir.resolve("x.png").toString()), "--width must be between 800");
        assertUserError(run("plot", "--model", model.toString(), "--x", "petal_length", "--y", "colour",
                "--output", dir.resolve("x.png").toString()), "'colour' is not a feature of the model");
        assertUserError(run("plot", "--model", model.toString(), "--x", "petal_length", "--y", "petal_width",
                "--data", iris.toString(), "--label", "kind", "--output", dir.resolve("x.png").toString()),
                "--label kind: no such column");
        // A categorical feature is named as one: it is in the model, though not in the plane plot draws.
        String json = Files.readString(model, StandardCharsets.UTF_8);
        Path categorical = dir.resolve("categorical.json");
        Files.writeString(categorical, json.replace("\"totalCount\":150", "\"totalCount\":150,\"categorical\":"
                + "[{\"feature\":\"colour\",\"values\":[\"blue\",\"red\"],\"counts\":[[25,25],[25,25],[25,25]]}]"),
                StandardCharsets.UTF_8);
        assertUserError(run("plot", "--model", categorical.toString(), "--x", "petal_length", "--y", "colour",
                "--output", dir.resolve("x.png").toString()), "'colour' is not a continuous feature of the model (it is"
                + " categorical; plot draws the plane of two continuous features: sepal_length, sepal_width,"
                + " petal_length, petal_width)");
    }

    @Test
    void shouldInspectAFileAsTableOrAsItsBytes() throws IOException {
        Outcome table = run("inspect", "--model", model.toString());
        assertEquals(ExitCodes.OK, table.code(), table.err());
        assertTrue(table.out().contains("model:       iris") && table.out().contains("version:     4"), table.out());
        assertTrue(table.out().lines().anyMatch(l -> l.startsWith("versicolor ") && l.contains(" 50 ")),
                table.out());
        assertTrue(table.out().contains("scoring:     every class (full covariance, mle, gda.min.count 2)"),
                table.out());
        Outcome strict = run("inspect", "--model", model.toString(), "--set", "gda.min.count=51", "--set",
                "gda.covariance=tied");
        assertEquals(ExitCodes.OK, strict.code(), strict.err());
        assertTrue(strict.out().contains("scoring:     no class (tied covariance, mle, gda.min.count 51): setosa"
                + " (count 50 below minimum 51); "), "the scorer's options, from --set: " + strict.out());
        Outcome json = run("inspect", "--model", model.toString(), "--json");
        assertEquals(ExitCodes.OK, json.code(), json.err());
        assertEquals(Files.readString(model, StandardCharsets.UTF_8).strip(), json.out().strip());
        assertUserError(run("inspect", "--model", dir.resolve("none.json").toString()), "no such file");
    }

    private static void assertUserError(Outcome outcome, String fragment) {
        assertEquals(ExitCodes.USAGE, outcome.code(), outcome.err());
        assertEquals(1, outcome.err().strip().lines().count(), outcome.err());
        assertTrue(outcome.err().contains(fragment), outcome.err());
    }
}
