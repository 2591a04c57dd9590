package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.service.GroupCommittedInput;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

/**
 * gda-streams disables Kafka Streams' task idling by default ({@code max.task.idle.ms=-1}): idling waits, when a
 * task reads several partitions, for data on all of them so that it can process their records in timestamp order,
 * and it checks for that before every record. A task that reads one partition of one topic has nothing to order,
 * so the setting changes nothing there but that check's cost. This test holds every topology to that shape: should
 * a sub-topology ever read two topics (a join, a merge), it fails here and the default must be thought over.
 */
class SingleInputTasksTest {

    @Test
    void shouldReadOneTopicInEverySubTopologyOfTheTrainingTopology() {
        Topics topics = Topics.defaults();
        TrainingSettings plain = TrainingSettings.defaults(topics);
        TrainingSettings prequential = plain.withPrequential(
                PrequentialSettings.defaults(Duration.ofHours(1)).withDriftReset(true));
        for (TrainingSettings settings : List.of(plain, prequential)) {
            List<Set<String>> inputs = sourceTopicsBySubTopology(TrainingTopology.build(settings,
                    GroupCommittedInput::open));
            assertEquals(2, inputs.size(), "statistics and combiner sub-topologies: " + inputs);
            inputs.forEach(topicsRead -> assertEquals(1, topicsRead.size(), "a task reads " + topicsRead));
        }
    }

    @Test
    void shouldReadOneTopicInEverySubTopologyOfTheScoringTopology() {
        List<Set<String>> inputs = sourceTopicsBySubTopology(
                ScoringTopology.build(ScoringSettings.defaults("m")));
        assertEquals(List.of(Set.of(Topics.defaults().unlabelled().name())), inputs);
    }

    /** The rule itself: a sub-topology that merges two topics is seen as one that reads two. */
    @Test
    void shouldSeeTwoTopicsInASubTopologyThatMergesThem() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream("a").merge(builder.stream("b")).to("c");
        List<Set<String>> inputs = sourceTopicsBySubTopology(builder.build());
        assertEquals(List.of(Set.of("a", "b")), inputs);
    }

    /** Per sub-topology (a task is a sub-topology × a partition), the topics its sources read; global stores aside. */
    private static List<Set<String>> sourceTopicsBySubTopology(Topology topology) {
        TopologyDescription description = topology.describe();
        assertTrue(description.subtopologies().size() > 0);
        return description.subtopologies().stream()
                .sorted(Comparator.comparingInt(TopologyDescription.Subtopology::id))
                .map(SingleInputTasksTest::topicsReadBy)
                .toList();
    }

    private static Set<String> topicsReadBy(TopologyDescription.Subtopology subtopology) {
        Set<String> read = new TreeSet<>();
        subtopology.nodes().stream()
                .filter(TopologyDescription.Source.class::isInstance)
                .map(TopologyDescription.Source.class::cast)
                .forEach(source -> read.addAll(source.topicSet()));
        return read;
    }
}
