// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import io.github.spool.io.Sink;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipInputStream;

/** Test helpers: write batches as the writer does, and read back every file of a directory. */
final class RollingFiles {

    private RollingFiles() {
    }

    /** Writes the lines as one batch, one buffer per line, until the sink took all of it. */
    static void write(Sink sink, String... lines) throws IOException {
        ByteBuffer[] b = new ByteBuffer[lines.length];
        for (int i = 0; i < lines.length; i++) {
            b[i] = ByteBuffer.wrap((lines[i] + "\n").getBytes(StandardCharsets.UTF_8));
        }
        int first = 0;
        while (first < b.length) {
            sink.write(b, first, b.length - first);
            while (first < b.length && !b[first].hasRemaining()) {
                first++;
            }
        }
    }

    /** @return file name (relative to dir) to its lines, gunzipped/unzipped by suffix */
    static TreeMap<String, List<String>> read(Path dir) throws IOException {
        TreeMap<String, List<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.put(dir.relativize(f).toString(), lines(f));
            }
        }
        return out;
    }

    static List<String> lines(Path f) throws IOException {
        String name = f.getFileName().toString();
        if (name.endsWith(".gz")) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
                return split(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        if (name.endsWith(".zip")) {
            try (ZipInputStream in = new ZipInputStream(Files.newInputStream(f))) {
                in.getNextEntry();
                return split(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return split(Files.readString(f));
    }

    private static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        if (s.isEmpty()) {
            return out;
        }
        if (!s.endsWith("\n")) {
            throw new AssertionError("a file ends inside a line: ..." + s.substring(Math.max(0, s.length() - 40)));
        }
        for (String l : s.substring(0, s.length() - 1).split("\n", -1)) {
            out.add(l);
        }
        return out;
    }
}
