package io.github.spool.log4j2.it;

import io.github.spool.soak.FaultInjectionContract;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The fault injection suite ({@link FaultInjectionContract}) through a real {@code log4j2.xml} with
 * a {@code <Spool>} appender: its status messages are log4j2's status logger output on standard
 * error ({@code status="info"}, so that the recovery INFO shows).
 */
class FaultInjectionTest extends FaultInjectionContract {

    /** log4j2's StatusConsoleListener: {@code <instant> <thread> <LEVEL> <message>}. */
    private static final Pattern STATUS = Pattern.compile("^\\S+ \\S+ (ERROR|WARN|INFO) ([Ss]pool appender 'out'.*)$");

    @Override
    protected String framework() {
        return "log4j2";
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
        String xml = file ? "spool-fault-file.xml" : "spool-fault-console.xml";
        List<String> args = new ArrayList<>();
        args.add("-Dlog4j2.configurationFile=" + Paths.get(FaultInjectionTest.class.getResource("/it/" + xml).toURI()));
        if (stallPolicy != null) {
            args.addAll(List.of("-Dspool.it.policy=" + stallPolicy, "-Dspool.it.bufferSize=64 KiB",
                    "-Dspool.it.maxBufferSize=256 KiB"));
        }
        return args;
    }
}
