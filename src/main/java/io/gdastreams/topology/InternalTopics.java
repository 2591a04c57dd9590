package io.gdastreams.topology;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The internal topics Kafka Streams creates for this project's topologies, named as it names them:
 * {@code <application.id>-<store>-changelog} for a store with a changelog and
 * {@code <application.id>-<name>-repartition} for a repartition. The one place for those names: {@code reset}
 * deletes exactly these (application ids may begin with one another — {@code fraud-training} and
 * {@code fraud-training-training} — so a pattern would also catch another application's topics), the start-up access
 * check asks for rights on them, and a damaged store entry's dead letter names its changelog.
 */
public final class InternalTopics {

    /** The training topology's stores that have a changelog (the prequential one only under gda.prequential). */
    public static final List<String> TRAINING_CHANGELOGGED = List.of(TrainingTopology.CLASS_STATS_STORE,
            TrainingTopology.COMBINER_STORE, TrainingTopology.PREQUENTIAL_STORE);
    /** The scoring topology's stores that have a changelog. */
    public static final List<String> SCORING_CHANGELOGGED = List.of(ScoringTopology.PENDING_STORE);

    private InternalTopics() {
    }

    /** The changelog of {@code store} under {@code applicationId}. */
    public static String changelog(String applicationId, String store) {
        return applicationId + "-" + store + "-changelog";
    }

    /** The topic of the repartition named {@code name} under {@code applicationId}. */
    static String repartition(String applicationId, String name) {
        return applicationId + "-" + name + "-repartition";
    }

    /** Whether {@code topic} is the changelog of {@code store} under some application id. */
    public static boolean isChangelogOf(String topic, String store) {
        return topic.endsWith(changelog("", store));
    }

    /** Every internal topic that a topology of this project, of either role, may create under {@code applicationId}. */
    public static Set<String> of(String applicationId) {
        Set<String> topics = new TreeSet<>();
        for (String store : TRAINING_CHANGELOGGED) {
            topics.add(changelog(applicationId, store));
        }
        for (String store : SCORING_CHANGELOGGED) {
            topics.add(changelog(applicationId, store));
        }
        topics.add(TrainingTopology.partials(applicationId).name());
        return topics;
    }
}
