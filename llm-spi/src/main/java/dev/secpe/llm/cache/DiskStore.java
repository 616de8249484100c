package dev.secpe.llm.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * An append-only file of (content hash, vector) records; never any text.
 *
 * <p>Layout: header {@code "SECPEEMB"}, int version 1, int dimension, int name length, name
 * (UTF-8); then records of 32 key bytes, {@code 4 * dimension} bytes of big-endian floats and a
 * CRC-32 of both. A record is indexed only after it was fully written; on open, a torn or corrupt
 * tail (a crash mid-append) is cut off at the last good record, so a reader never sees half a
 * vector.
 */
final class DiskStore implements AutoCloseable {
  private static final byte[] MAGIC = "SECPEEMB".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION = 1;

  private final Path file;
  private final int dimension;
  private final int recordBytes;
  private final FileChannel channel;
  private final FileLock lock;
  private final Map<ContentKey, Long> index = new HashMap<>();
  private long end;

  DiskStore(Path directory, String embedderName, int dimension) {
    this.dimension = dimension;
    this.recordBytes = ContentKey.BYTES + 4 * dimension + 4;
    String safe = embedderName.replaceAll("[^A-Za-z0-9._-]", "_");
    this.file = directory.resolve("embeddings-" + safe + "-" + dimension + ".bin");
    try {
      Files.createDirectories(directory);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open embedding cache file " + file, e);
    }
    try {
      lock = channel.tryLock();
      if (lock == null) {
        throw new IllegalStateException("embedding cache file " + file + " is in use by another process");
      }
    } catch (OverlappingFileLockException e) {
      closeQuietly();
      throw new IllegalStateException("embedding cache file " + file + " is already open in this JVM", e);
    } catch (IOException e) {
      closeQuietly();
      throw new UncheckedIOException("cannot lock embedding cache file " + file, e);
    } catch (RuntimeException e) {
      closeQuietly();
      throw e;
    }
    try {
      load(embedderName);
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("cannot read embedding cache file " + file, e);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  private void load(String embedderName) throws IOException {
    byte[] name = embedderName.getBytes(StandardCharsets.UTF_8);
    int headerBytes = MAGIC.length + 12 + name.length;
    long size = channel.size();
    if (size == 0) {
      ByteBuffer h = ByteBuffer.allocate(headerBytes);
      h.put(MAGIC).putInt(VERSION).putInt(dimension).putInt(name.length).put(name).flip();
      writeFully(h, 0);
      channel.force(true);
      end = headerBytes;
      return;
    }
    ByteBuffer h = ByteBuffer.allocate(MAGIC.length + 12);
    readFully(h, 0);
    h.flip();
    byte[] magic = new byte[MAGIC.length];
    h.get(magic);
    int version = h.getInt();
    int dim = h.getInt();
    int nameLen = h.getInt();
    if (!Arrays.equals(magic, MAGIC) || version != VERSION) {
      throw new IllegalStateException("not an embedding cache file (or another version): " + file);
    }
    boolean sameName = nameLen == name.length;
    if (sameName) {
      ByteBuffer n = ByteBuffer.allocate(nameLen);
      readFully(n, MAGIC.length + 12);
      sameName = Arrays.equals(n.array(), name);
    }
    if (dim != dimension || !sameName) {
      throw new IllegalStateException("embedding cache file " + file + " was written by another"
          + " embedder or dimension (file dimension " + dim + ", expected " + dimension + ")");
    }
    long pos = headerBytes;
    ByteBuffer rec = ByteBuffer.allocate(recordBytes);
    CRC32 crc = new CRC32();
    while (pos + recordBytes <= size) {
      rec.clear();
      readFully(rec, pos);
      crc.reset();
      crc.update(rec.array(), 0, recordBytes - 4);
      if ((int) crc.getValue() != rec.getInt(recordBytes - 4)) {
        break; // corrupt tail
      }
      rec.flip();
      index.put(ContentKey.read(rec), pos);
      pos += recordBytes;
    }
    if (pos < size) {
      channel.truncate(pos); // drop a torn append
    }
    end = pos;
  }

  synchronized float[] get(ContentKey key) {
    Long pos = index.get(key);
    if (pos == null) {
      return null;
    }
    ByteBuffer buf = ByteBuffer.allocate(4 * dimension);
    try {
      readFully(buf, pos + ContentKey.BYTES);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read embedding cache file " + file, e);
    }
    buf.flip();
    float[] v = new float[dimension];
    buf.asFloatBuffer().get(v);
    return v;
  }

  synchronized void put(ContentKey key, float[] vector) {
    if (index.containsKey(key)) {
      return;
    }
    ByteBuffer rec = ByteBuffer.allocate(recordBytes);
    key.write(rec);
    for (float f : vector) {
      rec.putFloat(f);
    }
    CRC32 crc = new CRC32();
    crc.update(rec.array(), 0, recordBytes - 4);
    rec.putInt((int) crc.getValue());
    rec.flip();
    try {
      writeFully(rec, end);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to embedding cache file " + file, e);
    }
    index.put(key, end);
    end += recordBytes;
  }

  synchronized int size() {
    return index.size();
  }

  Path file() {
    return file;
  }

  private void writeFully(ByteBuffer buf, long pos) throws IOException {
    while (buf.hasRemaining()) {
      pos += channel.write(buf, pos);
    }
  }

  private void readFully(ByteBuffer buf, long pos) throws IOException {
    while (buf.hasRemaining()) {
      int n = channel.read(buf, pos);
      if (n < 0) {
        throw new IOException("unexpected end of file");
      }
      pos += n;
    }
  }

  private void closeQuietly() {
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing to do
    }
  }

  @Override
  public synchronized void close() {
    try {
      if (channel.isOpen()) {
        channel.force(true);
        if (lock != null && lock.isValid()) {
          lock.release();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot flush embedding cache file " + file, e);
    } finally {
      closeQuietly();
    }
  }
}
