package io.github.spool.logback.it;

import io.github.spool.soak.OverloadSoakContract;
import java.nio.file.Path;
import java.util.List;

/** {@link OverloadSoakContract} through logback: a {@code SpoolAppender} with a {@code SpoolEncoder}. */
class OverloadSoakTest extends OverloadSoakContract {

    @Override
    protected String framework() {
        return "logback";
    }

    @Override
    protected Class<?> main() {
        return SoakMain.class;
    }

    @Override
    protected List<String> configure(Path dir, String policy) throws Exception {
        Path config = LogbackRig.writeChildConfig(dir.resolve("logback-soak-" + policy + ".xml"),
                "  <statusListener class=\"ch.qos.logback.core.status.OnErrorConsoleStatusListener\"/>\n", "soak",
                "    <target>System.out</target>\n"
                + "    <bufferSize>" + BUFFER + "</bufferSize>\n"
                + "    <maxBufferSize>" + MAX + "</maxBufferSize>\n"
                + "    <overflowPolicy>" + policy + "</overflowPolicy>\n"
                + "    <discardThreshold>INFO</discardThreshold>\n"
                + "    " + LogbackRig.render() + "\n"
                + "    <encoder class=\"io.github.spool.logback.SpoolEncoder\"><pattern>%-5level [%thread] %msg%n</pattern></encoder>\n");
        return List.of("-Dlogback.configurationFile=" + config, "-Dspool.it.render=" + LogbackRig.RENDER);
    }
}
