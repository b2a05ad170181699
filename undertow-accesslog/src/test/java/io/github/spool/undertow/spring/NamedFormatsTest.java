// SPDX-License-Identifier: Apache-2.0
package io.github.spool.undertow.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.undertow.server.handlers.accesslog.AccessLogHandler;
import java.lang.reflect.Method;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Undertow's named formats under Spool's receiver: Undertow's own expansion with
 * {@code %{spoolTime}} in place of {@code %t} and nothing else changed (the attribute itself is
 * byte-identical to {@code %t}: {@code SpoolTimeAttributeDifferentialTest}); other patterns as
 * written.
 */
class NamedFormatsTest {

    @ParameterizedTest
    @ValueSource(strings = {"common", "combined", "commonobf", "combinedobf", "%h %t %r", "%{spoolTime} %r"})
    void namedFormatsAreUndertowsWithTheCachedTime(String pattern) throws Exception {
        Method undertow = AccessLogHandler.class.getDeclaredMethod("handleCommonNames", String.class);
        undertow.setAccessible(true);
        String expected = (String) undertow.invoke(null, pattern);
        String ours = SpoolAccessLogCustomizer.withSpoolTime(pattern);
        if (expected.equals(pattern)) {
            assertEquals(pattern, ours, "a pattern of the user's is kept as written");
        } else {
            assertEquals(expected, ours.replace("%{spoolTime}", "%t"));
            assertEquals(1, ours.split("%\\{spoolTime}", -1).length - 1);
        }
    }
}
