package io.github.spool.log4j2.it;

import io.github.spool.soak.OverloadSoakContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@link OverloadSoakContract} through log4j2: a {@code <Spool>} appender with {@code <SpoolLayout>}. */
class OverloadSoakTest extends OverloadSoakContract {

    @Override
    protected String framework() {
        return "log4j2";
    }

    @Override
    protected Class<?> main() {
        return SoakMain.class;
    }

    @Override
    protected List<String> configure(Path dir, String policy) throws Exception {
        Path config = dir.resolve("log4j2-soak-" + policy + ".xml");
        Files.writeString(config, "<Configuration status=\"warn\">\n"
                + "  <Appenders>\n"
                + "    <Spool name=\"soak\" target=\"SYSTEM_OUT\" bufferSize=\"" + BUFFER + "\" maxBufferSize=\"" + MAX
                + "\" overflowPolicy=\"" + policy + "\" discardThreshold=\"INFO\"" + Log4jRig.render() + ">\n"
                + "      <SpoolLayout pattern=\"%-5level [%t] %msg%n\"/>\n"
                + "    </Spool>\n"
                + "  </Appenders>\n"
                + "  <Loggers><Root level=\"info\"><AppenderRef ref=\"soak\"/></Root></Loggers>\n"
                + "</Configuration>\n");
        return List.of("-Dlog4j2.configurationFile=" + config, "-Dspool.it.render=" + Log4jRig.RENDER);
    }
}
