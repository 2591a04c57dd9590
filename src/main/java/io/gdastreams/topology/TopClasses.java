package io.gdastreams.topology;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The part of a posterior a prediction lists: the {@code k} most probable classes, in model order, and the total
 * mass and number of the others. A prediction repeats every listed label, so with thousands of classes (up to
 * {@code gda.max.classes} per training task, times the partitions) listing them all could exceed the broker's
 * record limit; the listing is bounded instead, and the reader still sees how much probability is not listed.
 *
 * @param probabilities    label → p(y=k | x) of the listed classes, in model order
 * @param otherProbability total probability of the classes not listed (summed directly, not 1 − Σ listed, so a
 *                         tiny remainder is not lost to cancellation); null when every class is listed
 * @param otherClasses     how many classes are not listed; null when every class is listed
 */
record TopClasses(Map<String, Double> probabilities, Double otherProbability, Integer otherClasses) {

    /**
     * The {@code k} (≥ 1) most probable of {@code labels} under {@code p} (same length). Ties at the cut go to the
     * class that comes first in the model, so the listing is deterministic.
     */
    static TopClasses of(List<String> labels, double[] p, int k) {
        return of(labels, p, k, -1);
    }

    /**
     * As {@link #of(List, double[], int)}, but class {@code chosen} is always listed (−1: no such class): the
     * predicted label must be among the listed ones, and a decision rule other than the argmax can predict a class
     * that is not among the {@code k} most probable.
     */
    static TopClasses of(List<String> labels, double[] p, int k, int chosen) {
        int n = p.length;
        if (k >= n) {
            Map<String, Double> all = new LinkedHashMap<>(n * 4 / 3 + 1);
            for (int i = 0; i < n; i++) {
                all.put(labels.get(i), p[i]);
            }
            return new TopClasses(Collections.unmodifiableMap(all), null, null);
        }
        // Min-heap of the k best so far: its head is the weakest kept class (lowest p, then latest in the model).
        // The chosen class ranks above every other, whatever its probability.
        PriorityQueue<Integer> kept = new PriorityQueue<>(k, (a, b) -> a == chosen || b == chosen
                ? Boolean.compare(a == chosen, b == chosen)
                : p[a] != p[b] ? Double.compare(p[a], p[b]) : Integer.compare(b, a));
        for (int i = 0; i < n; i++) {
            if (kept.size() < k) {
                kept.add(i);
            } else {
                int weakest = kept.peek();
                if (i == chosen || (weakest != chosen && p[i] > p[weakest])) {
                    kept.poll();
                    kept.add(i);
                }
            }
        }
        boolean[] listed = new boolean[n];
        for (int i : kept) {
            listed[i] = true;
        }
        Map<String, Double> top = new LinkedHashMap<>(k * 4 / 3 + 1);
        double other = 0.0;
        for (int i = 0; i < n; i++) {
            if (listed[i]) {
                top.put(labels.get(i), p[i]);
            } else {
                other += p[i];
            }
        }
        return new TopClasses(Collections.unmodifiableMap(top), other, n - k);
    }
}
