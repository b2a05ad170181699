package io.github.spool.logback.it;

import io.github.spool.soak.ContainmentContract;

import java.nio.file.Files;
import java.nio.file.Path;

/** Failure containment end to end through logback ({@link ContainmentContract}). */
class ContainmentTest extends ContainmentContract {

    @Override
    protected Class<?> main() {
        return ContainmentMain.class;
    }

    @Override
    protected String configure(Path dir) throws Exception {
        Path xml = dir.resolve("logback.xml");
        Files.writeString(xml, "<configuration><appender name=\"out\" class=\"io.github.spool.logback.SpoolAppender\">"
                + "<maxBufferSize>8MB</maxBufferSize>" + LogbackRig.render() + "<encoder class=\"io.github.spool.logback.SpoolEncoder\">"
                + "<pattern>%m%n</pattern></encoder></appender><root level=\"INFO\"><appender-ref ref=\"out\"/></root></configuration>");
        return "-Dlogback.configurationFile=" + xml;
    }
}
