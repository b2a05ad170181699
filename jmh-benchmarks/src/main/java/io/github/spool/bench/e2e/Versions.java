package io.github.spool.bench.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The versions of the frameworks built into {@code benchmarks.jar}, recorded at build time from
 * the root pom (the shaded jar drops the frameworks' own manifests). Printed beside every result
 * that depends on them, in particular the Disruptor version of every log4j2 async-logger run
 * (Disruptor 4.0.0 loses events, ANCHORS.md).
 */
public final class Versions {

    private static final Properties VERSIONS = load();

    private Versions() {
    }

    /** @return the LMAX Disruptor version on the classpath */
    public static String disruptor() {
        return VERSIONS.getProperty("disruptor", "unknown");
    }

    /** @return the log4j-core version on the classpath */
    public static String log4j() {
        return VERSIONS.getProperty("log4j", "unknown");
    }

    /** @return the logback-classic version on the classpath */
    public static String logback() {
        return VERSIONS.getProperty("logback", "unknown");
    }

    /** @return the JMH version on the classpath */
    public static String jmh() {
        return VERSIONS.getProperty("jmh", "unknown");
    }

    /**
     * Fails when the Disruptor on the classpath is not 3.x: log4j2's async loggers silently drop
     * events on Disruptor 4.0.0 (ANCHORS.md), which would make every async-logger anchor wrong.
     *
     * @throws IllegalStateException if the Disruptor major version is not 3
     */
    public static void requireDisruptor3() {
        if (!disruptor().startsWith("3.")) {
            throw new IllegalStateException("log4j2 async loggers need LMAX Disruptor 3.x, found " + disruptor());
        }
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Versions.class.getResourceAsStream("/bench/versions.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
