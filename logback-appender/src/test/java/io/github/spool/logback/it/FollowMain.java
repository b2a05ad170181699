// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback.it;

import ch.qos.logback.classic.LoggerContext;
import io.github.spool.dropin.FollowChild;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link FollowChild} through SLF4J and logback (configuration from {@code -Dlogback.configurationFile}). */
public final class FollowMain {
    private FollowMain() {
    }

    /**
     * @param args none, or {@code bridged} (FollowChild.runBridged)
     * @throws Exception if the bridged run fails
     */
    public static void main(String[] args) throws Exception {
        FollowChild.replaceStdout(); // before logback starts, as a test runner does
        Logger logger = LoggerFactory.getLogger("it.Follow");
        if (args.length > 0 && args[0].equals("bridged")) {
            FollowChild.runBridged(logger::info, () -> ((LoggerContext) LoggerFactory.getILoggerFactory()).stop());
            return;
        }
        FollowChild.run(logger::info, () -> ((LoggerContext) LoggerFactory.getILoggerFactory()).stop());
    }
}
