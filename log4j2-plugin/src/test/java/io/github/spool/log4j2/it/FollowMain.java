// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2.it;

import io.github.spool.dropin.FollowChild;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** {@link FollowChild} through log4j2 (configuration from {@code -Dlog4j2.configurationFile}). */
public final class FollowMain {
    private FollowMain() {
    }

    /**
     * @param args none, or {@code bridged} (FollowChild.runBridged)
     * @throws Exception if the bridged run fails
     */
    public static void main(String[] args) throws Exception {
        FollowChild.replaceStdout(); // before log4j2 starts, as a test runner does
        Logger logger = LogManager.getLogger("it.Follow");
        if (args.length > 0 && args[0].equals("bridged")) {
            FollowChild.runBridged(logger::info, LogManager::shutdown);
            return;
        }
        FollowChild.run(logger::info, LogManager::shutdown);
    }
}
