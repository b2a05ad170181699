package io.github.spool.log4j2;

import io.github.spool.VirtualThreadScratchContract;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;

/** {@link VirtualThreadScratchContract} through log4j2: {@code <Spool>} with {@code <SpoolLayout>}. */
class VirtualThreadScratchTest extends VirtualThreadScratchContract {

    @Override
    protected Rig start(Path file, String render, String bufferSize, String maxBufferSize) throws Exception {
        Path config = dir.resolve("log4j2-virtual-" + render + ".xml");
        Files.writeString(config, "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"virtual\" fileName=\"" + file + "\" overflowPolicy=\"BLOCK\" render=\"" + render
                + "\" bufferSize=\"" + bufferSize + "\" maxBufferSize=\"" + maxBufferSize + "\">\n"
                + "      <SpoolLayout pattern=\"%m%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"virtual\"/></Root></Loggers>\n"
                + "</Configuration>\n", StandardCharsets.UTF_8);
        LoggerContext context = new LoggerContext("virtual-" + render, null, config.toUri());
        context.start();
        Logger logger = context.getLogger("virtual");
        return new Rig() {
            @Override
            public void info(String format, Object arg) {
                logger.info(format, arg);
            }

            @Override
            public long scratchesMade() {
                return SpoolLayout.scratchesMade(); // shared by every SpoolLayout of this class loader
            }

            @Override
            public void close() {
                context.stop();
            }
        };
    }
}
