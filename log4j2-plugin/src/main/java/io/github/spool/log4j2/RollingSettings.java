// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2;

import io.github.spool.SettingsReader;
import io.github.spool.io.rolling.RollingPolicy;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.logging.log4j.core.appender.rolling.CompositeTriggeringPolicy;
import org.apache.logging.log4j.core.appender.rolling.DefaultRolloverStrategy;
import org.apache.logging.log4j.core.appender.rolling.NoOpTriggeringPolicy;
import org.apache.logging.log4j.core.appender.rolling.OnStartupTriggeringPolicy;
import org.apache.logging.log4j.core.appender.rolling.RolloverStrategy;
import org.apache.logging.log4j.core.appender.rolling.SizeBasedTriggeringPolicy;
import org.apache.logging.log4j.core.appender.rolling.TimeBasedTriggeringPolicy;
import org.apache.logging.log4j.core.appender.rolling.TriggeringPolicy;
import org.apache.logging.log4j.core.appender.rolling.action.Action;

/**
 * Reads the nested elements users write for {@code RollingRandomAccessFile} — {@code <Policies>}
 * and {@code <DefaultRolloverStrategy>} with its custom actions — into core's
 * {@link RollingPolicy}. log4j2 builds the policy and strategy objects itself (they are its own
 * plugins); Spool only reads their settings and performs the rollover on its writer thread. What
 * Spool does not do is a WARN naming it, never a silent difference.
 *
 * <p>log4j2 2.26.1 gives {@code OnStartupTriggeringPolicy}'s {@code minSize} and
 * {@code TimeBasedTriggeringPolicy}'s {@code modulate} no getter; they are read from the fields
 * (and their defaults assumed, with a WARN, should a later version rename them).
 */
final class RollingSettings {

    private RollingSettings() {
    }

    /**
     * @param r           where WARNs go
     * @param fileName    the active file
     * @param filePattern the archive pattern
     * @param trigger     {@code <Policies>} (or one policy), may be {@code null}
     * @param strategy    the rollover strategy, may be {@code null} (log4j2's default then)
     * @return the policy
     * @throws IllegalArgumentException when the settings cannot roll at all (a bad pattern)
     */
    static RollingPolicy read(SettingsReader r, Path fileName, String filePattern, TriggeringPolicy trigger,
                              RolloverStrategy strategy) {
        RollingPolicy.Builder b = RollingPolicy.builder(filePattern).activeFile(fileName);
        List<TriggeringPolicy> policies = new ArrayList<>();
        flatten(trigger, policies);
        if (policies.isEmpty()) {
            r.warn("filePattern is set but no triggering policy (<Policies>): the file never rolls");
        }
        for (TriggeringPolicy p : policies) {
            if (p instanceof SizeBasedTriggeringPolicy) {
                b.maxFileSize(((SizeBasedTriggeringPolicy) p).getMaxFileSize(), true);
            } else if (p instanceof TimeBasedTriggeringPolicy) {
                TimeBasedTriggeringPolicy t = (TimeBasedTriggeringPolicy) p;
                Object delay = field(r, t, "maxRandomDelayMillis", 0L);
                if (delay instanceof Long && (Long) delay > 0) {
                    r.warn("TimeBasedTriggeringPolicy maxRandomDelay is ignored: the rollover runs on Spool's writer "
                            + "thread, so no logging call waits for it and there is no stampede to spread");
                }
                b.timeBased(t.getInterval(), Boolean.TRUE.equals(field(r, t, "modulate", false)));
            } else if (p instanceof OnStartupTriggeringPolicy) {
                Object min = field(r, p, "minSize", 1L);
                b.rollOnStartup(min instanceof Long ? (Long) min : 1L);
            } else if (!(p instanceof NoOpTriggeringPolicy)) {
                r.warn(p.getClass().getSimpleName() + " is not supported by Spool and is ignored (supported: "
                        + "SizeBasedTriggeringPolicy, TimeBasedTriggeringPolicy, OnStartupTriggeringPolicy)");
            }
        }
        boolean hasIndex = filePattern.contains("%i");
        // log4j2's FileRenameAction replaces an archive of the same name (REPLACE_EXISTING)
        b.replaceArchives(true);
        boolean sized = false;
        for (TriggeringPolicy p : policies) {
            sized |= p instanceof SizeBasedTriggeringPolicy;
        }
        if (sized && !hasIndex) {
            // log4j2 says nothing here and loses the earlier archives of the period; say it once.
            r.warn("filePattern '" + filePattern + "' has no %i: each size rollover within one period replaces the "
                    + "archive of the last one, as RollingRandomAccessFile does (DefaultRolloverStrategy max has no "
                    + "effect); add %i to the pattern to keep them");
        }
        if (strategy == null || strategy instanceof DefaultRolloverStrategy) {
            DefaultRolloverStrategy d = (DefaultRolloverStrategy) strategy;
            int min = d == null ? 1 : d.getMinIndex();
            int max = d == null ? 7 : d.getMaxIndex();
            if (hasIndex) {
                if (min == Integer.MIN_VALUE) { // fileIndex="nomax"
                    b.indexing(RollingPolicy.Indexing.NEXT_FREE, 1, Integer.MAX_VALUE);
                } else {
                    b.indexing(d == null || d.isUseMax() ? RollingPolicy.Indexing.NEWEST_HIGHEST
                            : RollingPolicy.Indexing.NEWEST_LOWEST, min, max);
                }
            }
            if (d != null) {
                if (d.getTempCompressedFilePattern() != null) {
                    r.info("DefaultRolloverStrategy tempCompressedFilePattern is not needed: Spool compresses into "
                            + "a temporary name beside the archive and renames it when complete");
                }
                for (Action action : d.getCustomActions()) {
                    b.afterRollover(() -> run(action));
                }
            }
        } else {
            r.warn(strategy.getClass().getSimpleName() + " is not supported by Spool; rolling as "
                    + "DefaultRolloverStrategy with its defaults (max=7)");
            if (hasIndex) {
                b.indexing(RollingPolicy.Indexing.NEWEST_HIGHEST, 1, 7);
            }
        }
        if (filePattern.endsWith(".bz2") || filePattern.endsWith(".xz") || filePattern.endsWith(".zst")
                || filePattern.endsWith(".deflate") || filePattern.endsWith(".pack200")) {
            r.warn("filePattern '" + filePattern + "': Spool compresses .gz and .zip only; these archives are "
                    + "written uncompressed, under the pattern's name");
        }
        return b.locale(Locale.getDefault()).build();
    }

    private static void run(Action action) {
        try {
            action.execute();
        } catch (Exception e) {
            throw new IllegalStateException(action + " failed: " + e, e);
        }
    }

    private static void flatten(TriggeringPolicy p, List<TriggeringPolicy> out) {
        if (p instanceof CompositeTriggeringPolicy) {
            for (TriggeringPolicy each : ((CompositeTriggeringPolicy) p).getTriggeringPolicies()) {
                flatten(each, out);
            }
        } else if (p != null) {
            out.add(p);
        }
    }

    private static Object field(SettingsReader r, Object target, String name, Object fallback) {
        try {
            Field f = target.getClass().getDeclaredField(name);
            f.setAccessible(true);
            return f.get(target);
        } catch (ReflectiveOperationException | RuntimeException e) {
            r.warn("could not read " + target.getClass().getSimpleName() + "." + name + " (" + e
                    + "); assuming " + fallback);
            return fallback;
        }
    }
}
