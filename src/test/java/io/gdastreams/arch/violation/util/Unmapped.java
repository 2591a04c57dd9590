package io.gdastreams.arch.violation.util;

/** A class in a package the map does not name. */
public final class Unmapped {
}
