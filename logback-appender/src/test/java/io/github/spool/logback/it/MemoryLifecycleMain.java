package io.github.spool.logback.it;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import io.github.spool.soak.MemoryLifecycleChild;
import java.io.File;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link MemoryLifecycleChild} through SLF4J and logback, reconfigured as a reload does (reset, then Joran). */
public final class MemoryLifecycleMain {
    private MemoryLifecycleMain() {
    }

    /**
     * @param args the mode
     * @throws Exception if the child fails
     */
    public static void main(String[] args) throws Exception {
        MemoryLifecycleChild.baseline();
        Logger logger = LoggerFactory.getLogger("it.MemoryLifecycle");
        LoggerContext lc = (LoggerContext) LoggerFactory.getILoggerFactory();
        File file = new File(System.getProperty("logback.configurationFile"));
        MemoryLifecycleChild.run(args[0], logger::info, () -> {
            JoranConfigurator jc = new JoranConfigurator();
            jc.setContext(lc);
            lc.reset();
            jc.doConfigure(file);
        }, lc::stop);
    }
}
