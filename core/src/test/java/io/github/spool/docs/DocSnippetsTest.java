// SPDX-License-Identifier: Apache-2.0
package io.github.spool.docs;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The documentation's snippets that need no logging framework: every {@code xml} block is one a
 * test runs (the adapters' {@code DocSnippetsTest} run the log4j2 and logback ones), and every
 * Maven dependency names an artifact this build makes, at this build's version; and every page
 * renders and links as written: its code fences pair up, its relative links and anchors lead
 * somewhere ({@link MarkdownPages}).
 */
class DocSnippetsTest {

    @Test
    void everyCodeFenceOfTheUserPagesPairsUp() {
        List<String> unpaired = new ArrayList<>();
        for (Path page : MarkdownPages.all()) {
            unpaired.addAll(MarkdownPages.unpairedFences(page));
        }
        assertEquals(List.of(), unpaired, "code fences that do not pair (the rest of the page renders inside out)");
    }

    @Test
    void everyRelativeLinkOfTheUserPagesLeadsToAFileAndHeadingThatExist() {
        List<String> dead = new ArrayList<>();
        for (Path page : MarkdownPages.all()) {
            dead.addAll(MarkdownPages.deadLinks(page));
        }
        assertEquals(List.of(), dead, "dead relative links or anchors (GitHub's anchors: lower case, punctuation removed, spaces to hyphens)");
    }

    @Test
    void everyXmlBlockIsOneATestRuns() {
        List<MarkdownSnippets.Snippet> all = MarkdownSnippets.all();
        assertFalse(all.isEmpty(), "the docs have snippets");
        List<String> unknown = new ArrayList<>();
        for (MarkdownSnippets.Snippet s : all) {
            if (s.kind() == MarkdownSnippets.Kind.UNKNOWN) {
                unknown.add(s.toString());
            }
        }
        assertEquals(List.of(), unknown, "xml blocks no test knows how to run (a dependency, or a log4j2 or logback configuration)");
    }

    @TestFactory
    Stream<DynamicTest> everyDependencyNamesAnArtifactOfThisBuildAtItsVersion() throws Exception {
        Path root = MarkdownSnippets.repositoryRoot();
        Element project = parse(Files.readAllBytes(root.resolve("pom.xml")));
        String version = child(project, "version");
        String groupId = child(project, "groupId");
        Set<String> artifacts = new HashSet<>();
        try (Stream<Path> poms = Files.list(root)) {
            for (Path dir : (Iterable<Path>) poms::iterator) {
                Path pom = dir.resolve("pom.xml");
                if (Files.isRegularFile(pom)) {
                    artifacts.add(child(parse(Files.readAllBytes(pom)), "artifactId"));
                }
            }
        }
        return MarkdownSnippets.of(MarkdownSnippets.Kind.DEPENDENCY).stream().map(s -> DynamicTest.dynamicTest(s.toString(), () -> {
            Element d = parse(s.text().getBytes(StandardCharsets.UTF_8));
            assertEquals(groupId, child(d, "groupId"), "groupId");
            String artifactId = child(d, "artifactId");
            assertTrue(artifacts.contains(artifactId), () -> artifactId + " is not one of " + artifacts);
            assertEquals(version, child(d, "version"), "the version this build makes");
        }));
    }

    private static Element parse(byte[] xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document d = f.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
        return d.getDocumentElement();
    }

    /** @return the text of {@code e}'s direct child {@code name} (not a nested one, like parent/version) */
    private static String child(Element e, String name) throws IOException {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && ((Element) n).getTagName().equals(name)) {
                return n.getTextContent().strip();
            }
        }
        throw new IOException("no <" + name + "> in <" + e.getTagName() + ">");
    }
}
