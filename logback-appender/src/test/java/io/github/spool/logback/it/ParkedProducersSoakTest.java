// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback.it;

import io.github.spool.soak.AdapterSoak;
import io.github.spool.soak.ParkedProducersSoakContract;
import java.nio.file.Files;
import java.nio.file.Path;

/** Producers parked at the cap through logback ({@link ParkedProducersSoakContract}). */
class ParkedProducersSoakTest extends ParkedProducersSoakContract {

    @Override
    protected Class<?> main() {
        return ParkedSoakMain.class;
    }

    @Override
    protected String configure(Path dir, Path fifo) throws Exception {
        Path xml = dir.resolve("logback.xml");
        Files.writeString(xml, "<configuration>"
                + "<statusListener class=\"ch.qos.logback.core.status.OnErrorConsoleStatusListener\"/>"
                + "<appender name=\"" + AdapterSoak.APPENDER + "\" class=\"io.github.spool.logback.SpoolAppender\">"
                + "<file>" + fifo + "</file><overflowPolicy>BLOCK</overflowPolicy>"
                + "<bufferSize>64KB</bufferSize><maxBufferSize>1MB</maxBufferSize>" + LogbackRig.render()
                + "<encoder class=\"io.github.spool.logback.SpoolEncoder\"><pattern>%m%n</pattern></encoder></appender>"
                + "<root level=\"INFO\"><appender-ref ref=\"" + AdapterSoak.APPENDER + "\"/></root></configuration>");
        return "-Dlogback.configurationFile=" + xml;
    }
}
