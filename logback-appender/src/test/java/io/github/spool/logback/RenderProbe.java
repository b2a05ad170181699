package io.github.spool.logback;

import ch.qos.logback.classic.LoggerContext;

/** Where a configured {@link SpoolAppender} renders, for tests in other packages. Test support. */
public final class RenderProbe {

    private RenderProbe() {
    }

    /**
     * @param lc   a configured context
     * @param name a started {@code SpoolAppender} on its root logger
     * @return whether it renders on the writer thread
     */
    public static boolean rendersOnWriter(LoggerContext lc, String name) {
        SpoolAppender a = (SpoolAppender) lc.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender(name);
        return a.spoolForTest().config().renderer() != null;
    }
}
