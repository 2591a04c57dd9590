package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** PKCS12 keystores for the HTTPS tests, made by the JDK's own keytool. */
final class TestKeystore {

    private TestKeystore() {
    }

    /** A keystore {@code dir/http.p12} with a self-signed EC key for 127.0.0.1, protected by {@code password}. */
    static Path make(Path dir, String password) throws Exception {
        Path file = dir.resolve("http.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "gda", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "san=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", password,
                "-keypass", password).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "keytool did not finish");
        assertEquals(0, process.exitValue(), out);
        return file;
    }
}
