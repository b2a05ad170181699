package io.github.spool.logback;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import io.github.spool.soak.SameContextNameContract;
import java.nio.file.Files;
import java.nio.file.Path;

/** Two unnamed logback contexts, both {@code default} ({@link SameContextNameContract}). */
class SameContextNameTest extends SameContextNameContract {

    @Override
    protected String contextName() {
        return "default";
    }

    @Override
    protected Context start(Path file) throws Exception {
        Path config = dir.resolve(file.getFileName() + ".xml");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"" + APPENDER + "\" class=\"" + SpoolAppender.class.getName() + "\">\n"
                + "    <file>" + file + "</file>\n"
                + "    <encoder class=\"" + SpoolEncoder.class.getName() + "\"><pattern>%m%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"info\"><appender-ref ref=\"" + APPENDER + "\"/></root>\n"
                + "</configuration>\n");
        LoggerContext ctx = new LoggerContext(); // named "default", as every unnamed context is
        configure(ctx, config);
        return new Context() {
            @Override
            public void log(int n) {
                for (int i = 0; i < n; i++) {
                    ctx.getLogger("same").info("line {}", i);
                }
            }

            @Override
            public void reconfigure() throws Exception {
                ctx.reset();
                configure(ctx, config);
            }

            @Override
            public void stop() {
                ctx.stop();
            }
        };
    }

    private static void configure(LoggerContext ctx, Path config) throws Exception {
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(ctx);
        configurator.doConfigure(config.toFile());
    }
}
