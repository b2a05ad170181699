// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2.it;

import io.github.spool.lifecycle.ExitContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The JVM's exit through log4j2 ({@link ExitContract}). */
class ExitTest extends ExitContract {

    @Override
    protected Class<?> main() {
        return ExitMain.class;
    }

    @Override
    protected List<String> configure(Path dir, String mode) throws Exception {
        boolean stalled = mode.equals("stalled-exit");
        // status="error", log4j2's default: its WARN status messages are not printed.
        StringBuilder xml = new StringBuilder("<Configuration status=\"error\"")
                .append(stalled ? "" : " shutdownHook=\"disable\"").append("><Appenders>");
        StringBuilder refs = new StringBuilder();
        for (String name : stalled ? new String[] {"out", "out2", "out3"} : new String[] {"out"}) {
            xml.append("<Spool name=\"").append(name).append("\" target=\"SYSTEM_OUT\"").append(Log4jRig.render())
                    .append("><SpoolLayout pattern=\"%m%n\"/></Spool>");
            refs.append("<AppenderRef ref=\"").append(name).append("\"/>");
        }
        xml.append("</Appenders><Loggers><Root level=\"info\">").append(refs).append("</Root></Loggers></Configuration>");
        Path file = dir.resolve("log4j2-" + mode + ".xml");
        Files.writeString(file, xml);
        // log4j2 refuses to start during the exit unless its shutdown hook is off for the JVM.
        return mode.equals("late-start") ? List.of("-Dlog4j2.configurationFile=" + file, "-Dlog4j.shutdownHookEnabled=false")
                : List.of("-Dlog4j2.configurationFile=" + file);
    }
}
