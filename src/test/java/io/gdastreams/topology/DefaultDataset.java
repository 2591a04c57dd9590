package io.gdastreams.topology;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.IntPredicate;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The credit-default data of src/test/resources/fixtures/default (default, student, balance, income) and the model the
 * training topology makes of it with {@code student} categorical: what the categorical parity and imputation tests
 * score against their references.
 */
final class DefaultDataset {

    static final Path FIXTURES = Path.of("src/test/resources/fixtures/default");

    private DefaultDataset() {
    }

    /** The data rows of default.csv, split into cells. */
    static List<String[]> rows() {
        try {
            return Files.readAllLines(FIXTURES.resolve("default.csv"), StandardCharsets.UTF_8).stream().skip(1)
                    .map(line -> line.split(",")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The model published after the training topology (TopologyTestDriver, state in {@code stateDir}) read the rows
     * {@code include} accepts, with balance and income continuous and student categorical.
     */
    static ModelParameters train(List<String[]> rows, IntPredicate include, Path stateDir) {
        Topics topics = Topics.defaults();
        TrainingSettings settings = TrainingSettings.defaults(topics).withModelId("default")
                .withFeatures(List.of("balance", "income")).withPublishInterval(Duration.ofSeconds(1))
                .withCategorical(CategoricalSettings.NONE.withFeatures(List.of("student")));
        try (TopologyTestDriver driver = TrainingFixtures.trainingDriver(settings, stateDir, "default-data", null)) {
            TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, topics.labelled());
            TestOutputTopic<String, ModelParameters> models = DriverTopics.output(driver, topics.model());
            for (int i = 0; i < rows.size(); i++) {
                if (include.test(i)) {
                    labelled.pipeInput(null, event(rows.get(i), true));
                }
            }
            driver.advanceWallClockTime(Duration.ofSeconds(1));
            List<ModelParameters> published = models.readValuesToList();
            return published.get(published.size() - 1);
        }
    }

    /** The event of a CSV row: default, student, balance, income. */
    static byte[] event(String[] row, boolean labelled) {
        ObjectNode root = Json.mapper().createObjectNode();
        ObjectNode features = root.putObject("features");
        features.put("student", row[1]);
        features.put("balance", Double.parseDouble(row[2]));
        features.put("income", Double.parseDouble(row[3]));
        if (labelled) {
            root.put("label", row[0]);
        }
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }
}
