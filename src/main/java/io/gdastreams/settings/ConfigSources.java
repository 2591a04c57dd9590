package io.gdastreams.settings;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.lifecycle.FileProblem;
import io.gdastreams.lifecycle.UserError;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Where a configuration comes from, in precedence order: the built-in defaults ({@link ConfigKey}, and
 * {@link KafkaSettings#DEFAULTS} for Kafka keys), a properties file or resource, then the environment. The command
 * line comes last, through {@link AppConfig#set} and {@link AppConfig#with}.
 *
 * <p>Environment: {@code GDA_X_Y} sets the application key whose name, upper-cased with '.' and '-' turned into
 * '_', is {@code GDA_X_Y} (e.g. {@code GDA_MODEL_ID} → {@code gda.model.id}); any other {@code GDA_} variable is
 * an error. {@code KAFKA_STREAMS_X_Y} sets the Kafka key {@code x.y}, decoded as the apache/kafka image does:
 * '_' → '.', '__' → '_', '___' → '-' (e.g. {@code KAFKA_STREAMS_BOOTSTRAP_SERVERS} → {@code bootstrap.servers}).
 */
final class ConfigSources {

    static final String GDA_ENV_PREFIX = "GDA_";
    /** The launcher's own variables (bin/gda-streams: GDA_STREAMS_JAR, GDA_STREAMS_VECTOR), not application keys. */
    static final String LAUNCHER_ENV_PREFIX = "GDA_STREAMS_";
    static final String KAFKA_ENV_PREFIX = "KAFKA_STREAMS_";
    private static final int BYTE_ORDER_MARK = '\uFEFF';

    private ConfigSources() {
    }

    /**
     * Reads {@code file} (may be null: defaults only) and applies the environment {@code env}, then {@code settings},
     * on top ({@link #resolve}).
     */
    static AppConfig load(Path file, Map<String, String> env, List<AppConfig.Setting> settings) {
        if (file == null) {
            return resolve(new Properties(), "defaults", env, settings);
        }
        String unreadable = FileProblem.unreadable(file);
        if (unreadable != null) {
            throw new UserError("cannot read config file " + file + " (" + unreadable + ")");
        }
        Properties properties = new Properties();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            // A byte order mark (editors on Windows write one) would become part of the first key, which then
            // matched no setting and was passed over without a word.
            reader.mark(1);
            if (reader.read() != BYTE_ORDER_MARK) {
                reader.reset();
            }
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new UserError("cannot read config file " + file + ": " + e.getMessage());
        }
        return resolve(properties, "file " + file, env, settings);
    }

    /** Reads a properties resource from the class path (the bundled demo configuration). */
    static AppConfig loadResource(String resource, Map<String, String> env) {
        Properties properties = new Properties();
        try (InputStream in = ConfigSources.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("resource " + resource + " is missing from the class path");
            }
            properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read resource " + resource, e);
        }
        return resolve(properties, "resource " + resource, env);
    }

    /** The defaults, then {@code file} (from {@code fileOrigin}), then {@code env}. */
    static AppConfig resolve(Properties file, String fileOrigin, Map<String, String> env) {
        return resolve(file, fileOrigin, env, List.of());
    }

    /**
     * The defaults, then {@code file} (from {@code fileOrigin}), then {@code env}, then {@code settings} in order;
     * validated once, as a whole, so that keys that must agree (gda.statistics and gda.covariance) may be changed
     * together in any order.
     */
    static AppConfig resolve(Properties file, String fileOrigin, Map<String, String> env,
                             List<AppConfig.Setting> settings) {
        Map<ConfigKey, String> values = new EnumMap<>(ConfigKey.class);
        Map<ConfigKey, String> origins = new EnumMap<>(ConfigKey.class);
        for (ConfigKey key : ConfigKey.values()) {
            values.put(key, key.defaultValue());
            origins.put(key, "default");
        }
        Map<String, String> kafka = new LinkedHashMap<>(KafkaSettings.DEFAULTS);
        for (String name : new TreeMap<>(toMap(file)).keySet()) {
            String value = file.getProperty(name).trim();
            if (name.startsWith(ConfigKey.PREFIX)) {
                ConfigKey key = applicationKey(name, fileOrigin);
                values.put(key, value);
                origins.put(key, fileOrigin);
            } else {
                kafka.put(name, value);
            }
        }
        for (Map.Entry<String, String> variable : new TreeMap<>(env).entrySet()) {
            String name = variable.getKey();
            if (name.startsWith(KAFKA_ENV_PREFIX)) {
                kafka.put(kafkaKeyOf(name), variable.getValue().trim());
            } else if (name.startsWith(GDA_ENV_PREFIX) && !name.startsWith(LAUNCHER_ENV_PREFIX)) {
                List<String> known = Arrays.stream(ConfigKey.values()).map(ConfigKey::environmentVariable).toList();
                ConfigKey key = ConfigKey.byEnvironmentVariable(name).orElseThrow(() -> new ConfigException(
                        "unknown environment variable " + name + orKnown(NearestName.hint(name, known),
                                "GDA_ variables but GDA_STREAMS_* set application keys; known: ", known)));
                values.put(key, variable.getValue().trim());
                origins.put(key, "environment " + name);
            }
        }
        apply(settings, values, origins, kafka);
        return new AppConfig(values, origins, kafka);
    }

    /** Puts {@code settings} into the maps, in order (a later one wins). */
    static void apply(List<AppConfig.Setting> settings, Map<ConfigKey, String> values, Map<ConfigKey, String> origins,
                      Map<String, String> kafka) {
        for (AppConfig.Setting setting : settings) {
            if (setting.name().startsWith(ConfigKey.PREFIX)) {
                ConfigKey key = applicationKey(setting.name(), setting.origin());
                values.put(key, setting.value().trim());
                origins.put(key, setting.origin());
            } else {
                kafka.put(setting.name(), setting.value().trim());
            }
        }
    }

    /** The application key {@code name} (a {@code gda.} key), or an error naming it and where it was set. */
    static ConfigKey applicationKey(String name, String origin) {
        return ConfigKey.byKey(name).orElseThrow(() -> new ConfigException("unknown key " + name + " in " + origin
                + orKnown(NearestName.hint(name, ConfigKey.names()), "known application keys: ", ConfigKey.names())));
    }

    /**
     * The "did you mean" {@code hint}, else every known name (a line of some 2,000 characters, worth it only when
     * no name is near; the README's configuration table lists them all).
     */
    private static String orKnown(String hint, String intro, List<String> known) {
        return !hint.isEmpty() ? hint + " (every key: README, \"Configuration\")"
                : " (" + intro + String.join(", ", known) + ")";
    }

    /** {@code KAFKA_STREAMS_BOOTSTRAP_SERVERS} → {@code bootstrap.servers} (the apache/kafka image convention). */
    static String kafkaKeyOf(String variable) {
        String rest = variable.substring(KAFKA_ENV_PREFIX.length()).toLowerCase(Locale.ROOT);
        return rest.replace("___", "\u0000").replace("__", "\u0001").replace('_', '.')
                .replace('\u0001', '_').replace('\u0000', '-');
    }

    private static Map<String, String> toMap(Properties properties) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) {
            map.put(name, properties.getProperty(name));
        }
        return map;
    }
}
