package io.lifeline.app;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Says that a live Lifeline owns an embedded data directory, for as long as its JVM lives: the operating system drops
 * the lock when the process ends, however it ends. A start that gets the lock knows that any server still running on
 * the directory was left by a run that is gone, and may stop it. The file sits beside the data directory, which
 * must be empty for {@code initdb}.
 */
final class DataDirectoryLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static Path fileFor(Path dataDir) {
        return dataDir.resolveSibling(dataDir.getFileName() + ".lock");
    }

    /** Takes the lock, or fails naming the process that holds it. */
    static DataDirectoryLock acquire(Path dataDir) throws IOException {
        Path file = fileFor(dataDir);
        FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            String holder = Files.readString(file, StandardCharsets.UTF_8).trim();
            channel.close();
            throw new IllegalStateException("the embedded database in " + dataDir + " is in use by another Lifeline"
                    + (holder.isEmpty() ? "" : " (pid " + holder + ")")
                    + "; stop it first or set lifeline.database.embedded-dir to another directory");
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
        return new DataDirectoryLock(channel, lock);
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // The lock goes with the process anyway.
        }
    }
}
