package io.gdastreams.arch.violation.service;

import io.gdastreams.arch.violation.broker.Broker;

/** The service runtime reaching for the embedded broker and for the Kafka server, which the slim jar leaves out. */
public final class StartsBroker {

    public Object broker() {
        return new Broker();
    }

    public void startKafka(String[] args) {
        kafka.Kafka.main(args);
    }
}
