package io.gdastreams.math;

/** A class left out of scoring, and why (e.g. "count 1 below minimum 2"). */
public record Exclusion(String label, String reason) {
}
