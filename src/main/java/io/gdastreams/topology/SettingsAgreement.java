package io.gdastreams.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether the trainer instances whose snapshots the combiner keeps run with its own state-shaping settings
 * ({@link StateSettings}). Each partition is judged by the settings its newest snapshot came with, which the
 * combiner keeps in its store ({@link CombinerState#senders()}): a combiner that starts or moves to another instance
 * still knows who trains a quiet partition, and judges it against its own settings. An instance that takes a task
 * over sends the partition's snapshot at its first tick, so a partition agrees again once an instance configured as
 * the combiner's runs its task. A snapshot without the header (an earlier release) counts as agreeing: nothing is
 * known.
 *
 * @param own the settings of this instance, which runs the combiner
 */
record SettingsAgreement(StateSettings own) {

    /**
     * Why model {@code modelId} of application {@code applicationId} is held back, given the settings each partition's
     * newest snapshot came with ({@code senders}: partition → header value, in partition order), naming each
     * differing key with the partitions that differ on it; null when every partition agrees.
     */
    String holdReason(String modelId, String applicationId, Map<Integer, byte[]> senders) {
        // Partitions with the same differences are named together (one group per odd instance, usually), in
        // partition order: the senders are a sorted map.
        Map<List<StateSettings.Difference>, List<Integer>> byDifference = new LinkedHashMap<>();
        senders.forEach((partition, header) -> {
            List<StateSettings.Difference> differences =
                    StateSettings.decode(header).map(own::differencesFrom).orElse(List.of());
            if (!differences.isEmpty()) {
                byDifference.computeIfAbsent(differences, d -> new ArrayList<>()).add(partition);
            }
        });
        if (byDifference.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        byDifference.forEach((differences, partitions) -> parts.add("partition" + (partitions.size() == 1 ? " " : "s ")
                + (partitions.size() == 1 ? partitions.get(0) : partitions) + " from an instance with "
                + String.join(", ", differences.stream().map(StateSettings.Difference::toString).toList())));
        return "model '" + modelId + "' is held back: the instances of application '" + applicationId + "' run"
                + " with different settings (" + String.join("; ", parts) + "; 'here' is this instance, which"
                + " publishes). Every instance of one application must run with the same settings"
                + " (docs/RELIABILITY.md, 'Instances of one application share one configuration'); the model is"
                + " published again once every partition's newest snapshot comes from an instance configured as"
                + " this one";
    }
}
