package io.gdastreams.it;

import io.gdastreams.broker.EmbeddedBroker;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A single-node KRaft broker (the product's own, in a child JVM) whose client listener speaks SASL_PLAINTEXT with
 * the PLAIN mechanism, with Kafka's StandardAuthorizer and the super user {@link #ADMIN}. For the tests of security
 * settings and ACLs; the shared test broker is PLAINTEXT. The controller listener stays PLAINTEXT on 127.0.0.1 (its
 * anonymous principal is a super user, as the node's own controller requests need), and is not advertised to clients.
 */
public final class SaslTestCluster implements AutoCloseable {

    /** The super user, and its password. */
    public static final String ADMIN = "plain-admin";
    public static final String ADMIN_PASSWORD = "plain-admin-secret";

    private final EmbeddedBroker broker;

    private SaslTestCluster(EmbeddedBroker broker) {
        this.broker = broker;
    }

    /**
     * Starts the broker with the PLAIN users {@code users} (name → password) beside {@link #ADMIN}, and
     * {@code brokerProperties} on top (e.g. {@code allow.everyone.if.no.acl.found}); returns once it answers.
     */
    public static SaslTestCluster start(Map<String, String> users, Map<String, String> brokerProperties) {
        StringBuilder jaas = new StringBuilder(login(ADMIN, ADMIN_PASSWORD).replace(";", ""));
        jaas.append(" user_").append(ADMIN).append("=\"").append(ADMIN_PASSWORD).append('"');
        users.forEach((user, password) -> jaas.append(" user_").append(user).append("=\"").append(password)
                .append('"'));
        Map<String, String> overrides = new LinkedHashMap<>();
        // The listener keeps its name (PLAINTEXT) and speaks SASL_PLAINTEXT: its ports need no rewriting.
        overrides.put("listener.security.protocol.map", "PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT");
        overrides.put("sasl.enabled.mechanisms", "PLAIN");
        overrides.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        overrides.put("listener.name.plaintext.plain.sasl.jaas.config", jaas.append(';').toString());
        overrides.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        overrides.put("super.users", "User:" + ADMIN + ";User:ANONYMOUS");
        overrides.putAll(brokerProperties);
        return new SaslTestCluster(EmbeddedBroker.start(EmbeddedBroker.DEFAULT_START_TIMEOUT, List.of(), overrides,
                clientSettings(ADMIN, ADMIN_PASSWORD)));
    }

    /** The JAAS line of {@code user}'s PLAIN login. */
    public static String login(String user, String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    /** A client's security settings as {@code user} (without the bootstrap servers). */
    public static Map<String, String> clientSettings(String user, String password) {
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", login(user, password));
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    @Override
    public void close() {
        broker.close();
    }
}
