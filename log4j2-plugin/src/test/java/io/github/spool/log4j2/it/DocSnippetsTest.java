package io.github.spool.log4j2.it;

import io.github.spool.docs.MarkdownSnippets;
import io.github.spool.docs.SnippetRun;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every log4j2 snippet of the documentation (issue 16) runs: a whole {@code <Configuration>} as
 * written, a {@code <Spool>} element inside the smallest configuration that routes the root
 * logger to it, a {@code <SpoolLayout>} inside a console {@code <Spool>}. Each loads without an
 * ERROR status, and a line logged at INFO arrives at the target of every {@code <Spool>} and every
 * {@code <Console>} appender (the "before" side of docs/migration.md).
 */
class DocSnippetsTest {
    @TempDir
    Path dir;

    @TestFactory
    Stream<DynamicTest> everyLog4j2SnippetLoadsAndItsLinesArriveWhereItSays() {
        List<MarkdownSnippets.Snippet> snippets = MarkdownSnippets.of(MarkdownSnippets.Kind.LOG4J2);
        assertFalse(snippets.isEmpty(), "the docs show log4j2 configuration");
        return snippets.stream().map(s -> DynamicTest.dynamicTest(s.toString(), () -> run(s)));
    }

    private void run(MarkdownSnippets.Snippet s) throws Exception {
        String config = wrap(s);
        Path work = Files.createDirectories(dir.resolve(s.file().getFileName() + "-" + s.line()));
        Path file = work.resolve("log4j2-doc.xml");
        Files.writeString(file, config, StandardCharsets.UTF_8);
        String marker = "doc-snippet " + s.file() + ":" + s.line();
        SnippetRun run = SnippetRun.fork(DocSnippetMain.class, work, List.of(), List.of(file.toString(), marker), s + "\n" + config);
        for (String target : targets(config)) {
            run.assertArrived(target, marker);
        }
    }

    /** The snippet as a whole configuration. */
    static String wrap(MarkdownSnippets.Snippet s) throws Exception {
        String text = s.text();
        switch (s.root()) {
            case "Configuration":
                return text;
            case "SpoolLayout":
                return wrapAppender("<Spool name=\"doc\" target=\"SYSTEM_OUT\">\n" + text + "</Spool>\n", "doc");
            case "Spool":
            case "RollingRandomAccessFile":
            case "RollingFile":
                return wrapAppender(text, parse(text).getAttribute("name"));
            default:
                throw new IllegalArgumentException("not a log4j2 snippet: " + s);
        }
    }

    private static String wrapAppender(String appender, String name) {
        return "<Configuration status=\"warn\">\n<Appenders>\n" + appender + "</Appenders>\n"
                + "<Loggers><Root level=\"info\"><AppenderRef ref=\"" + name + "\"/></Root></Loggers>\n</Configuration>\n";
    }

    /**
     * Where each {@code <Spool>}, {@code <Console>} or rolling appender writes: its {@code fileName},
     * else its {@code target}.
     */
    static List<String> targets(String config) throws Exception {
        List<String> out = new ArrayList<>();
        Element root = parse(config);
        List<Element> appenders = new ArrayList<>();
        for (String tag : new String[] {"Spool", "Console", "RollingRandomAccessFile", "RollingFile"}) {
            NodeList found = root.getElementsByTagName(tag);
            for (int i = 0; i < found.getLength(); i++) {
                appenders.add((Element) found.item(i));
            }
        }
        assertFalse(appenders.isEmpty(), () -> "no <Spool> or <Console> appender in\n" + config);
        for (Element e : appenders) {
            if (!e.getAttribute("fileName").isEmpty()) {
                out.add(e.getAttribute("fileName"));
            } else {
                out.add("SYSTEM_ERR".equalsIgnoreCase(e.getAttribute("target")) ? "stderr" : "stdout");
            }
        }
        return out;
    }

    private static Element parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
    }
}
