package io.gdastreams.cli;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.settings.AppConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
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
        return load(environment, List.of());
    }

    /**
     * Defaults < file < environment < --set < {@code options} (a command's own options, such as --covariance, in
     * order) < --bootstrap-servers, validated once as a whole: keys that must agree may come from different places,
     * in any order.
     */
    AppConfig load(Map<String, String> environment, List<AppConfig.Setting> options) {
        List<AppConfig.Setting> settings = new ArrayList<>();
        for (String setting : this.settings) {
            Map.Entry<String, String> keyValue = AppConfig.keyValue(setting, SET);
            settings.add(new AppConfig.Setting(keyValue.getKey(), keyValue.getValue(), SET));
        }
        settings.addAll(options);
        if (bootstrapServers != null) {
            if (bootstrapServers.isBlank()) {
                throw new UserError("--bootstrap-servers is empty");
            }
            settings.add(new AppConfig.Setting("bootstrap.servers", bootstrapServers, "--bootstrap-servers"));
        }
        return AppConfig.load(configFile, environment, settings);
    }

    /**
     * The bootstrap servers of produce and consume: from the usual places, else 127.0.0.1:9092, where {@code broker}
     * listens by default (a tool to try train and score with; the services themselves have no default cluster).
     */
    static String consoleBootstrapServers(AppConfig config) {
        String servers = config.kafkaProperties().getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        return servers == null || servers.isBlank() ? "127.0.0.1:" + BrokerCommand.DEFAULT_PORT : servers;
    }

    /** The --covariance and --estimator options of replay, sample and plot as settings, when given (null: not). */
    static List<AppConfig.Setting> fitOptions(String covariance, String estimator) {
        List<AppConfig.Setting> given = new ArrayList<>();
        if (covariance != null) {
            given.add(new AppConfig.Setting(ConfigKey.COVARIANCE, covariance, "--covariance"));
        }
        if (estimator != null) {
            given.add(new AppConfig.Setting(ConfigKey.ESTIMATOR, estimator, "--estimator"));
        }
        return given;
    }
}
