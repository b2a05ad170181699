// SPDX-License-Identifier: Apache-2.0
package io.github.spool.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code render} setters' Javadoc, which IDEs show to users, says what {@code auto} does as
 * {@link io.github.spool.RenderMode#wantsWriter()} decides it (issue 32: it said "the caller" after
 * {@code auto} had come to mean the writer on 2+ processors).
 */
class RenderJavadocTest {

    private static final String[] APPENDERS = {
        "log4j2-plugin/src/main/java/io/github/spool/log4j2/SpoolAppender.java",
        "logback-appender/src/main/java/io/github/spool/logback/SpoolAppender.java"};

    /** The Javadoc comment right before a {@code setRender(String)} declaration. */
    private static final Pattern SET_RENDER = Pattern.compile("(/\\*\\*(?:(?!\\*/).)*\\*/)\\s*public \\w+ setRender\\(",
            Pattern.DOTALL);

    @Test
    void autoIsDescribedAsRenderModeDecidesIt() throws IOException {
        Path root = MarkdownSnippets.repositoryRoot();
        for (String file : APPENDERS) {
            String source = Files.readString(root.resolve(file), StandardCharsets.UTF_8);
            Matcher m = SET_RENDER.matcher(source);
            assertTrue(m.find(), "no setRender Javadoc in " + file);
            String doc = m.group(1).replaceAll("\\s*\\n\\s*\\*\\s*", " ");
            assertTrue(doc.contains("RenderMode#wantsWriter()"), file + ": " + doc);
            assertTrue(doc.contains("2 or more processors"), file + ": " + doc);
            assertFalse(doc.matches("(?s).*auto\\}? \\(the default: (the caller|on the calling thread).*"), file + ": " + doc);
        }
    }
}
