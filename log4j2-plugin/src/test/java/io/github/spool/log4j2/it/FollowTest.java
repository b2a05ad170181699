// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2.it;

import io.github.spool.dropin.FollowContract;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code follow="true"} in a JVM whose {@code System.out} was replaced ({@link FollowContract}). */
class FollowTest extends FollowContract {

    @Override
    protected Class<?> main() {
        return FollowMain.class;
    }

    @Override
    protected String configure(Path dir, boolean follow) throws Exception {
        Path xml = dir.resolve("log4j2-follow-" + follow + ".xml");
        Files.writeString(xml, "<Configuration status='warn'><Appenders><Spool name='out' target='SYSTEM_OUT' follow='"
                + follow + "'><PatternLayout pattern='%m%n'/></Spool></Appenders><Loggers><Root level='info'>"
                + "<AppenderRef ref='out'/></Root></Loggers></Configuration>");
        return "-Dlog4j2.configurationFile=" + xml;
    }
}
