// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback.it;

import io.github.spool.lifecycle.ExitContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The JVM's exit through logback ({@link ExitContract}). */
class ExitTest extends ExitContract {

    @Override
    protected Class<?> main() {
        return ExitMain.class;
    }

    @Override
    protected List<String> configure(Path dir, String mode) throws Exception {
        boolean stalled = mode.equals("stalled-exit");
        StringBuilder xml = new StringBuilder("<configuration>");
        if (stalled) {
            xml.append("<shutdownHook/>"); // logback's own hook stops the appenders one after another
        }
        StringBuilder refs = new StringBuilder();
        for (String name : stalled ? new String[] {"out", "out2", "out3"} : new String[] {"out"}) {
            xml.append("<appender name=\"").append(name).append("\" class=\"io.github.spool.logback.SpoolAppender\">")
                    .append(LogbackRig.render()).append("<encoder class=\"io.github.spool.logback.SpoolEncoder\">")
                    .append("<pattern>%m%n</pattern></encoder></appender>");
            refs.append("<appender-ref ref=\"").append(name).append("\"/>");
        }
        xml.append("<root level=\"INFO\">").append(refs).append("</root></configuration>");
        Path file = dir.resolve("logback-" + mode + ".xml");
        Files.writeString(file, xml);
        return List.of("-Dlogback.configurationFile=" + file);
    }
}
