package io.github.spool.log4j2.it;

import io.github.spool.soak.HostileInput;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;

/**
 * The forked half of {@link HostileInputTest}: runs one case in a JVM with a 128 MiB heap and
 * prints its figures ({@code key=value} lines) to standard output; the {@code verify*} methods check
 * the files it wrote. Modes: {@code big} (a 10 MiB message between numbered events of two threads)
 * and {@code loggers} (two million distinct logger names).
 */
public final class HostileMain {

    /** {@code %c{1.}} is log4j2's converter, which the writer does not run: plain {@code %c} there. */
    private static final boolean WRITER = Log4jRig.RENDER.equals("writer");
    private static final String LOGGERS_PATTERN = WRITER ? "%c %c{1} %m%n" : "%c{1.} %c{1} %m%n";

    private HostileMain() {
    }

    /**
     * @param args mode ({@code big} or {@code loggers}) and the output directory
     * @throws Exception on failure (the test sees a non-zero exit)
     */
    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[1]);
        switch (args[0]) {
            case "big":
                big(dir);
                break;
            case "loggers":
                loggers(dir);
                break;
            default:
                throw new IllegalArgumentException(args[0]);
        }
    }

    private static void big(Path dir) throws Exception {
        LoggerContext context = Log4jRig.differential(dir, "[%t] %m%n");
        Log4jRig.assertRenderMode(context, "spool");
        Logger log = context.getLogger("big");
        List<String> figures = HostileInput.logBig(log::info, log::info);
        context.stop();
        figures.forEach(System.out::println);
        System.out.println("heapPeakSum=" + HostileInput.peakHeap());
    }

    private static void loggers(Path dir) throws Exception {
        String pattern = LOGGERS_PATTERN;
        LoggerContext context = Log4jRig.start(dir,
                "<Spool name='spool' fileName='" + dir.resolve(Log4jRig.SPOOL) + "'" + Log4jRig.render()
                        + "><SpoolLayout pattern='" + pattern + "'/></Spool>"
                        + "<Spool name='spoolPattern' fileName='" + dir.resolve(Log4jRig.SPOOL_PATTERN)
                        + "'><PatternLayout pattern='" + pattern + "'/></Spool>",
                "spool", "spoolPattern");
        Log4jRig.assertRenderMode(context, "spool");
        // Events go straight to the root LoggerConfig, as a Logger would send them: creating two
        // million log4j2 Loggers costs log4j2 itself about 15 us each (31 s in one run here),
        // which says nothing about Spool. The names reach the layouts all the same.
        LoggerConfig root = context.getConfiguration().getRootLogger();
        long t0 = System.nanoTime();
        for (int i = 0; i < HostileInput.LOGGERS; i++) {
            root.log(Log4jLogEvent.newBuilder().setLoggerName("pkg.sub.N" + i).setLevel(Level.INFO)
                    .setMessage(new SimpleMessage(Integer.toString(i))).setThreadName("main").build());
        }
        long logged = System.nanoTime() - t0;
        long used = HostileInput.usedAfterGc();
        context.stop();
        System.out.println("loggers=" + HostileInput.LOGGERS);
        System.out.println("logMillis=" + TimeUnit.NANOSECONDS.toMillis(logged));
        System.out.println("usedAfterGcBytes=" + used);
        System.out.println("heapPeakSum=" + HostileInput.peakHeap());
    }

    /** Runs {@code mode} in a forked JVM ({@link HostileInput#fork}) and returns its figures. */
    static List<String> fork(Path dir, String mode) throws IOException, InterruptedException {
        return HostileInput.fork(dir, HostileMain.class, mode, Log4jRig.RENDER);
    }

    /** Checks the outputs of mode {@code big}. */
    static void verifyBig(Path dir, List<String> figures) throws IOException {
        HostileInput.verifyBig(dir, figures, Log4jRig.SPOOL, Log4jRig.SPOOL_PATTERN, Log4jRig.REFERENCE);
    }

    /** Checks the outputs of mode {@code loggers}. */
    static void verifyLoggers(Path dir, List<String> figures) throws IOException {
        HostileInput.verifyLoggers(dir, figures, i -> (WRITER ? "pkg.sub.N" : "p.s.N") + i + " N" + i + " " + i, Log4jRig.SPOOL, Log4jRig.SPOOL_PATTERN);
    }
}
