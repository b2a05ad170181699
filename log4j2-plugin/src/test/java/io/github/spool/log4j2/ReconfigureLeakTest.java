package io.github.spool.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.soak.ReconfigureLeakContract;
import io.github.spool.soak.SeqFile;
import io.github.spool.soak.SeqProducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;

/**
 * {@link ReconfigureLeakContract} through {@code LoggerContext.reconfigure()}, with two
 * {@code <Spool>} appenders (one with {@code SpoolLayout}, one with {@code PatternLayout}): both
 * files hold every event exactly once (log4j2 reconfigures without a gap, see
 * {@link SpoolAppender}).
 */
class ReconfigureLeakTest extends ReconfigureLeakContract {

    @Override
    protected String framework() {
        return "log4j2";
    }

    @Override
    protected String prefix() {
        return "reconf4j-";
    }

    @Override
    protected Context start(String a, Path fileA, String b, Path fileB) throws Exception {
        Path config = dir.resolve("log4j2-reconfigure.xml");
        Files.writeString(config, "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"" + a + "\" fileName=\"" + fileA + "\" bufferSize=\"64 KiB\" maxBufferSize=\"1 MiB\">\n"
                + "      <SpoolLayout pattern=\"%t %m%n\"/>\n"
                + "    </Spool>\n"
                + "    <Spool name=\"" + b + "\" fileName=\"" + fileB + "\" bufferSize=\"64 KiB\" maxBufferSize=\"1 MiB\">\n"
                + "      <PatternLayout pattern=\"%t %m%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"" + a + "\"/><AppenderRef ref=\"" + b + "\"/></Root></Loggers>\n"
                + "</Configuration>\n");
        LoggerContext ctx = new LoggerContext("spool-reconfigure", null, config.toUri());
        ctx.start();
        Logger logger = ctx.getLogger("reconf");
        return new Context() {
            @Override
            public void log(long seq) {
                logger.info("seq={}", seq);
            }

            @Override
            public void reconfigure(SeqProducer producer) {
                ctx.reconfigure();
            }

            @Override
            public void stop() {
                assertTrue(ctx.stop(30, TimeUnit.SECONDS), "context stopped");
            }

            @Override
            public String verify(long produced) throws Exception {
                for (Path f : List.of(fileA, fileB)) {
                    BitSet seen = SeqFile.read(f);
                    assertEquals(produced, seen.cardinality(), f + ": every event exactly once");
                    assertEquals(produced, seen.nextClearBit(0), f + ": no gap");
                }
                return "; every event in both files";
            }
        };
    }
}
