// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2;

import io.github.spool.docs.MarkdownTables;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginElement;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reference tables of docs/log4j2.md name exactly the attributes and nested elements the
 * plugins' builders take (issue 16): a setting added to the code without its row, or a row left
 * for a setting that is gone, fails here. Attributes are read from the builders'
 * {@code @PluginBuilderAttribute} fields, elements ({@code <Layout>}, ...) from their
 * {@code @PluginElement} fields, inherited ones included, as log4j2's plugin builder reads them.
 */
class ConfigurationReferenceTest {

    static TreeSet<String> builderSettings(Class<?> builder) {
        TreeSet<String> out = new TreeSet<>();
        for (Class<?> c = builder; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                PluginBuilderAttribute a = f.getAnnotation(PluginBuilderAttribute.class);
                if (a != null) {
                    out.add(a.value().isEmpty() ? f.getName() : a.value());
                }
                PluginElement e = f.getAnnotation(PluginElement.class);
                if (e != null) {
                    out.add("<" + e.value() + ">");
                }
            }
        }
        return out;
    }

    @Test
    void spoolAppenderTableMatchesTheBuilder() {
        assertEquals(builderSettings(SpoolAppender.Builder.class),
                new TreeSet<>(MarkdownTables.firstColumn("docs/log4j2.md", "## `<Spool>` appender settings")));
    }

    @Test
    void spoolLayoutTableMatchesTheBuilder() {
        assertEquals(builderSettings(SpoolLayout.Builder.class),
                new TreeSet<>(MarkdownTables.firstColumn("docs/log4j2.md", "### `<SpoolLayout>` attributes")));
    }
}
