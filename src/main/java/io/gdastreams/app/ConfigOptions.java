package io.gdastreams.app;

import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options every command that talks to a cluster shares: the config file and the bootstrap servers. */
final class ConfigOptions {

    @Option(names = "--config", paramLabel = "FILE",
            description = "Properties file: gda.* keys for the application, any other key for Kafka Streams.")
    Path configFile;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]",
            description = "Kafka cluster to use (overrides bootstrap.servers).")
    String bootstrapServers;

    /** Defaults < file < environment < command line. */
    AppConfig load(Map<String, String> environment) {
        AppConfig config = AppConfig.load(configFile, environment);
        if (bootstrapServers != null) {
            if (bootstrapServers.isBlank()) {
                throw new UserError("--bootstrap-servers is empty");
            }
            config = config.withKafka("bootstrap.servers", bootstrapServers);
        }
        return config;
    }
}
