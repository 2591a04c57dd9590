package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Statistics;
import io.gdastreams.settings.ConfigException;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@code bench --set KEY=VALUE}: any key the bench does not decide itself, validated like train's and score's. */
class BenchConfigurationTest {

    private static final int CLASSES = 3;
    private static final int FEATURES = 16;
    private static final Topics STAGE_TOPICS = new Topics("s-labelled", "s-unlabelled", "s-model", "s-predictions",
            "s-dead-letters");

    private static BenchConfiguration of(String... settings) {
        return BenchConfiguration.of(List.of(settings), CLASSES, FEATURES);
    }

    @Test
    void shouldGiveTheSetKeysToTheTrainingAndScoringAppsOnTheStagesOwnTopicsAndModel() {
        BenchConfiguration configuration = of("gda.covariance=diag", "gda.output.top-k=3", "gda.max.classes=7",
                "commit.interval.ms=100", "gda.covariance=tied");

        TrainingSettings training = configuration.training(STAGE_TOPICS);
        assertEquals(7, training.maxClasses());
        assertEquals(StageRunner.MODEL_ID, training.modelId());
        assertEquals(STAGE_TOPICS, training.topics());
        ScoringSettings scoring = configuration.scoring(STAGE_TOPICS);
        assertEquals(CovarianceType.TIED, scoring.fitOptions().covarianceType(), "the last --set of a key wins");
        assertEquals(3, scoring.outputTopK());
        assertEquals(StageRunner.MODEL_ID, scoring.modelId());
        assertEquals(STAGE_TOPICS, scoring.topics());
        Properties streams = configuration.streamsProperties("training");
        assertEquals("100", streams.getProperty("commit.interval.ms"));
        assertEquals(Map.of("gda.covariance", "tied", "gda.output.top-k", "3", "gda.max.classes", "7",
                "commit.interval.ms", "100"), configuration.set());
    }

    /** Before, the bench's apps ran with Kafka's 1 MiB producer limit while the trainer allowed a 64 MiB model. */
    @Test
    void shouldRunTheAppsWithGdaStreamsKafkaDefaultsAndTheServicesModelBound() {
        Properties streams = BenchConfiguration.DEFAULTS.streamsProperties("scoring");
        assertEquals("exactly_once_v2", streams.getProperty("processing.guarantee"));
        assertEquals("67108864", streams.getProperty("producer.max.request.size"));
        assertEquals("true", streams.getProperty("main.consumer.processing.exception.handler.global.enabled"));
        assertEquals(TrainingSettings.DEFAULT_MAX_MODEL_BYTES,
                BenchConfiguration.DEFAULTS.training(STAGE_TOPICS).maxModelBytes());
        assertEquals(Map.of(), BenchConfiguration.DEFAULTS.set());
    }

    @Test
    void shouldRefuseKeysTheBenchDecidesItselfNamingTheWayToSetThem() {
        assertEquals("--set gda.partitions: use --partitions",
                assertThrows(UserError.class, () -> of("gda.partitions=8")).getMessage());
        assertEquals("--set num.stream.threads: use --threads",
                assertThrows(UserError.class, () -> of("num.stream.threads=4")).getMessage());
        assertEquals("--set processing.guarantee: use --guarantee",
                assertThrows(UserError.class, () -> of("processing.guarantee=at_least_once")).getMessage());
        assertEquals("--set gda.model.id: the bench trains and scores its own model",
                assertThrows(UserError.class, () -> of("gda.model.id=x")).getMessage());
        assertEquals("--set gda.topic.model: each stage has its own topics",
                assertThrows(UserError.class, () -> of("gda.topic.model=m")).getMessage());
    }

    @Test
    void shouldRefuseUnknownInvalidAndMalformedSettingsLikeTheServices() {
        ConfigException unknown = assertThrows(ConfigException.class, () -> of("gda.no.such.key=1"));
        assertTrue(unknown.getMessage().startsWith("unknown key gda.no.such.key in --set"), unknown.getMessage());
        ConfigException invalid = assertThrows(ConfigException.class, () -> of("gda.covariance=spherical"));
        assertEquals("gda.covariance = 'spherical' (--set): expected one of full, tied, diag", invalid.getMessage());
        assertEquals("--set gda.covariance: expected KEY=VALUE",
                assertThrows(UserError.class, () -> of("gda.covariance")).getMessage());
    }

    /** Keys that must agree are checked together: diagonal statistics before diag covariance was refused. */
    @Test
    void shouldCheckTheSettingsAsAWhole() {
        assertEquals(Statistics.DIAGONAL, of("gda.statistics=diagonal", "gda.covariance=diag")
                .training(Topics.defaults()).statistics());
    }

    /** The stage waits for all N events in a model or as predictions: dead-lettered ones would stall it. */
    @Test
    void shouldRefuseABoundBelowTheBenchsOwnClassesOrFeatures() {
        UserError classes = assertThrows(UserError.class, () -> of("gda.max.classes=2"));
        assertTrue(classes.getMessage().startsWith("gda.max.classes = 2 (--set) is below --classes 3"),
                classes.getMessage());
        UserError features = assertThrows(UserError.class, () -> of("gda.max.features=8"));
        assertTrue(features.getMessage().startsWith("gda.max.features = 8 (--set) is below --features 16"),
                features.getMessage());
        assertEquals(FEATURES, of("gda.max.features=16").config().maxFeatures());
        int wide = TrainingSettings.DEFAULT_MAX_FEATURES + 1;
        assertEquals(TrainingSettings.DEFAULT_MAX_FEATURES,
                BenchConfiguration.of(List.of(), CLASSES, wide).config().maxFeatures(),
                "unset, the default stays (StageRunner raises it to the dimension)");
    }
}
