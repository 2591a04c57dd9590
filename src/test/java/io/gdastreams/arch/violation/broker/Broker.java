package io.gdastreams.arch.violation.broker;

/** Stands for the embedded broker. */
public final class Broker {
}
