package io.gdastreams.settings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the endpoint's secrets may come from, and that no error quotes them. */
class HttpSecurityTest {

    private static final String TOKEN = "tok-9f8e7d6c";

    @TempDir
    Path dir;

    private Path properties(String text) throws IOException {
        return Files.writeString(dir.resolve("app.properties"), text);
    }

    @Test
    void shouldHaveNoTokenNoTlsByDefault() {
        HttpSecurity security = AppConfig.defaults().httpSecurity();
        assertTrue(security.token().isEmpty());
        assertTrue(security.tls().isEmpty());
        assertFalse(security.protectMetrics());
    }

    /** Health and metrics guarded by a token there is none of: refused (exit 2), not served open unsaid. */
    @Test
    void shouldRefuseToProtectMetricsWithoutAToken() throws IOException {
        Path file = properties("gda.http.port=0\ngda.http.protect-metrics=true\n");
        ConfigException e = assertThrows(ConfigException.class, () -> AppConfig.load(file, Map.of()).httpSecurity());
        assertEquals("gda.http.protect-metrics=true guards /health/* and /metrics with the bearer token, but none is"
                + " set: set GDA_HTTP_TOKEN or gda.http.token.file (README, 'Operating: the HTTP endpoint')",
                e.getMessage());
        assertTrue(AppConfig.load(file, Map.of("GDA_HTTP_TOKEN", TOKEN)).httpSecurity().protectMetrics());
    }

    @Test
    void shouldTakeTheTokenFromTheEnvironment() {
        assertEquals(TOKEN, AppConfig.load(null, Map.of("GDA_HTTP_TOKEN", TOKEN)).httpSecurity().token()
                .orElseThrow());
    }

    @Test
    void shouldTakeTheTokenFromAFileWithoutItsTrailingNewline() throws IOException {
        Path secret = Files.writeString(dir.resolve("token"), TOKEN + "\n");
        AppConfig config = AppConfig.load(properties("gda.http.token.file=" + secret + "\n"), Map.of());
        assertEquals(TOKEN, config.httpSecurity().token().orElseThrow());
    }

    @Test
    void shouldRefuseTheTokenInClearInThePropertiesFileWithoutQuotingIt() throws IOException {
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.load(properties("gda.http.token=" + TOKEN + "\n"), Map.of()));
        assertTrue(e.getMessage().contains("gda.http.token is a secret"), e.getMessage());
        assertTrue(e.getMessage().contains("GDA_HTTP_TOKEN"), e.getMessage());
        assertFalse(e.getMessage().contains(TOKEN), e.getMessage());
    }

    @Test
    void shouldRefuseSecretsOnTheCommandLine() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> AppConfig.defaults().set("gda.http.tls.keystore.password", TOKEN, "--set"));
        assertFalse(e.getMessage().contains(TOKEN), e.getMessage());
    }

    @Test
    void shouldRefuseBothTheTokenAndItsFileAndAnEmptyFile() throws IOException {
        Path secret = Files.writeString(dir.resolve("token"), TOKEN);
        AppConfig both = AppConfig.load(properties("gda.http.token.file=" + secret + "\n"),
                Map.of("GDA_HTTP_TOKEN", TOKEN));
        ConfigException e = assertThrows(ConfigException.class, both::httpSecurity);
        assertFalse(e.getMessage().contains(TOKEN), e.getMessage());
        Path empty = Files.writeString(dir.resolve("empty"), " \n");
        AppConfig emptyFile = AppConfig.load(properties("gda.http.token.file=" + empty + "\n"), Map.of());
        assertThrows(ConfigException.class, emptyFile::httpSecurity);
    }

    @Test
    void shouldReadTheTlsSettingsWithThePasswordFromTheEnvironment() throws IOException {
        AppConfig config = AppConfig.load(properties("gda.http.tls.keystore=/etc/gda/http.p12\n"),
                Map.of("GDA_HTTP_TLS_KEYSTORE_PASSWORD", "changeit"));
        HttpSecurity.Tls tls = config.httpSecurity().tls().orElseThrow();
        assertEquals(Path.of("/etc/gda/http.p12"), tls.keystore());
        assertEquals("PKCS12", tls.type());
        assertArrayEquals("changeit".toCharArray(), tls.password());
    }

    @Test
    void shouldNameTheEndpointKeysThatHaveNoEffectWithoutAPort() throws IOException {
        // A token file that does not exist is not read without a port: the start says the key does nothing.
        Map<String, String> env = Map.of("GDA_HTTP_TOKEN_FILE", dir.resolve("nowhere").toString(),
                "GDA_HTTP_PROTECT_METRICS", "true");
        assertEquals(List.of("gda.http.token.file", "gda.http.protect-metrics"),
                HttpSecurity.keysWithoutEndpoint(AppConfig.load(null, env)));
        // The shipped file sets every gda.http key to its default: nothing to say.
        assertEquals(List.of(), HttpSecurity.keysWithoutEndpoint(AppConfig.load(Path.of("config/app.properties"),
                Map.of())));
        Path secret = Files.writeString(dir.resolve("token"), TOKEN);
        Map<String, String> served = Map.of("GDA_HTTP_TOKEN_FILE", secret.toString(), "GDA_HTTP_PORT", "18080");
        assertEquals(List.of(), HttpSecurity.keysWithoutEndpoint(AppConfig.load(null, served)));
    }

    @Test
    void shouldNameAManagementHostWithoutAManagementListener() {
        Map<String, String> host = Map.of("GDA_HTTP_MANAGEMENT_HOST", "0.0.0.0");
        assertEquals(List.of("gda.http.management-host"), HttpSecurity.keysWithoutEndpoint(AppConfig.load(null, host)),
                "no port at all: the general note names it");
        assertFalse(HttpSecurity.managementHostWithoutListener(AppConfig.load(null, host)), "said once, not twice");
        Map<String, String> apiOnly = Map.of("GDA_HTTP_MANAGEMENT_HOST", "0.0.0.0", "GDA_HTTP_PORT", "0");
        assertTrue(HttpSecurity.managementHostWithoutListener(AppConfig.load(null, apiOnly)));
        Map<String, String> both = Map.of("GDA_HTTP_MANAGEMENT_HOST", "0.0.0.0", "GDA_HTTP_PORT", "0",
                "GDA_HTTP_MANAGEMENT_PORT", "0");
        assertFalse(HttpSecurity.managementHostWithoutListener(AppConfig.load(null, both)));
        assertFalse(HttpSecurity.managementHostWithoutListener(AppConfig.load(null, Map.of("GDA_HTTP_PORT", "0"))));
    }
}
