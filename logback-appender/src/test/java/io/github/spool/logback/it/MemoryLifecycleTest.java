package io.github.spool.logback.it;

import io.github.spool.soak.MemoryLifecycleContract;
import java.nio.file.Files;
import java.nio.file.Path;

/** Direct memory over an appender's life, through logback ({@link MemoryLifecycleContract}). */
class MemoryLifecycleTest extends MemoryLifecycleContract {

    @Override
    protected Class<?> main() {
        return MemoryLifecycleMain.class;
    }

    @Override
    protected String configure(Path dir, long bufferSize, long maxBufferSize) throws Exception {
        Path xml = dir.resolve("logback.xml");
        Files.writeString(xml, "<configuration>"
                + "<statusListener class=\"ch.qos.logback.core.status.OnErrorConsoleStatusListener\"/>"
                + "<appender name=\"out\" class=\"io.github.spool.logback.SpoolAppender\">"
                + (bufferSize > 0 ? "<bufferSize>" + bufferSize + "</bufferSize>" : "")
                + (maxBufferSize > 0 ? "<maxBufferSize>" + maxBufferSize + "</maxBufferSize>" : "") + "<render>writer</render>"
                + "<encoder class=\"io.github.spool.logback.SpoolEncoder\"><pattern>%m%n</pattern></encoder></appender>"
                + "<root level=\"INFO\"><appender-ref ref=\"out\"/></root></configuration>");
        return "-Dlogback.configurationFile=" + xml;
    }
}
