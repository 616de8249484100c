package dev.secpe.llm.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachingEmbedderTest {

  @TempDir Path dir;

  /** Counts every text it embeds; vector = (length, first char, 1, ...). */
  static class Counting implements TextEmbedder {
    final List<String> seen = new ArrayList<>();
    final int dim;
    final String name;

    Counting(String name, int dim) {
      this.name = name;
      this.dim = dim;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public int dimension() {
      return dim;
    }

    @Override
    public boolean normalized() {
      return false;
    }

    @Override
    public Locality locality() {
      return Locality.REMOTE;
    }

    @Override
    public synchronized float[][] embed(List<String> texts) {
      seen.addAll(texts);
      float[][] out = new float[texts.size()][dim];
      for (int i = 0; i < texts.size(); i++) {
        String t = texts.get(i);
        out[i][0] = t.length();
        out[i][1] = t.isEmpty() ? -1 : t.charAt(0);
        for (int j = 2; j < dim; j++) {
          out[i][j] = j;
        }
      }
      return out;
    }
  }

  @Test
  void aTextIsNeverEmbeddedTwice() {
    Counting inner = new Counting("c", 4);
    CachingEmbedder cache = CachingEmbedder.inMemory(inner, 100);
    float[][] first = cache.embed(List.of("alpha", "beta", "alpha"));
    float[][] second = cache.embed(List.of("beta", "gamma", "alpha"));
    assertThat(inner.seen).containsExactly("alpha", "beta", "gamma");
    assertThat(first[0]).containsExactly(5, 'a', 2, 3);
    assertThat(first[2]).containsExactly(first[0]);
    assertThat(second[0]).containsExactly(first[1]);
    assertThat(second[1]).containsExactly(5, 'g', 2, 3);
    CacheStats s = cache.stats();
    assertThat(s.misses()).isEqualTo(3);
    assertThat(s.hits()).isEqualTo(2);
    assertThat(s.memoryEntries()).isEqualTo(3);
    assertThat(cache.locality()).isEqualTo(Locality.REMOTE);
  }

  @Test
  void returnedVectorsAreCopies() {
    CachingEmbedder cache = CachingEmbedder.inMemory(new Counting("c", 3), 10);
    cache.embed(List.of("x"))[0][0] = 999;
    assertThat(cache.embed(List.of("x"))[0][0]).isEqualTo(1);
  }

  @Test
  void leastRecentlyUsedEntriesAreEvicted() {
    Counting inner = new Counting("c", 2);
    CachingEmbedder cache = CachingEmbedder.inMemory(inner, 2);
    cache.embed(List.of("a"));
    cache.embed(List.of("b"));
    cache.embed(List.of("a")); // a is now most recent
    cache.embed(List.of("c")); // evicts b
    cache.embed(List.of("a"));
    cache.embed(List.of("b"));
    assertThat(inner.seen).containsExactly("a", "b", "c", "b");
  }

  @Test
  void diskCacheSurvivesRestartsAndHoldsNoText() throws IOException {
    String secret = "patient alice tested positive";
    try (CachingEmbedder cache = CachingEmbedder.builder(new Counting("c", 8)).directory(dir).build()) {
      cache.embed(List.of(secret, "other"));
    }
    Counting inner = new Counting("c", 8);
    try (CachingEmbedder cache = CachingEmbedder.builder(inner).maxEntries(1).directory(dir).build()) {
      float[][] v = cache.embed(List.of(secret, "other", "new"));
      assertThat(inner.seen).containsExactly("new");
      assertThat(v[0][0]).isEqualTo(secret.length());
      assertThat(cache.stats().diskHits()).isEqualTo(2);
      assertThat(cache.stats().diskEntries()).isEqualTo(3);
    }
    for (Path f : files()) {
      String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
      assertThat(bytes).doesNotContain("alice").doesNotContain("other").doesNotContain("new");
    }
  }

  @Test
  void aTornAppendIsDroppedAndTheGoodRecordsKept() throws IOException {
    try (CachingEmbedder cache = CachingEmbedder.builder(new Counting("c", 4)).directory(dir).build()) {
      cache.embed(List.of("one", "two"));
    }
    Path f = files().get(0);
    long good = Files.size(f);
    Files.write(f, new byte[] {1, 2, 3, 4, 5, 6, 7}, StandardOpenOption.APPEND); // half a record
    Counting inner = new Counting("c", 4);
    try (CachingEmbedder cache = CachingEmbedder.builder(inner).directory(dir).build()) {
      assertThat(Files.size(f)).isEqualTo(good);
      cache.embed(List.of("one", "two", "three"));
      assertThat(inner.seen).containsExactly("three");
    }
    // flip a byte in the last record's vector: its CRC fails, so it is dropped and re-embedded
    byte[] all = Files.readAllBytes(f);
    all[all.length - 6] ^= 0x55;
    Files.write(f, all);
    Counting again = new Counting("c", 4);
    try (CachingEmbedder cache = CachingEmbedder.builder(again).directory(dir).build()) {
      cache.embed(List.of("one", "two", "three"));
      assertThat(again.seen).containsExactly("three");
    }
  }

  @Test
  void embeddersDoNotShareEntriesAndAFileOfAnotherEmbedderIsRefused() throws IOException {
    try (CachingEmbedder a = CachingEmbedder.builder(new Counting("a", 4)).directory(dir).build();
        CachingEmbedder b = CachingEmbedder.builder(new Counting("b", 4)).directory(dir).build()) {
      a.embed(List.of("t"));
      b.embed(List.of("t"));
      assertThat(a.stats().misses()).isEqualTo(1);
      assertThat(b.stats().misses()).isEqualTo(1);
    }
    assertThat(ContentKey.of("a", 4, "t")).isNotEqualTo(ContentKey.of("b", 4, "t"))
        .isNotEqualTo(ContentKey.of("a", 5, "t"));
    Path f = files().get(0);
    Files.move(f, dir.resolve("embeddings-z-4.bin"));
    assertThatThrownBy(() -> CachingEmbedder.builder(new Counting("z", 4)).directory(dir).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("another embedder");
  }

  @Test
  void theSameFileCannotBeOpenedTwice() {
    try (CachingEmbedder a = CachingEmbedder.builder(new Counting("a", 4)).directory(dir).build()) {
      assertThatThrownBy(() -> CachingEmbedder.builder(new Counting("a", 4)).directory(dir).build())
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("already open");
    }
  }

  @Test
  void aDelegateReturningTheWrongShapeIsReported() {
    TextEmbedder broken = new Counting("c", 4) {
      @Override
      public synchronized float[][] embed(List<String> texts) {
        return new float[texts.size()][3];
      }
    };
    assertThatThrownBy(() -> CachingEmbedder.inMemory(broken, 5).embed(List.of("x")))
        .isInstanceOf(dev.secpe.llm.ProviderFault.class).hasMessageContaining("dimension 3 for input 0 of its batch; it declares dimension 4")
        .hasMessageNotContaining("x\"");
    assertThatThrownBy(() -> CachingEmbedder.builder(broken).maxEntries(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxEntries=0");
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }
}
