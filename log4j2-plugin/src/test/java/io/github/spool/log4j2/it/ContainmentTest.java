package io.github.spool.log4j2.it;

import io.github.spool.soak.ContainmentCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Failure containment end to end through log4j2 (issue 11): a {@code StackOverflowError} in a
 * deeply recursive {@code logger.info}, the writer thread interrupted, and 16 MiB of direct memory
 * with 1 MiB and 40 MiB messages, with and without {@code -XX:+DisableExplicitGC}. The checks are
 * shared with the logback adapter ({@link ContainmentCheck}).
 */
class ContainmentTest {
    @TempDir
    Path dir;

    private List<String> config(List<String> extra) throws Exception {
        Path xml = dir.resolve("log4j2.xml");
        Files.writeString(xml, "<Configuration status=\"warn\"><Appenders>"
                + "<Spool name=\"out\" target=\"SYSTEM_OUT\" maxBufferSize=\"8 MiB\"><SpoolLayout pattern=\"%m%n\"/></Spool>"
                + "</Appenders><Loggers><Root level=\"info\"><AppenderRef ref=\"out\"/></Root></Loggers></Configuration>");
        List<String> args = new ArrayList<>(extra);
        args.add("-Dlog4j2.configurationFile=" + xml);
        return args;
    }

    @Test
    void stackOverflowInARecursiveLoggerCall() throws Exception {
        ContainmentCheck.check(ContainmentMain.class, "stackoverflow", config(List.of()), dir);
    }

    @Test
    void interruptedWriter() throws Exception {
        ContainmentCheck.check(ContainmentMain.class, "interrupt", config(List.of()), dir);
    }

    @Test
    void sixteenMebibytesOfDirectMemory() throws Exception {
        for (List<String> jvm : ContainmentCheck.directMemoryVariants()) {
            ContainmentCheck.check(ContainmentMain.class, "direct", config(jvm), dir);
        }
    }
}
