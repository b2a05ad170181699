// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import io.github.spool.SpoolConfig;
import io.github.spool.dropin.Configured;
import io.github.spool.dropin.SettingsContract;
import java.util.Map;

/** The settings contract through logback XML (Joran) and logback's status manager. */
class SettingsTest extends SettingsContract {

    @Override
    protected Configured configure(Map<String, String> settings) throws Exception {
        return LogbackConfigured.start(settings);
    }

    @Override
    protected String fileSetting() {
        return "file";
    }

    @Override
    protected String targetValue(SpoolConfig.Target target) {
        return target == SpoolConfig.Target.STDOUT ? "System.out" : "System.err";
    }
}
