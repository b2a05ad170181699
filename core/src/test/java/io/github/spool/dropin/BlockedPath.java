// SPDX-License-Identifier: Apache-2.0
package io.github.spool.dropin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A log file path that cannot be opened, by root either, until {@link #unblock()}: its parent
 * directory's name is taken by a regular file, so no directory can be created there. Permissions
 * would not do (these tests may run as root). Test support.
 */
public final class BlockedPath {

    private final Path blocker;

    private BlockedPath(Path blocker) {
        this.blocker = blocker;
    }

    /**
     * @param dir a directory the test owns
     * @return a blocked path under it
     * @throws IOException if the blocker cannot be written
     */
    public static BlockedPath under(Path dir) throws IOException {
        Path blocker = dir.resolve("logs");
        Files.writeString(blocker, "a regular file where the log directory should be", StandardCharsets.UTF_8);
        return new BlockedPath(blocker);
    }

    /** @return the file that cannot be opened */
    public Path file() {
        return blocker.resolve("app.log");
    }

    /** @return the regular file in the way, as status messages name it */
    public Path blocker() {
        return blocker;
    }

    /**
     * Removes the regular file, so the directory and the log file can be created.
     *
     * @throws IOException if it cannot be deleted
     */
    public void unblock() throws IOException {
        Files.delete(blocker);
    }
}
