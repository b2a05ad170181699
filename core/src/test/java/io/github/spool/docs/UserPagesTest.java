// SPDX-License-Identifier: Apache-2.0
package io.github.spool.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The user pages read as written for a user: no run dates or load averages outside
 * docs/benchmarks.md, docs/benchmarks-history.md and docs/reliability.md, where the evidence lives. Code blocks, inline code
 * and link targets are not prose (an example status line may carry a timestamp; an anchor may
 * name a dated section).
 */
class UserPagesTest {
    private static final Pattern EVIDENCE = Pattern.compile("\\b20\\d\\d-\\d\\d-\\d\\d\\b|load average|\\bload ~");

    @Test
    void noRunDatesOrLoadAveragesOutsideTheEvidencePages() throws IOException {
        Path root = MarkdownSnippets.repositoryRoot();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> !p.endsWith("benchmarks.md") && !p.endsWith("benchmarks-history.md") && !p.endsWith("reliability.md"))
                    .forEach(pages::add);
        }
        List<String> found = new ArrayList<>();
        for (Path page : pages) {
            String text = Files.readString(page, StandardCharsets.UTF_8)
                    .replaceAll("(?s)```.*?```", "")  // fenced code
                    .replaceAll("`[^`\n]*`", "")       // inline code
                    .replaceAll("\\]\\([^)]*\\)", "]"); // link targets
            String[] lines = text.split("\n");
            for (String line : lines) {
                Matcher m = EVIDENCE.matcher(line);
                if (m.find()) {
                    found.add(root.relativize(page) + ": " + line.strip());
                }
            }
        }
        assertEquals(List.of(), found, "run dates and load averages belong in docs/benchmarks.md, docs/benchmarks-history.md or docs/reliability.md");
    }
}
