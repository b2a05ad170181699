package io.github.spool.log4j2.it;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child of {@link DocSnippetsTest}: configures log4j2 from a documentation snippet, logs one
 * line at INFO and stops. Exits 3 if log4j2 reported an ERROR status while doing so.
 */
public final class DocSnippetMain {
    private DocSnippetMain() {
    }

    /**
     * @param args the configuration file, then the line to log
     */
    public static void main(String[] args) {
        List<String> errors = new ArrayList<>();
        StatusLogger.getLogger().registerListener(new StatusListener() {
            @Override
            public void log(StatusData data) {
                synchronized (errors) {
                    errors.add(data.getLevel() + " " + data.getMessage().getFormattedMessage()
                            + (data.getThrowable() == null ? "" : " " + data.getThrowable()));
                }
            }

            @Override
            public Level getStatusLevel() {
                return Level.ERROR;
            }

            @Override
            public void close() {
            }
        });
        LoggerContext ctx = Configurator.initialize("doc-snippet", null, Path.of(args[0]).toUri());
        ctx.getLogger("doc.snippet").info(args[1]);
        Configurator.shutdown(ctx);
        synchronized (errors) {
            List<String> shown = new ArrayList<>();
            for (String e : errors) {
                if (e.startsWith("ERROR") || e.startsWith("FATAL")) {
                    shown.add(e);
                }
            }
            if (!shown.isEmpty()) {
                System.err.println("status errors: " + shown);
                System.exit(3);
            }
        }
    }
}
