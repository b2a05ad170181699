// SPDX-License-Identifier: Apache-2.0
package io.github.spool.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The page checks themselves: a check that never fails would let every broken page through. */
class MarkdownPagesTest {
    @TempDir
    Path dir;

    @Test
    void anchorsFollowGitHubsRule() {
        assertEquals("moved-from-time-and-textmd-clock-and-timestamp-measurements",
                MarkdownPages.slug("Moved from time-and-text.md: clock and timestamp measurements"));
        assertEquals("2026-11-23-10m-event-console-run-the-appenders-own-share",
                MarkdownPages.slug("2026-11-23: 10M-event console run, the appender's own share"));
        assertEquals("settings-of-spoolappender", MarkdownPages.slug("Settings of `SpoolAppender`"));
        assertEquals("spool-appender-settings", MarkdownPages.slug("`<Spool>` appender settings"));
        assertEquals("the-clock--dlog4jclock", MarkdownPages.slug("The clock: `-Dlog4j.Clock`"));
        assertEquals("see-the-guide", MarkdownPages.slug("See [the guide](guide.md)"));
    }

    @Test
    void aRepeatedHeadingGetsANumberedAnchor() throws IOException {
        Path page = write("a.md", "# Results\n\n## Run\n\n## Run\n\n```\n## Not a heading\n```\n");
        assertEquals(Set.of("results", "run", "run-1"), MarkdownPages.anchors(page));
    }

    @Test
    void aBlockLeftOpenIsFoundWhereItOpens() throws IOException {
        Path page = write("b.md", "text\n\n```\ncode\n```\n\n```\nnever closed\n");
        assertEquals(List.of("b.md:7: a code block that is never closed"), MarkdownPages.unpairedFences(page));
    }

    @Test
    void aFenceWithALanguageInsideABlockMeansTheBlockAboveIsNotClosed() throws IOException {
        Path page = write("c.md", "```\nfirst\n\n```xml\n<a/>\n```\n");
        assertEquals(List.of("c.md:4: a fence with a language inside the block opened at line 1 (that block is not closed)"),
                MarkdownPages.unpairedFences(page));
    }

    @Test
    void deadFilesAndAnchorsAreFoundButCodeAndAbsoluteLinksAreNot() throws IOException {
        write("other.md", "# Other page\n");
        Path page = write("d.md", "# Here\n[ok](other.md#other-page) [self](#here) [web](https://example.com/x#y)\n"
                + "[gone](missing.md) [anchor](other.md#nope) `[code](nowhere.md)`\n```\n[in code](nowhere.md)\n```\n"
                + "[ref]: other.md#nor-this\n");
        assertEquals(List.of("d.md:3: missing.md: no such file", "d.md:3: other.md#nope: no heading with this anchor in other.md",
                "d.md:7: other.md#nor-this: no heading with this anchor in other.md"), MarkdownPages.deadLinks(page));
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }
}
