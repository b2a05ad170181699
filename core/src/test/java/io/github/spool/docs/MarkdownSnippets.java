// SPDX-License-Identifier: Apache-2.0
package io.github.spool.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The configuration snippets of the user documentation ({@code README.md} and {@code docs/*.md}):
 * every fenced {@code xml} block, with where it is and what it configures, so that tests can run
 * each one and a page that stops working fails the build (issue 16).
 *
 * <p>A block may be preceded (on the line just before its fence) by a directive comment,
 * {@code <!-- doc-test: ... -->}, that tells the adapter's test how to run it, e.g. the Spring Boot
 * arguments a {@code logback-spring.xml} needs; see the adapters' {@code DocSnippetsTest}.
 */
public final class MarkdownSnippets {
    private static final Pattern DIRECTIVE = Pattern.compile("<!--\\s*doc-test:(.*?)-->");
    private static final Pattern ROOT = Pattern.compile("<([A-Za-z][\\w.-]*)");

    /** What a snippet configures, by its root element. */
    public enum Kind {
        /** a Maven {@code <dependency>} */
        DEPENDENCY,
        /** a log4j2 configuration or a piece of one ({@code Configuration}, {@code Spool}, {@code SpoolLayout},
         *  a rolling appender Spool replaces) */
        LOG4J2,
        /** a logback configuration or a piece of one ({@code configuration}, {@code appender}, {@code encoder}) */
        LOGBACK,
        /** nothing a test knows how to run: a documentation error */
        UNKNOWN
    }

    /**
     * One fenced block.
     *
     * @param file      the Markdown file, relative to the repository root
     * @param line      the line of the opening fence (1-based)
     * @param text      the block's content
     * @param directive the directive comment's text, or {@code ""}
     */
    public record Snippet(Path file, int line, String text, String directive) {
        /** @return the root element's name (after an XML declaration and comments) */
        public String root() {
            String t = text.replaceAll("(?s)<\\?.*?\\?>", "").replaceAll("(?s)<!--.*?-->", "");
            Matcher m = ROOT.matcher(t);
            return m.find() ? m.group(1) : "";
        }

        /** @return what it configures */
        public Kind kind() {
            switch (root()) {
                case "dependency":
                    return Kind.DEPENDENCY;
                case "Configuration":
                case "Spool":
                case "SpoolLayout":
                case "RollingRandomAccessFile":
                case "RollingFile":
                    return Kind.LOG4J2;
                case "configuration":
                case "appender":
                case "encoder":
                    return Kind.LOGBACK;
                default:
                    return Kind.UNKNOWN;
            }
        }

        @Override
        public String toString() {
            return file + ":" + line + " <" + root() + ">";
        }
    }

    private MarkdownSnippets() {
    }

    /** @return the repository root: the nearest directory up from the working directory holding {@code README.md} and {@code docs} */
    public static Path repositoryRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !(Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs")))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("no README.md and docs/ above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    /** @return every {@code xml} block of {@code README.md} and {@code docs/*.md}, in file order */
    public static List<Snippet> all() {
        Path root = repositoryRoot();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Snippet> out = new ArrayList<>();
        for (Path f : files) {
            out.addAll(in(root, f));
        }
        return out;
    }

    /** @return the given kind's snippets */
    public static List<Snippet> of(Kind kind) {
        List<Snippet> out = new ArrayList<>();
        for (Snippet s : all()) {
            if (s.kind() == kind) {
                out.add(s);
            }
        }
        return out;
    }

    static List<Snippet> in(Path root, Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Snippet> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String fence = lines.get(i).strip();
            if (!fence.startsWith("```")) {
                continue;
            }
            String lang = fence.substring(3).strip().toLowerCase(Locale.ROOT);
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                end++;
            }
            if (lang.equals("xml")) {
                String directive = "";
                if (i > 0) {
                    Matcher m = DIRECTIVE.matcher(lines.get(i - 1));
                    if (m.find()) {
                        directive = m.group(1).strip();
                    }
                }
                out.add(new Snippet(root.relativize(file), i + 1, String.join("\n", lines.subList(i + 1, end)) + "\n", directive));
            }
            i = end; // past the closing fence: never read a block's inside as a fence
        }
        return out;
    }
}
