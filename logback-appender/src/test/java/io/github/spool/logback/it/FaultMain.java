package io.github.spool.logback.it;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.github.spool.soak.FaultRun;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link FaultRun} through SLF4J into logback's {@code SpoolAppender} named {@code out}: the
 * program {@link FaultInjectionTest} runs in a forked JVM. After the stop it prints one
 * {@code spool-status <LEVEL> <message>} line per status the appender left in logback's
 * {@code StatusManager}.
 */
public final class FaultMain {

    private FaultMain() {
    }

    /**
     * @param args see {@link FaultRun}
     * @throws Exception if the run fails
     */
    public static void main(String[] args) throws Exception {
        FaultRun.run(args, () -> {
            Logger logger = LoggerFactory.getLogger("it.Fault");
            return new FaultRun.Framework() {
                @Override
                public void info(int seq) {
                    logger.info("seq={} {}", seq, FaultRun.PAYLOAD);
                }

                @Override
                public void stop() {
                    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
                    List<Status> before = context.getStatusManager().getCopyOfStatusList();
                    context.stop();
                    printStatuses(context, before);
                }
            };
        });
    }

    /**
     * Prints the appender's statuses: {@code before} (taken before the stop) and whatever the status
     * manager holds now, each status once (the stop's reset may clear the list).
     */
    private static void printStatuses(LoggerContext context, List<Status> before) {
        Set<Status> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Status> ordered = new ArrayList<>();
        for (List<Status> list : List.of(before, context.getStatusManager().getCopyOfStatusList())) {
            for (Status s : list) {
                if (seen.add(s)) {
                    ordered.add(s);
                }
            }
        }
        StringBuilder out = new StringBuilder();
        for (Status s : ordered) {
            String m = s.getMessage();
            if (m.startsWith("spool appender") || m.startsWith("SpoolAppender [")) {
                String level = s.getLevel() == Status.ERROR ? "ERROR" : s.getLevel() == Status.WARN ? "WARN" : "INFO";
                out.append("spool-status ").append(level).append(' ').append(m.replace('\n', ' ')).append('\n');
            }
        }
        System.err.print(out);
    }
}
