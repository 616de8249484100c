package dev.secpe.llm.testkit;

/** FNV-1a 64 with a final avalanche (deterministic across JVMs, unlike String.hashCode mixing). */
final class FakeHash {
  private FakeHash() {}

  static long fnv1a64(byte[] data) {
    long h = 0xcbf29ce484222325L;
    for (byte b : data) {
      h ^= (b & 0xff);
      h *= 0x100000001b3L;
    }
    return mix(h);
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
