package io.github.spool.log4j2.it;

import io.github.spool.soak.ContainmentContract;

import java.nio.file.Files;
import java.nio.file.Path;

/** Failure containment end to end through log4j2 ({@link ContainmentContract}). */
class ContainmentTest extends ContainmentContract {

    @Override
    protected Class<?> main() {
        return ContainmentMain.class;
    }

    @Override
    protected String configure(Path dir) throws Exception {
        Path xml = dir.resolve("log4j2.xml");
        Files.writeString(xml, "<Configuration status=\"warn\"><Appenders>"
                + "<Spool name=\"out\" target=\"SYSTEM_OUT\" maxBufferSize=\"8 MiB\"" + Log4jRig.render() + "><SpoolLayout pattern=\"%m%n\"/></Spool>"
                + "</Appenders><Loggers><Root level=\"info\"><AppenderRef ref=\"out\"/></Root></Loggers></Configuration>");
        return "-Dlog4j2.configurationFile=" + xml;
    }
}
