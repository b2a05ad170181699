package io.github.spool.logback.it;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import org.slf4j.LoggerFactory;

/**
 * The child of {@link DocSnippetsTest} for plain logback: configures the default context from a
 * documentation snippet, logs one line at INFO and stops the context. Exits 3 if logback reported
 * an ERROR status while doing so.
 */
public final class DocSnippetMain {
    private DocSnippetMain() {
    }

    /**
     * @param args the configuration file, then the line to log
     * @throws Exception if the configuration cannot be read
     */
    public static void main(String[] args) throws Exception {
        LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
        ctx.reset();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(ctx);
        configurator.doConfigure(args[0]);
        LoggerFactory.getLogger("doc.snippet").info(args[1]);
        ctx.stop();
        if (new StatusUtil(ctx).getHighestLevel(0) >= Status.ERROR) {
            System.err.println("status errors: " + ctx.getStatusManager().getCopyOfStatusList());
            System.exit(3);
        }
    }
}
