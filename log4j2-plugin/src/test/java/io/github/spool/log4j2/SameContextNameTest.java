package io.github.spool.log4j2;

import io.github.spool.soak.SameContextNameContract;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.logging.log4j.core.LoggerContext;

/** Two log4j2 contexts given the same name ({@link SameContextNameContract}). */
class SameContextNameTest extends SameContextNameContract {

    @Override
    protected String contextName() {
        return "webapp";
    }

    @Override
    protected Context start(Path file) throws Exception {
        Path config = dir.resolve(file.getFileName() + ".xml");
        Files.writeString(config, "<Configuration status=\"warn\"><Appenders>"
                + "<Spool name=\"" + APPENDER + "\" fileName=\"" + file + "\"><SpoolLayout pattern=\"%m%n\"/></Spool>"
                + "</Appenders><Loggers><Root level=\"info\"><AppenderRef ref=\"" + APPENDER + "\"/></Root></Loggers></Configuration>");
        LoggerContext ctx = new LoggerContext(contextName(), null, config.toUri());
        ctx.start();
        return new Context() {
            @Override
            public void log(int n) {
                for (int i = 0; i < n; i++) {
                    ctx.getLogger("same").info("line {}", i);
                }
            }

            @Override
            public void reconfigure() {
                ctx.reconfigure();
            }

            @Override
            public void stop() {
                ctx.stop();
            }
        };
    }
}
