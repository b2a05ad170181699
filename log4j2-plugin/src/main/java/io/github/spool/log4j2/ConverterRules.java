package io.github.spool.log4j2;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.plugins.util.PluginManager;
import org.apache.logging.log4j.core.config.plugins.util.PluginType;
import org.apache.logging.log4j.core.pattern.ConverterKeys;
import org.apache.logging.log4j.core.pattern.PatternConverter;

/**
 * The conversion-word table log4j2's {@code PatternParser} builds: every {@code @ConverterKeys} key
 * of every plugin in category {@value PatternConverter#CATEGORY} (log4j2's own and custom plugins
 * alike), the first class seen for a key winning. Internal API.
 *
 * <p>Built the way log4j2 2.26.1's {@code PatternParser(Configuration, String, Class, Class)}
 * constructor builds it (same {@link PluginManager} call, same iteration order, no filter class:
 * {@code PatternLayout.createPatternParser} passes none), but silently: the duplicate-key warnings
 * are log4j2's to print, once, from its own parser.
 */
final class ConverterRules {

    /** The table without extra plugin packages, the usual case; scanning costs milliseconds. */
    private static final ConcurrentMap<Boolean, Map<String, Class<?>>> WITHOUT_PACKAGES = new ConcurrentHashMap<>();

    private ConverterRules() {
    }

    /**
     * @param config the configuration ({@code null} outside one), for its plugin packages
     * @return key to converter class, unmodifiable
     */
    static Map<String, Class<?>> of(Configuration config) {
        List<String> packages = config == null ? null : config.getPluginPackages();
        return packages == null || packages.isEmpty()
                ? WITHOUT_PACKAGES.computeIfAbsent(Boolean.TRUE, k -> collect(null))
                : collect(packages);
    }

    private static Map<String, Class<?>> collect(List<String> packages) {
        PluginManager manager = new PluginManager(PatternConverter.CATEGORY);
        manager.collectPlugins(packages);
        Map<String, Class<?>> map = new LinkedHashMap<>();
        for (PluginType<?> type : manager.getPlugins().values()) {
            Class<?> clazz = type.getPluginClass();
            ConverterKeys keys = clazz.getAnnotation(ConverterKeys.class);
            if (keys != null) {
                for (String key : keys.value()) {
                    map.putIfAbsent(key, clazz);
                }
            }
        }
        return Collections.unmodifiableMap(map);
    }
}
