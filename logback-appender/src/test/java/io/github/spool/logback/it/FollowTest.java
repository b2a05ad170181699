// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback.it;

import io.github.spool.dropin.FollowContract;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code <follow>true</follow>} in a JVM whose {@code System.out} was replaced ({@link FollowContract}). */
class FollowTest extends FollowContract {

    @Override
    protected Class<?> main() {
        return FollowMain.class;
    }

    @Override
    protected String configure(Path dir, boolean follow) throws Exception {
        Path xml = dir.resolve("logback-follow-" + follow + ".xml");
        Files.writeString(xml, "<configuration>"
                + "<statusListener class='ch.qos.logback.core.status.OnErrorConsoleStatusListener'/><appender name='out' class='io.github.spool.logback.SpoolAppender'>"
                + "<target>System.out</target><follow>" + follow + "</follow>"
                + "<encoder class='io.github.spool.logback.SpoolEncoder'><pattern>%m%n</pattern></encoder></appender>"
                + "<root level='INFO'><appender-ref ref='out'/></root></configuration>");
        return "-Dlogback.configurationFile=" + xml;
    }
}
