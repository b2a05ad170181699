// SPDX-License-Identifier: Apache-2.0
package io.github.spool.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The first column of a documentation table, so that tests can hold a reference table and the code
 * it describes to each other (issue 16: a setting in the code but not in the table, or the reverse,
 * fails the build).
 */
public final class MarkdownTables {
    private static final Pattern FIRST_CODE = Pattern.compile("`([^`]+)`");

    private MarkdownTables() {
    }

    /**
     * @param file    a Markdown file, relative to the repository root
     * @param heading the exact heading line above the table (e.g. {@code "## Settings of SpoolAppender"})
     * @return the first cell of every body row of the first table after that heading: its first
     *         {@code `code`} span, or the whole cell when it has none
     */
    public static List<String> firstColumn(String file, String heading) {
        List<String> lines;
        try {
            lines = Files.readAllLines(MarkdownSnippets.repositoryRoot().resolve(Path.of(file)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int i = lines.indexOf(heading);
        if (i < 0) {
            throw new IllegalArgumentException("no heading '" + heading + "' in " + file);
        }
        while (i < lines.size() && !lines.get(i).startsWith("|")) {
            i++;
        }
        List<String> out = new ArrayList<>();
        for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) { // past the header and |---|
            String cell = lines.get(i).substring(1, lines.get(i).indexOf('|', 1)).strip();
            Matcher m = FIRST_CODE.matcher(cell);
            out.add(m.find() ? m.group(1) : cell);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no table under '" + heading + "' in " + file);
        }
        return out;
    }
}
