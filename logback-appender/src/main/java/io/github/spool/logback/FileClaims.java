// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import ch.qos.logback.core.Context;

import java.nio.file.InvalidPathException;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;

/**
 * Which started {@link SpoolAppender} of a logging context owns which file and archive pattern.
 * Two appenders writing and rolling one file overwrite each other's archives; logback refuses the
 * second {@code FileAppender}/{@code RollingFileAppender} on a {@code file} or
 * {@code fileNamePattern} already taken ({@code FileCollisionAnalyser}: "Collision detected"), and
 * the second {@code SpoolAppender} is refused the same way, with the same messages. Held in the
 * context's object map, so each {@code LoggerContext} has its own; an appender gives its claims
 * back when it stops (a reconfiguration stops the old appenders before the new ones start).
 */
final class FileClaims {

    /** Key of the claims in the context's object map. */
    static final String KEY = "io.github.spool.logback.FileClaims";

    private final Map<String, String> owners = new HashMap<>();

    private FileClaims() {
    }

    /**
     * Claims the appender's file and archive pattern, or none of them if another appender holds one.
     *
     * @param context  the appender's context
     * @param appender the appender's name
     * @param file     {@code <file>}, or {@code null}
     * @param pattern  {@code <fileNamePattern>}, or {@code null}
     * @return {@code null} when claimed, else the two errors logback reports for the collision
     */
    static String[] claim(Context context, String appender, String file, String pattern) {
        FileClaims claims = of(context);
        synchronized (claims) {
            String[] collision = claims.collision(appender, "file", file);
            if (collision == null) {
                collision = claims.collision(appender, "fileNamePattern", pattern);
            }
            if (collision != null) {
                return collision;
            }
            claims.put(file, appender);
            claims.put(pattern, appender);
            return null;
        }
    }

    /**
     * Gives back what the appender claimed.
     *
     * @param context  the appender's context
     * @param appender the appender's name
     */
    static void release(Context context, String appender) {
        FileClaims claims = of(context);
        synchronized (claims) {
            claims.owners.values().removeIf(appender::equals);
        }
    }

    private static FileClaims of(Context context) {
        synchronized (context) {
            Object o = context.getObject(KEY);
            if (o instanceof FileClaims) {
                return (FileClaims) o;
            }
            FileClaims claims = new FileClaims();
            context.putObject(KEY, claims);
            return claims;
        }
    }

    private String[] collision(String appender, String option, String value) {
        if (value == null) {
            return null;
        }
        String other = owners.get(key(value));
        if (other == null || other.equals(appender)) {
            return null;
        }
        // FileCollisionAnalyser.addErrorForCollision, word for word
        return new String[] {
            String.format("Collision detected. Skipping initialization of appender named [%s]", appender),
            String.format("In appender [%s] option '%s' has the same value '%s' as that set for appender [%s] defined earlier",
                    appender, option, value, other)
        };
    }

    private void put(String value, String appender) {
        if (value != null) {
            owners.put(key(value), appender);
        }
    }

    /** One spelling per file: {@code logs/app.log} and {@code ./logs/app.log} are the same file. */
    private static String key(String value) {
        try {
            return Paths.get(value).toAbsolutePath().normalize().toString();
        } catch (InvalidPathException e) {
            return value;
        }
    }
}
