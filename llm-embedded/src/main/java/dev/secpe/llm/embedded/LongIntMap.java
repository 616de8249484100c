package dev.secpe.llm.embedded;

import java.util.Arrays;

/**
 * An open-addressing map from non-negative {@code long} keys to {@code int} values (missing keys
 * read as 0). Not thread-safe while written; safe to read from many threads once published.
 */
final class LongIntMap {
  private static final long EMPTY = -1L;
  private long[] keys;
  private int[] values;
  private int size;
  private int mask;

  LongIntMap(int expected) {
    int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
    keys = new long[cap];
    Arrays.fill(keys, EMPTY);
    values = new int[cap];
    mask = cap - 1;
  }

  private static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 29)) & mask;
  }

  int get(long key) {
    int i = slot(key, mask);
    while (true) {
      long k = keys[i];
      if (k == key) {
        return values[i];
      }
      if (k == EMPTY) {
        return 0;
      }
      i = (i + 1) & mask;
    }
  }

  /** Index of {@code key}'s value or -1: lets callers read {@link #valueAt(int)}. */
  int indexOf(long key) {
    int i = slot(key, mask);
    while (true) {
      long k = keys[i];
      if (k == key) {
        return i;
      }
      if (k == EMPTY) {
        return -1;
      }
      i = (i + 1) & mask;
    }
  }

  int valueAt(int index) {
    return values[index];
  }

  void add(long key, int delta) {
    if (key < 0) {
      throw new IllegalArgumentException("keys must be non-negative, got key=" + key);
    }
    int i = slot(key, mask);
    while (true) {
      long k = keys[i];
      if (k == key) {
        values[i] += delta;
        return;
      }
      if (k == EMPTY) {
        keys[i] = key;
        values[i] = delta;
        if (++size * 2 > keys.length) {
          grow();
        }
        return;
      }
      i = (i + 1) & mask;
    }
  }

  void put(long key, int value) {
    int idx = indexOf(key);
    if (idx >= 0) {
      values[idx] = value;
    } else {
      add(key, value);
    }
  }

  int size() {
    return size;
  }

  /** Calls {@code action} for every entry, in slot order (deterministic for a given history). */
  void forEach(Entry action) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != EMPTY) {
        action.accept(keys[i], values[i]);
      }
    }
  }

  /** The keys in ascending order. */
  long[] sortedKeys() {
    long[] out = new long[size];
    int j = 0;
    for (long k : keys) {
      if (k != EMPTY) {
        out[j++] = k;
      }
    }
    Arrays.sort(out);
    return out;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldValues = values;
    int cap = oldKeys.length * 2;
    keys = new long[cap];
    Arrays.fill(keys, EMPTY);
    values = new int[cap];
    mask = cap - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        int s = slot(oldKeys[i], mask);
        while (keys[s] != EMPTY) {
          s = (s + 1) & mask;
        }
        keys[s] = oldKeys[i];
        values[s] = oldValues[i];
      }
    }
  }

  /** A map entry visitor. */
  interface Entry {
    void accept(long key, int value);
  }
}
