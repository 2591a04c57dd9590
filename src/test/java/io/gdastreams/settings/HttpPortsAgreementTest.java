package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The management listener needs a port of its own: the same fixed port for both listeners is refused at load,
 * naming both keys; 0 for both (any free port, twice) and distinct ports are fine.
 */
class HttpPortsAgreementTest {

    private static AppConfig ports(String port, String managementPort) {
        return AppConfig.load(null, Map.of(), List.of(new AppConfig.Setting("gda.http.port", port, "--set"),
                new AppConfig.Setting("gda.http.management-port", managementPort, "--set")));
    }

    @Test
    void shouldRefuseTheSamePortForBothListeners() {
        ConfigException e = assertThrows(ConfigException.class, () -> ports("8080", "8080"));
        assertTrue(e.getMessage().startsWith("gda.http.management-port (--set) and gda.http.port (--set) are both"
                + " 8080"), e.getMessage());
    }

    @Test
    void shouldAcceptAnyFreePortForBothAndDistinctPorts() {
        assertEquals(0, ports("0", "0").httpManagementPort().getAsInt());
        AppConfig distinct = ports("8080", "8081");
        assertEquals(8080, distinct.httpPort().getAsInt());
        assertEquals(8081, distinct.httpManagementPort().getAsInt());
    }
}
