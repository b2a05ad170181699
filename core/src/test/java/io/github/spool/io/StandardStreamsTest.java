// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How Spool tells the JVM's own {@code System.out} from a replacement: checked in a fresh JVM
 * (this one's {@code System.out} is Surefire's), on the JDK running the build, with and without
 * {@code java.io} opened to look inside a plain {@code PrintStream}.
 */
class StandardStreamsTest {

    /** The child: prints what {@link StandardStreams} says about the streams it has. */
    public static final class Probe {
        /**
         * @param args none
         */
        public static void main(String[] args) {
            PrintStream plain = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
            System.out.println("probe out=" + StandardStreams.isOriginal(System.out, FileDescriptor.out)
                    + " err=" + StandardStreams.isOriginal(System.err, FileDescriptor.err)
                    + " plain=" + StandardStreams.isOriginal(plain, FileDescriptor.out)
                    + " swapped=" + StandardStreams.isOriginal(System.out, FileDescriptor.err));
        }
    }

    private static String probe(String... jvmArgs) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(List.of(jvmArgs));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe hung");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void theJvmsOwnStreamsAreOriginalAndAPlainPrintStreamCannotBeToldApartWithoutOpeningJavaIo() throws Exception {
        assertEquals("probe out=true err=true plain=true swapped=true", probe());
    }

    @Test
    void withJavaIoOpenedAPlainReplacementIsSeen() throws Exception {
        assertEquals("probe out=true err=true plain=false swapped=false",
                probe("--add-opens", "java.base/java.io=ALL-UNNAMED"));
    }

    @Test
    void aSubclassOrNullIsNeverOriginal() {
        PrintStream subclass = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8) {
        };
        assertFalse(StandardStreams.isOriginal(subclass, FileDescriptor.out));
        assertFalse(StandardStreams.isOriginal(null, FileDescriptor.out));
    }
}
