package io.gdastreams.cli;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.settings.AppConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options every command that talks to a cluster shares: the config file, keys set on the command line and the
 * bootstrap servers.
 */
final class ConfigOptions {

    private static final String SET = "--set";

    @Option(names = "--config", paramLabel = "FILE",
            description = "Properties file: gda.* keys for the application, any other key for Kafka Streams.")
    Path configFile;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]",
            description = "Kafka cluster to use (overrides bootstrap.servers).")
    String bootstrapServers;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Set any key (gda.* or Kafka Streams) above the file and the environment; repeatable.")
    List<String> settings = new ArrayList<>();

    /** Defaults < file < environment < --set < --bootstrap-servers. */
    AppConfig load(Map<String, String> environment) {
        AppConfig config = AppConfig.load(configFile, environment);
        for (String setting : settings) {
            Map.Entry<String, String> keyValue = AppConfig.keyValue(setting, SET);
            config = config.set(keyValue.getKey(), keyValue.getValue(), SET);
        }
        if (bootstrapServers != null) {
            if (bootstrapServers.isBlank()) {
                throw new UserError("--bootstrap-servers is empty");
            }
            config = config.withKafka("bootstrap.servers", bootstrapServers);
        }
        return config;
    }
}
