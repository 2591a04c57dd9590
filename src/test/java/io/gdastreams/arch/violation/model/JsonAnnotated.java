package io.gdastreams.arch.violation.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/** A wire record that carries its JSON mapping itself. */
public record JsonAnnotated(@JsonProperty("label") String label) {
}
