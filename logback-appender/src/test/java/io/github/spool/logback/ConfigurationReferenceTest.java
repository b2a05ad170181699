// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.joran.util.beans.BeanDescription;
import ch.qos.logback.core.joran.util.beans.BeanDescriptionCache;
import io.github.spool.docs.MarkdownTables;
import org.junit.jupiter.api.Test;

import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reference tables of docs/logback.md name exactly the properties Joran can set on
 * {@code SpoolAppender} and {@code SpoolEncoder} (issue 16): a setter added without its row, or a
 * row left for a setter that is gone, fails here. The properties are what Joran itself sees
 * (logback's {@code BeanDescriptionCache}: setters and adders, inherited ones included), less
 * what every logback component inherits from {@code ContextAwareBase} and no configuration names
 * ({@code context}, and the status adders {@code error}, {@code warn}, {@code info}, {@code status}).
 */
class ConfigurationReferenceTest {

    static TreeSet<String> joranProperties(Class<?> type) {
        BeanDescription d = new BeanDescriptionCache(new LoggerContext()).getBeanDescription(type);
        TreeSet<String> out = new TreeSet<>(d.getPropertyNameToSetter().keySet());
        out.addAll(d.getPropertyNameToAdder().keySet());
        // ContextAwareBase's setContext and addError/addWarn/addInfo/addStatus: every logback
        // component has them, and no configuration names them.
        out.removeAll(java.util.List.of("context", "error", "warn", "info", "status"));
        return out;
    }

    @Test
    void spoolAppenderTableMatchesWhatJoranCanSet() {
        assertEquals(joranProperties(SpoolAppender.class),
                new TreeSet<>(MarkdownTables.firstColumn("docs/logback.md", "## Settings of SpoolAppender")));
    }

    @Test
    void spoolEncoderTableMatchesWhatJoranCanSet() {
        assertEquals(joranProperties(SpoolEncoder.class),
                new TreeSet<>(MarkdownTables.firstColumn("docs/logback.md", "### Settings of SpoolEncoder")));
    }

    @Test
    void spoolJsonEncoderTableMatchesWhatJoranCanSet() {
        assertEquals(joranProperties(SpoolJsonEncoder.class),
                new TreeSet<>(MarkdownTables.firstColumn("docs/logback.md", "### Settings of SpoolJsonEncoder")));
    }
}
