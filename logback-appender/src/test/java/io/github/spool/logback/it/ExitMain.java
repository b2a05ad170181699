// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback.it;

import io.github.spool.lifecycle.ExitChild;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link ExitChild} through SLF4J and logback (configuration from {@code -Dlogback.configurationFile}). */
public final class ExitMain {
    private ExitMain() {
    }

    /** @param args the mode */
    public static void main(String[] args) {
        ExitChild.run(args[0], () -> {
            Logger logger = LoggerFactory.getLogger("it.Exit");
            return logger::info;
        });
    }
}
