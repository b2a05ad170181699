package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.core.config.plugins.processor.PluginCache;
import org.apache.logging.log4j.core.config.plugins.processor.PluginEntry;
import org.junit.jupiter.api.Test;

/**
 * The annotation processor ran (JDK 23+ runs none implicitly): this module's compiled classes carry
 * a {@code Log4j2Plugins.dat} listing its plugins, so log4j2 finds them with no {@code packages}
 * attribute. ({@link SpoolClock} is no plugin: log4j2's ClockFactory loads it by class name.)
 * {@link PackagedJarPluginCacheCheck} checks the same in the jar, after {@code package}.
 */
class PluginDiscoveryTest {

    /** {@code PluginProcessor.PLUGIN_CACHE_FILE}, spelled out: the processor class is not for use at run time. */
    static final String PLUGIN_CACHE_FILE = "META-INF/org/apache/logging/log4j/core/config/plugins/Log4j2Plugins.dat";

    @Test
    void pluginCacheOfThisModuleListsTheAppenderAndTheLayout() throws Exception {
        URL ours = null;
        Enumeration<URL> all = getClass().getClassLoader().getResources(PLUGIN_CACHE_FILE);
        List<URL> urls = Collections.list(all);
        // log4j-core ships its own file at the same path; ours sits beside SpoolLayout.class.
        String classesRoot = SpoolLayout.class.getProtectionDomain().getCodeSource().getLocation().toString();
        for (URL url : urls) {
            if (url.toString().startsWith(classesRoot) || url.toString().contains(classesRoot)) {
                ours = url;
            }
        }
        assertNotNull(ours, "no " + PLUGIN_CACHE_FILE + " under " + classesRoot + " in " + urls);
        assertListsTheAppenderAndTheLayout(ours);
    }

    /**
     * Checks one {@code Log4j2Plugins.dat}: exactly this module's three plugins, by element type and
     * class. Also used on the packaged jar by {@link PackagedJarPluginCacheCheck}.
     *
     * @param ours the file's URL
     */
    static void assertListsTheAppenderAndTheLayout(URL ours) throws Exception {
        PluginCache cache = new PluginCache();
        cache.loadCacheFiles(Collections.enumeration(List.of(ours)));
        Map<String, PluginEntry> core = cache.getCategory("core");
        assertEquals(3, core.size(), "plugins: " + core.keySet());
        PluginEntry appender = core.get("spool");
        assertEquals(SpoolAppender.class.getName(), appender.getClassName());
        PluginEntry layout = core.get("spoollayout");
        assertEquals(SpoolLayout.class.getName(), layout.getClassName());
        assertEquals("layout", layout.getName()); // the element type, as PluginProcessor stores it
        assertEquals("appender", appender.getName());
        PluginEntry json = core.get("spooljsontemplatelayout");
        assertEquals(SpoolJsonTemplateLayout.class.getName(), json.getClassName());
        assertEquals("layout", json.getName());
    }
}
