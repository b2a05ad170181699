package io.github.spool.log4j2.it;

import io.github.spool.soak.HostileChild;
import io.github.spool.soak.HostileInputContract;
import java.nio.file.Path;

/**
 * The forked half of {@link HostileInputTest} ({@link HostileChild}), configured for log4j2.
 */
public final class HostileMain extends HostileChild {

    /** {@code %c{1.}} is log4j2's converter, which the writer does not run: plain {@code %c} there. */
    static final boolean WRITER = Log4jRig.RENDER.equals("writer");
    private static final String LOGGERS_PATTERN = WRITER ? "%c %c{1} %m%n" : "%c{1.} %c{1} %m%n";

    private HostileMain() {
    }

    /**
     * @param args mode ({@code big} or {@code loggers}) and the output directory
     * @throws Exception on failure (the test sees a non-zero exit)
     */
    public static void main(String[] args) throws Exception {
        new HostileMain().execute(args);
    }

    @Override
    protected HostileInputContract.Run big(Path dir) throws Exception {
        Log4jRun run = new Log4jRun(Log4jRig.differential(dir, "[%t] %m%n"));
        run.assertRenderMode();
        return run;
    }

    @Override
    protected HostileInputContract.Run loggers(Path dir) throws Exception {
        String pattern = LOGGERS_PATTERN;
        Log4jRun run = new Log4jRun(Log4jRig.start(dir,
                "<Spool name='spool' fileName='" + dir.resolve(Log4jRig.SPOOL) + "'" + Log4jRig.render()
                        + "><SpoolLayout pattern='" + pattern + "'/></Spool>"
                        + "<Spool name='spoolPattern' fileName='" + dir.resolve(Log4jRig.SPOOL_PATTERN)
                        + "'><PatternLayout pattern='" + pattern + "'/></Spool>",
                "spool", "spoolPattern"));
        run.assertRenderMode();
        return run;
    }
}
