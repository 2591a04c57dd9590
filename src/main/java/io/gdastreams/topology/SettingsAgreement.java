package io.gdastreams.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.header.Headers;

/**
 * Whether the trainer instances whose snapshots the combiner keeps run with its own state-shaping settings
 * ({@link StateSettings}). Each partition is judged by its newest snapshot: an instance that takes over the
 * partition's task sends one at its first tick, so a partition agrees again once an instance configured as this
 * one runs its task. A snapshot without the header (an earlier release) counts as agreeing: nothing is known.
 *
 * <p>Kept in memory only: a combiner that starts (or moves) learns every partition again from the snapshots of
 * the next round, and until then holds nothing back on this account.
 */
final class SettingsAgreement {

    private final StateSettings own;
    /** Partition → how its newest snapshot's sender differs from this instance; only partitions that differ. */
    private final SortedMap<Integer, List<StateSettings.Difference>> differing = new TreeMap<>();

    SettingsAgreement(StateSettings own) {
        this.own = own;
    }

    /** The newest snapshot of {@code partition} came with {@code headers}. */
    void seen(int partition, Headers headers) {
        List<StateSettings.Difference> differences =
                StateSettings.read(headers).map(own::differencesFrom).orElse(List.of());
        if (differences.isEmpty()) {
            differing.remove(partition);
        } else {
            differing.put(partition, differences);
        }
    }

    /** Whether some partition's newest snapshot came from an instance configured otherwise. */
    boolean disagrees() {
        return !differing.isEmpty();
    }

    /**
     * Why model {@code modelId} of application {@code applicationId} is held back, naming each differing key
     * with the partitions that differ on it; null when every partition agrees.
     */
    String holdReason(String modelId, String applicationId) {
        if (differing.isEmpty()) {
            return null;
        }
        // Partitions with the same differences are named together: one line per odd instance, usually.
        Map<List<StateSettings.Difference>, List<Integer>> byDifference = new LinkedHashMap<>();
        differing.forEach((partition, differences) ->
                byDifference.computeIfAbsent(differences, d -> new ArrayList<>()).add(partition));
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
