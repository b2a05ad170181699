package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar (not only {@code target/classes}) carries this module's
 * {@code Log4j2Plugins.dat} with its plugins and their classes. Not a {@code *Test}: the pom runs it
 * in a second surefire execution in the {@code package} phase, after the jar is built, with the jar's
 * path in {@code -Dspool.packagedJar}.
 */
class PackagedJarPluginCacheCheck {

    @Test
    void packagedJarHasThePluginCache() throws Exception {
        String jar = System.getProperty("spool.packagedJar");
        assertNotNull(jar, "-Dspool.packagedJar (set by the pom's packaged-jar execution)");
        Path path = Path.of(jar);
        assertTrue(Files.isRegularFile(path), "packaged jar " + path);
        try (JarFile file = new JarFile(path.toFile())) {
            assertNotNull(file.getEntry(PluginDiscoveryTest.PLUGIN_CACHE_FILE), PluginDiscoveryTest.PLUGIN_CACHE_FILE + " in " + path);
            for (Class<?> c : new Class<?>[] {SpoolAppender.class, SpoolLayout.class, SpoolJsonTemplateLayout.class}) {
                String entry = c.getName().replace('.', '/') + ".class";
                assertNotNull(file.getEntry(entry), entry + " in " + path);
            }
        }
        PluginDiscoveryTest.assertListsTheAppenderAndTheLayout(
                new URL("jar:" + path.toUri() + "!/" + PluginDiscoveryTest.PLUGIN_CACHE_FILE));
    }
}
