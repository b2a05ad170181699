package io.github.spool.log4j2.it;

import io.github.spool.soak.MemoryLifecycleContract;
import java.nio.file.Files;
import java.nio.file.Path;

/** Direct memory over an appender's life, through log4j2 ({@link MemoryLifecycleContract}). */
class MemoryLifecycleTest extends MemoryLifecycleContract {

    @Override
    protected Class<?> main() {
        return MemoryLifecycleMain.class;
    }

    @Override
    protected String configure(Path dir, long bufferSize, long maxBufferSize) throws Exception {
        Path xml = dir.resolve("log4j2.xml");
        Files.writeString(xml, "<Configuration status=\"warn\"><Appenders>"
                + "<Spool name=\"out\" target=\"SYSTEM_OUT\" render=\"writer\""
                + (bufferSize > 0 ? " bufferSize=\"" + bufferSize + "\"" : "")
                + (maxBufferSize > 0 ? " maxBufferSize=\"" + maxBufferSize + "\"" : "")
                + "><SpoolLayout pattern=\"%m%n\"/></Spool>"
                + "</Appenders><Loggers><Root level=\"info\"><AppenderRef ref=\"out\"/></Root></Loggers></Configuration>");
        return "-Dlog4j2.configurationFile=" + xml;
    }
}
