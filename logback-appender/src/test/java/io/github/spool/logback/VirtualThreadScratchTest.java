package io.github.spool.logback;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.github.spool.VirtualThreadScratchContract;
import java.nio.file.Path;

/** {@link VirtualThreadScratchContract} through logback: {@link SpoolAppender} with a {@link SpoolEncoder}. */
class VirtualThreadScratchTest extends VirtualThreadScratchContract {

    @Override
    protected Rig start(Path file, String render, String bufferSize, String maxBufferSize) throws Exception {
        String xml = "<configuration>\n"
                + "  <appender name=\"SPOOL\" class=\"io.github.spool.logback.SpoolAppender\">\n"
                + "    <file>" + file + "</file><overflowPolicy>BLOCK</overflowPolicy><render>" + render + "</render>\n"
                + "    <bufferSize>" + bufferSize + "</bufferSize><maxBufferSize>" + maxBufferSize + "</maxBufferSize>\n"
                + "    <encoder class=\"io.github.spool.logback.SpoolEncoder\"><pattern>%m%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"SPOOL\"/></root>\n"
                + "</configuration>\n";
        LoggerContext lc = LogbackConfigured.newContext();
        LogbackConfigured.configure(lc, xml);
        Logger logger = lc.getLogger("virtual");
        SpoolAppender appender = (SpoolAppender) lc.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("SPOOL");
        return new Rig() {
            @Override
            public void info(String format, Object arg) {
                logger.info(format, arg);
            }

            @Override
            public long scratchesMade() {
                return appender.scratchesMade();
            }

            @Override
            public void close() {
                lc.stop();
            }
        };
    }
}
