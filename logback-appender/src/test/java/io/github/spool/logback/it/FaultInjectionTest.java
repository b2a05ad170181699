package io.github.spool.logback.it;

import io.github.spool.soak.FaultInjectionContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The fault injection suite ({@link FaultInjectionContract}) through a real {@code logback.xml}
 * with a {@code SpoolAppender}: its status messages are the entries of logback's
 * {@code StatusManager}, which {@link FaultMain} prints to standard error.
 */
class FaultInjectionTest extends FaultInjectionContract {

    /** What {@link FaultMain} prints per status of the appender. */
    private static final Pattern STATUS = Pattern.compile("^spool-status (ERROR|WARN|INFO) ((?:spool appender 'out'|SpoolAppender \\[out\\]).*)$");
    private static final String PATTERN = "<pattern>%d{HH:mm:ss.SSS} [%thread] %-5level %logger{0} - %msg%n</pattern>";

    @Override
    protected String framework() {
        return "logback";
    }

    @Override
    protected Pattern statusLine() {
        return STATUS;
    }

    @Override
    protected Class<?> faultMain() {
        return FaultMain.class;
    }

    @Override
    protected List<String> configure(Path dir, boolean file, String stallPolicy) throws Exception {
        String sink = file
                ? "<file>${spool.it.file}</file>\n    <encoder>" + PATTERN + "<charset>UTF-8</charset></encoder>"
                : "<target>System.out</target>\n    <encoder class=\"io.github.spool.logback.SpoolEncoder\">\n      "
                        + PATTERN + "\n    </encoder>";
        String settings = stallPolicy == null ? ""
                : "<overflowPolicy>" + stallPolicy + "</overflowPolicy><bufferSize>64KB</bufferSize><maxBufferSize>256KB</maxBufferSize>";
        Path config = LogbackRig.writeChildConfig(Files.createTempFile(dir, "logback", ".xml"), "", "out",
                "    " + sink + "\n    " + settings + "\n");
        return List.of("-Dlogback.configurationFile=" + config);
    }
}
