// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Compression chosen by the pattern's suffix, as both frameworks choose it: {@code .gz} and
 * {@code .zip} (the zip entry is named after the uncompressed file, as logback names it).
 *
 * <p>Crash safety: the compressed bytes go to {@code target + ".tmp"}, which no archive pattern
 * matches; an atomic rename then makes the archive appear whole, and only after that is the source
 * deleted. A process killed at any point leaves the source (whole) and at worst a stale
 * {@code .tmp}, or the whole archive and a source that the next start deletes
 * ({@link RollingFileSink} recovery): never a torn archive under the archive's name.
 */
enum Compression {
    NONE(""),
    GZ(".gz"),
    ZIP(".zip");

    final String suffix;

    Compression(String suffix) {
        this.suffix = suffix;
    }

    static Compression of(String pattern) {
        if (pattern.endsWith(GZ.suffix)) {
            return GZ;
        }
        if (pattern.endsWith(ZIP.suffix)) {
            return ZIP;
        }
        return NONE;
    }

    /** @return {@code name} without this compression's suffix */
    String strip(String name) {
        return this != NONE && name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name;
    }

    /**
     * Compresses {@code source} into {@code target} and deletes the source.
     *
     * @throws IOException if reading, writing or renaming fails (the source is then kept)
     */
    void compress(Path source, Path target) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try (InputStream in = Files.newInputStream(source); OutputStream out = open(tmp, source)) {
            in.transferTo(out);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Files.delete(source);
    }

    /**
     * The size {@link #compress} would give {@code source}'s archive, found without writing it: a
     * full disk that stops the compression does not stop this count.
     *
     * @throws IOException if reading fails
     */
    long compressedSize(Path source) throws IOException {
        CountingStream count = new CountingStream();
        try (InputStream in = Files.newInputStream(source); OutputStream out = wrap(count, source)) {
            in.transferTo(out);
        }
        return count.bytes;
    }

    /** Counts what is written to it, and keeps none of it. */
    private static final class CountingStream extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }

    private OutputStream open(Path tmp, Path source) throws IOException {
        OutputStream file = Files.newOutputStream(tmp);
        try {
            return wrap(file, source);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    private OutputStream wrap(OutputStream file, Path source) throws IOException {
        if (this == GZ) {
            return new GZIPOutputStream(file, 64 * 1024);
        }
        ZipOutputStream zip = new ZipOutputStream(file);
        zip.putNextEntry(new ZipEntry(source.getFileName().toString()));
        return zip;
    }
}
