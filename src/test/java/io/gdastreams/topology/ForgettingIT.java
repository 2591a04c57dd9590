package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.PipelineUnderTest;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.Forgetting;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.GroupCommittedInput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sample weights, retractions and forgetting through the training topology on a real broker (exactly_once_v2, 4
 * partitions): the events of src/test/resources/fixtures/forgetting/forgetting_golden.json go to their partitions
 * with their timestamps as record timestamps (interleaved and late), some under a wrong label that a retraction
 * plus the right event corrects later, and the instance that trained the first half loses its local state: the
 * model must still equal the numpy batch weighted MLE.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ForgettingIT {

    /** The done-criterion: ≤ 1e-9 relative (mean in σ, covariance in σ_iσ_j). */
    private static final double GOLDEN_RELATIVE = 1e-9;
    private static final int PARTITIONS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    private PipelineUnderTest pipeline;
    private KafkaStreams streams;
    /** The golden scenario's own pipeline and instance. */
    private GoldenCorrectionRun correctionRun;

    @AfterEach
    void stop() {
        if (correctionRun != null) {
            correctionRun.close();
        }
        PipelineUnderTest.close(streams, pipeline);
    }

    @Test
    void forgettingWeightsAndCorrectionsSurviveALostLocalStateAndEqualTheBatchFit(KafkaBroker broker)
            throws IOException {
        JsonNode golden;
        try (InputStream in = getClass().getResourceAsStream("/fixtures/forgetting/forgetting_golden.json")) {
            golden = JSON.readTree(in);
        }
        Forgetting forgetting = new Forgetting(golden.get("halfLifeMs").asDouble());
        correctionRun = new GoldenCorrectionRun(broker, stateDir, s -> s.withForgetting(forgetting),
                (e, features) -> {
                    for (int j = 0; j < e.get("x").size(); j++) {
                        features.set("f" + j, e.get("x").get(j));
                    }
                });
        ModelParameters model = correctionRun.run(golden, "forgetting", PARTITIONS);

        JsonNode expected = golden.get("forgetting");
        double totalWeight = expected.get("a").get("W").asDouble() + expected.get("b").get("W").asDouble();
        assertEquals(2, model.classes().size());
        double worst = 0;
        for (ClassParameters c : model.classes()) {
            JsonNode ref = expected.get(c.label());
            double w = ref.get("W").asDouble();
            double v = ref.get("V").asDouble();
            assertEquals(ref.get("count").asLong(), c.count());
            worst = Math.max(worst, check(w, c.effectiveCount(), w, c.label() + " W"));
            worst = Math.max(worst, check(w * w / v, c.effectiveSampleSize(), w * w / v, c.label() + " n_eff"));
            worst = Math.max(worst, check(w / totalWeight, c.prior(), 1, c.label() + " prior"));
            for (int i = 0; i < 3; i++) {
                double sii = ref.get("scatter").get(i).get(i).asDouble();
                worst = Math.max(worst, check(ref.get("mean").get(i).asDouble(), c.mean()[i], Math.sqrt(sii / w),
                        c.label() + " mean " + i));
                for (int j = 0; j < 3; j++) {
                    double scale = Math.sqrt(sii * ref.get("scatter").get(j).get(j).asDouble()) / w;
                    worst = Math.max(worst, check(ref.get("scatter").get(i).get(j).asDouble() / w,
                            c.covariance()[i][j], scale, c.label() + " covariance " + i + "," + j));
                }
            }
        }
        System.out.printf("ForgettingIT: largest relative difference from the numpy batch fit %.2e%n", worst);
    }

    /**
     * Weights, a retraction and fixed priors from training to the prediction: hand-computed 1-d classes
     * a: x = 1 (w 1), 3 (w 3): W = 4, μ = 2.5, σ² = S/W = 3/4; b: x = 6, 8 (w 2 each) and x = 100 (w 5) retracted:
     * W = 4, μ = 7, σ² = 1; c: x = 0, 10 and x = 50 of weight 0: unweighted, not listed in the fixed priors
     * a:0.3, b:0.7. The prediction for x = 4 is p(a|x) = 0.3·N(4; 2.5, 0.75) / (0.3·N(4; 2.5, 0.75) + 0.7·N(4; 7, 1)),
     * and c is excluded with the reason.
     */
    @Test
    void weightsRetractionsAndFixedPriorsReachThePrediction(KafkaBroker broker) {
        pipeline = PipelineUnderTest.create(broker, PARTITIONS);
        String labelled = pipeline.topics().labelled().name();
        String[] events = {
            "{\"features\":{\"x\":1},\"label\":\"a\",\"weight\":1}",
            "{\"features\":{\"x\":3},\"label\":\"a\",\"weight\":3}",
            "{\"features\":{\"x\":6},\"label\":\"b\",\"weight\":2}",
            "{\"features\":{\"x\":100},\"label\":\"b\",\"weight\":5}",
            "{\"features\":{\"x\":8},\"label\":\"b\",\"weight\":2}",
            "{\"features\":{\"x\":100},\"label\":\"b\",\"weight\":5,\"retract\":true}",
            "{\"features\":{\"x\":0},\"label\":\"c\"}",
            "{\"features\":{\"x\":10},\"label\":\"c\"}",
            "{\"features\":{\"x\":50},\"label\":\"c\",\"weight\":0}",
        };
        for (int i = 0; i < events.length; i++) {
            // a and b one partition each (a retraction must reach the partition of the event it retracts); c
            // over the other two, so that every partition has records.
            int partition = events[i].contains("\"a\"") ? 0 : events[i].contains("\"b\"") ? 1 : 2 + i % 2;
            pipeline.send(labelled, partition, "k" + i, events[i].getBytes(StandardCharsets.UTF_8), 1000L + i);
        }
        Properties training = broker.streamsProperties(KafkaBroker.uniqueName("weights"), stateDir.resolve("t"));
        streams = new KafkaStreams(TrainingTopology.build(pipeline.trainingSettings(),
                GroupCommittedInput::open), training);
        streams.start();
        ModelParameters model = pipeline.awaitModelAbsorbingAllLabelled();
        ClassParameters b = model.classes().get(1);
        assertEquals(2, b.count());
        assertEquals(4.0, b.effectiveCount(), 1e-12);
        assertEquals(7.0, b.mean()[0], 1e-12);
        assertEquals(1.0, b.covariance()[0][0], 1e-12);
        assertEquals(3, model.classes().get(2).count(), "the weight-0 event counts");

        FitOptions options = FitOptions.defaults().withMinCount(1).withFixedPriors(new java.util.TreeMap<>(Map.of("a", 0.3, "b", 0.7)));
        Properties scoringProps = broker.streamsProperties(KafkaBroker.uniqueName("scoring"), stateDir.resolve("s"));
        try (KafkaStreams scoring = new KafkaStreams(ScoringTopology.build(pipeline.scoringSettings(options)),
                scoringProps)) {
            scoring.start();
            pipeline.awaitModelInForce(scoring, model.version());
            pipeline.send(pipeline.topics().unlabelled().name(), 0, "q",
                    "{\"id\":\"q\",\"features\":{\"x\":4}}".getBytes(StandardCharsets.UTF_8));
            List<ConsumerRecord<String, Prediction>> predictions = broker.readUntil(
                    pipeline.topics().predictions().name(), SerdeFactory.string().deserializer(),
                    pipeline.topics().predictions().valueDeserializer(), records -> !records.isEmpty(),
                    PipelineUnderTest.TIMEOUT);
            Prediction p = predictions.get(0).value();
            double a = 0.3 * Math.exp(-0.5 * 1.5 * 1.5 / 0.75) / Math.sqrt(0.75);
            double bb = 0.7 * Math.exp(-0.5 * 3 * 3 / 1.0);
            assertEquals(a / (a + bb), p.probabilities().get("a"), 1e-12);
            assertEquals(bb / (a + bb), p.probabilities().get("b"), 1e-12);
            assertEquals(Map.of("c", "no fixed prior (the fixed priors list [a, b])"), p.excluded());
            scoring.close(Duration.ofSeconds(30));
            scoring.cleanUp();
        }
    }

    /** |actual − expected| / scale, asserted ≤ {@link #GOLDEN_RELATIVE}. */
    private static double check(double expected, double actual, double scale, String what) {
        double relative = Math.abs(actual - expected) / scale;
        assertEquals(expected, actual, GOLDEN_RELATIVE * scale, what);
        return relative;
    }
}
