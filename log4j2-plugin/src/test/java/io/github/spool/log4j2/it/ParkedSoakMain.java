// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2.it;

import io.github.spool.soak.AdapterSoak;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** {@link AdapterSoak} through log4j2. */
public final class ParkedSoakMain {
    private ParkedSoakMain() {
    }

    /**
     * @param args see {@link AdapterSoak#run}
     * @throws Exception if the soak fails
     */
    public static void main(String[] args) throws Exception {
        AdapterSoak.run(args, () -> {
            Logger logger = LogManager.getLogger("it.ParkedSoak");
            return logger::info;
        }, LogManager::shutdown);
    }
}
