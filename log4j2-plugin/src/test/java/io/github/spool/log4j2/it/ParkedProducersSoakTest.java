// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2.it;

import io.github.spool.soak.AdapterSoak;
import io.github.spool.soak.ParkedProducersSoakContract;
import java.nio.file.Files;
import java.nio.file.Path;

/** Producers parked at the cap through log4j2 ({@link ParkedProducersSoakContract}). */
class ParkedProducersSoakTest extends ParkedProducersSoakContract {

    @Override
    protected Class<?> main() {
        return ParkedSoakMain.class;
    }

    @Override
    protected String configure(Path dir, Path fifo) throws Exception {
        Path xml = dir.resolve("log4j2.xml");
        Files.writeString(xml, "<Configuration status=\"warn\" shutdownHook=\"disable\"><Appenders>"
                + "<Spool name=\"" + AdapterSoak.APPENDER + "\" fileName=\"" + fifo + "\" overflowPolicy=\"BLOCK\""
                + " bufferSize=\"64KB\" maxBufferSize=\"1MB\"" + Log4jRig.render() + "><SpoolLayout pattern=\"%m%n\"/></Spool>"
                + "</Appenders><Loggers><Root level=\"info\"><AppenderRef ref=\"" + AdapterSoak.APPENDER + "\"/></Root>"
                + "</Loggers></Configuration>");
        return "-Dlog4j2.configurationFile=" + xml;
    }
}
