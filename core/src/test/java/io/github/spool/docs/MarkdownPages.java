// SPDX-License-Identifier: Apache-2.0
package io.github.spool.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What makes a page of the user documentation ({@code README.md} and {@code docs/*.md}) render
 * and navigate as written: its code fences pair up, and its relative links lead to a file that
 * exists and, for a Markdown file, to a heading that file has. One unclosed fence turns the rest
 * of a page inside out (prose shows as code, code as headings) without any tool complaining, and
 * a section that moves leaves its links dead; these checks let the build say so.
 *
 * <p>Anchors follow GitHub's rule: the heading's rendered text, lower-cased, with everything but
 * letters, digits, spaces, hyphens and underscores removed and spaces turned into hyphens; a
 * repeated heading gets {@code -1}, {@code -2}, ... An explicit {@code <a id="...">} or
 * {@code <a name="...">} is an anchor too.
 */
public final class MarkdownPages {
    /** An opening or closing fence: up to three spaces in list items excepted, backticks or tildes. */
    private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})(.*)$");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    /** An inline link or image target, up to an optional title. */
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(\\s.*)?$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final Pattern NOT_ANCHOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]");

    private MarkdownPages() {
    }

    /** @return {@code README.md} and every {@code docs/*.md}, in that order */
    public static List<Path> all() {
        Path root = MarkdownSnippets.repositoryRoot();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /**
     * @return one line per fence that does not pair: a block still open at the end of the page, or
     *         a fence with a language inside a block (the author meant it to open one, so the block
     *         above it was never closed)
     */
    public static List<String> unpairedFences(Path page) {
        List<String> lines = read(page);
        List<String> out = new ArrayList<>();
        int openedAt = -1;
        String opener = "";
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = FENCE.matcher(lines.get(i));
            if (!m.matches()) {
                continue;
            }
            String run = m.group(1);
            String info = m.group(2).strip();
            if (openedAt < 0) {
                openedAt = i;
                opener = run;
            } else if (run.charAt(0) == opener.charAt(0) && run.length() >= opener.length()) {
                if (info.isEmpty()) {
                    openedAt = -1;
                } else if (run.charAt(0) == '`' && !info.contains("`")) {
                    out.add(name(page) + ":" + (i + 1) + ": a fence with a language inside the block opened at line "
                            + (openedAt + 1) + " (that block is not closed)");
                }
            }
        }
        if (openedAt >= 0) {
            out.add(name(page) + ":" + (openedAt + 1) + ": a code block that is never closed");
        }
        return out;
    }

    /**
     * @return one line per relative link (inline, image or reference) outside code whose file does
     *         not exist, or whose {@code #anchor} names no heading of the Markdown file it points at
     */
    public static List<String> deadLinks(Path page) {
        List<String> out = new ArrayList<>();
        List<String> lines = prose(page);
        for (int i = 0; i < lines.size(); i++) {
            String line = CODE_SPAN.matcher(lines.get(i)).replaceAll("");
            List<String> targets = new ArrayList<>();
            Matcher m = LINK.matcher(line);
            while (m.find()) {
                targets.add(m.group(1));
            }
            Matcher r = REFERENCE.matcher(line);
            if (r.matches()) {
                targets.add(r.group(1));
            }
            for (String target : targets) {
                String problem = problem(page, target);
                if (problem != null) {
                    out.add(name(page) + ":" + (i + 1) + ": " + target + ": " + problem);
                }
            }
        }
        return out;
    }

    /** @return the anchors a page offers: one per heading outside code, and each explicit {@code <a id>} */
    public static Set<String> anchors(Path page) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(page)) {
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String slug = slug(h.group(2));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                out.add(n == 0 ? slug : slug + "-" + n);
            }
            Matcher a = HTML_ANCHOR.matcher(line);
            while (a.find()) {
                out.add(a.group(1));
            }
        }
        return out;
    }

    /** @return GitHub's anchor for a heading's Markdown text */
    static String slug(String heading) {
        StringBuilder text = new StringBuilder();
        Matcher code = CODE_SPAN.matcher(heading);
        int from = 0;
        while (code.find()) {
            text.append(outsideCode(heading.substring(from, code.start())));
            String span = code.group();
            text.append(span, code.group(1).length(), span.length() - code.group(1).length()); // code shows as written
            from = code.end();
        }
        text.append(outsideCode(heading.substring(from)));
        return NOT_ANCHOR.matcher(text.toString().strip().toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
    }

    private static String outsideCode(String markdown) {
        return markdown
                .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // a link shows its text
                .replaceAll("<[^>]+>", "")                           // inline HTML shows nothing
                .replace("*", "");                                    // emphasis marks
    }

    private static String problem(Path page, String target) {
        if (target.isEmpty() || target.matches("(?i)^[a-z][a-z0-9+.-]*:.*")) {
            return null; // absolute: https:, mailto:, ... not this check's business
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path to = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(to)) {
            return "no such file";
        }
        if (anchor == null || !to.getFileName().toString().endsWith(".md")) {
            return null;
        }
        Set<String> anchors = anchors(to);
        return anchors.contains(anchor) ? null : "no heading with this anchor in " + to.getFileName();
    }

    /** @return the page's lines with every fenced block's lines (fences included) blanked, so that line numbers stay */
    private static List<String> prose(Path page) {
        List<String> lines = new ArrayList<>(read(page));
        String opener = null;
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = FENCE.matcher(lines.get(i));
            boolean fence = m.matches();
            if (opener == null && fence) {
                opener = m.group(1);
                lines.set(i, "");
            } else if (opener != null) {
                if (fence && m.group(1).charAt(0) == opener.charAt(0) && m.group(1).length() >= opener.length()
                        && m.group(2).isBlank()) {
                    opener = null;
                }
                lines.set(i, "");
            }
        }
        return lines;
    }

    private static List<String> read(Path page) {
        try {
            return Files.readAllLines(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the page relative to the repository, or its file name for a page outside it (a test's) */
    private static String name(Path page) {
        Path root = MarkdownSnippets.repositoryRoot();
        return (page.startsWith(root) ? root.relativize(page) : page.getFileName()).toString();
    }
}
