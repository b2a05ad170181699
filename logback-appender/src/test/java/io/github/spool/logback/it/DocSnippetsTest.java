package io.github.spool.logback.it;

import io.github.spool.docs.MarkdownSnippets;
import io.github.spool.docs.SnippetRun;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every logback snippet of the documentation (issue 16) runs: a whole {@code <configuration>} as
 * written, an {@code <appender>} inside the smallest configuration that routes the root logger to
 * it, an {@code <encoder>} inside a console {@code SpoolAppender}. Plain snippets load without an
 * ERROR status and a line logged at INFO arrives at the target of every Spool appender and every
 * logback {@code ConsoleAppender} (the "before" side of docs/migration.md). Snippets for
 * Spring Boot (they name Spring's resources, or carry {@code <!-- doc-test: spring-boot ARGS -->}
 * before their fence) run as a Spring Boot application's {@code logging.config}, with ARGS as its
 * arguments, and its first line must reach standard output.
 */
class DocSnippetsTest {
    @TempDir
    Path dir;

    @TestFactory
    Stream<DynamicTest> everyLogbackSnippetLoadsAndItsLinesArriveWhereItSays() {
        List<MarkdownSnippets.Snippet> snippets = MarkdownSnippets.of(MarkdownSnippets.Kind.LOGBACK);
        assertFalse(snippets.isEmpty(), "the docs show logback configuration");
        return snippets.stream().map(s -> DynamicTest.dynamicTest(s.toString(), () -> run(s)));
    }

    private void run(MarkdownSnippets.Snippet s) throws Exception {
        boolean spring = s.directive().startsWith("spring-boot") || s.text().toLowerCase(Locale.ROOT).contains("spring");
        String config = wrap(s, spring);
        Path work = Files.createDirectories(dir.resolve(s.file().getFileName() + "-" + s.line()));
        Path file = work.resolve(spring ? "logback-spring.xml" : "logback-doc.xml");
        Files.writeString(file, config, StandardCharsets.UTF_8);
        String what = s + "\n" + config;
        if (spring) {
            List<String> args = new ArrayList<>(List.of("1", "--logging.config=file:" + file));
            String extra = s.directive().replaceFirst("^spring-boot", "").strip();
            if (!extra.isEmpty()) {
                args.addAll(Arrays.asList(extra.split("\\s+")));
            }
            SnippetRun run = SnippetRun.fork(SpringMain.class, work, List.of(), args, what);
            run.assertArrived("stdout", "seq=0 ");
            return;
        }
        String marker = "doc-snippet " + s.file() + ":" + s.line();
        SnippetRun run = SnippetRun.fork(DocSnippetMain.class, work, List.of(), List.of(file.toString(), marker), what);
        List<String> targets = targets(config);
        assertFalse(targets.isEmpty(), () -> "no SpoolAppender, ConsoleAppender or RollingFileAppender in " + what);
        for (String target : targets) {
            run.assertArrived(target, marker);
        }
    }

    /** The snippet as a whole configuration. */
    static String wrap(MarkdownSnippets.Snippet s, boolean spring) throws Exception {
        String text = s.text();
        switch (s.root()) {
            case "configuration":
                return text;
            case "encoder":
                return wrapAppender("<appender name=\"DOC\" class=\"io.github.spool.logback.SpoolAppender\">\n" + text + "</appender>\n",
                        "DOC", spring);
            case "appender":
                return wrapAppender(text, parse(text).getAttribute("name"), spring);
            default:
                throw new IllegalArgumentException("not a logback snippet: " + s);
        }
    }

    private static String wrapAppender(String appender, String name, boolean spring) {
        return "<configuration>\n"
                + (spring ? "<include resource=\"org/springframework/boot/logging/logback/defaults.xml\"/>\n" : "")
                + appender + "<root level=\"INFO\"><appender-ref ref=\"" + name + "\"/></root>\n</configuration>\n";
    }

    /**
     * Where each {@code SpoolAppender}, {@code ConsoleAppender} or {@code RollingFileAppender} writes:
     * its {@code <file>}, else its {@code <target>}.
     */
    static List<String> targets(String config) throws Exception {
        List<String> out = new ArrayList<>();
        NodeList appenders = parse(config).getElementsByTagName("appender");
        for (int i = 0; i < appenders.getLength(); i++) {
            Element e = (Element) appenders.item(i);
            String type = e.getAttribute("class");
            if (!type.equals("io.github.spool.logback.SpoolAppender") && !type.equals("ch.qos.logback.core.ConsoleAppender")
                    && !type.equals("ch.qos.logback.core.rolling.RollingFileAppender")) {
                continue;
            }
            String file = childText(e, "file");
            if (file != null) {
                out.add(file);
            } else {
                out.add("System.err".equals(childText(e, "target")) ? "stderr" : "stdout");
            }
        }
        return out;
    }

    private static String childText(Element e, String name) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && ((Element) n).getTagName().equals(name)) {
                return n.getTextContent().strip();
            }
        }
        return null;
    }

    private static Element parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
    }
}
