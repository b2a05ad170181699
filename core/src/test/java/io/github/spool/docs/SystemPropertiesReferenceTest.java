// SPDX-License-Identifier: Apache-2.0
package io.github.spool.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * docs/configuration.md's system-property table names exactly the {@code spool.*} properties the
 * shipped code reads (issue 16). The code's are found as string literals {@code "spool.<name>"}
 * in every module's {@code src/main/java}, which is how each is written (a constant or an inline
 * literal beside {@code Long.getLong}/{@code Boolean.getBoolean}).
 */
class SystemPropertiesReferenceTest {
    private static final Pattern LITERAL = Pattern.compile("\"(spool\\.[A-Za-z]+)\"");

    @Test
    void theTableNamesExactlyThePropertiesTheCodeReads() throws IOException {
        Path root = MarkdownSnippets.repositoryRoot();
        TreeSet<String> inCode = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String p = root.relativize(f).toString().replace('\\', '/');
                if (p.endsWith(".java") && p.contains("/src/main/java/") && !p.startsWith("jmh-benchmarks/")) {
                    Matcher m = LITERAL.matcher(Files.readString(f, StandardCharsets.UTF_8));
                    while (m.find()) {
                        inCode.add(m.group(1));
                    }
                }
            }
        }
        assertFalse(inCode.isEmpty(), "found the code's properties");
        assertEquals(inCode, new TreeSet<>(MarkdownTables.firstColumn("docs/configuration.md", "## System properties")));
    }
}
