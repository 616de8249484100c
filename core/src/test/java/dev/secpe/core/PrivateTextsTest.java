package dev.secpe.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.core.secret.PiiDetector;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretMatch;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextEmbedder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrivateTextsTest {

  private static final String PLANTED = "call me at (212) 555-0142, Mrs Zyxwvut";

  /** Records every text it receives; embeds as (length, word count, 1). */
  static final class RecordingEmbedder implements TextEmbedder {
    final Locality locality;
    final List<String> seen = new ArrayList<>();
    RuntimeException failWith;
    int dimOverride = -1;
    boolean claimsUnitNorm;

    RecordingEmbedder(Locality locality) {
      this.locality = locality;
    }

    @Override
    public String name() {
      return "recording";
    }

    @Override
    public int dimension() {
      return 3;
    }

    @Override
    public boolean normalized() {
      return claimsUnitNorm;
    }

    @Override
    public Locality locality() {
      return locality;
    }

    @Override
    public synchronized float[][] embed(List<String> texts) {
      seen.addAll(texts);
      if (failWith != null) {
        throw failWith;
      }
      float[][] out = new float[texts.size()][];
      for (int i = 0; i < texts.size(); i++) {
        String t = texts.get(i);
        out[i] =
            dimOverride > 0
                ? new float[dimOverride]
                : new float[] {t.length(), t.split(" ").length, 1f};
      }
      return out;
    }
  }

  private static PrivateDataset data() {
    return PrivateDataset.of(
        List.of(
            PrivateRecord.of("a", PLANTED),
            PrivateRecord.of("b", "second text"),
            PrivateRecord.of("c", "third one here")));
  }

  @Test
  void remoteEmbedderIsRefusedBeforeItSeesAnyText() {
    RecordingEmbedder remote = new RecordingEmbedder(Locality.REMOTE);
    assertThatThrownBy(() -> PrivateTexts.embed(remote, data(), PrivacyGuard.localOnly()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("embedder 'recording' is REMOTE")
        .hasMessageContaining("allowRemoteEmbedding() on the run's builder")
        .hasMessageContaining("withRemoteEmbeddingAllowed");
    assertThat(remote.seen).isEmpty();
  }

  @Test
  void remoteEmbedderRunsOnlyWithTheExplicitFlag() {
    RecordingEmbedder remote = new RecordingEmbedder(Locality.REMOTE);
    EmbeddingMatrix m =
        PrivateTexts.embed(remote, data(), PrivacyGuard.localOnly().withRemoteEmbeddingAllowed());
    assertThat(m.rows()).isEqualTo(3);
    assertThat(remote.seen).hasSize(3);
    // The detection permission is separate from the embedding one.
    assertThatThrownBy(
            () ->
                PrivateTexts.detect(
                    remoteDetector(), data().get(0).text(), PrivacyGuard.localOnly().withRemoteEmbeddingAllowed()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("secret detector 'remote-pii' is REMOTE");
  }

  @Test
  void localEmbedderGetsBatchesInOrder() {
    RecordingEmbedder local = new RecordingEmbedder(Locality.LOCAL);
    EmbeddingMatrix m = PrivateTexts.embed(local, data().texts(), PrivacyGuard.localOnly(), 2);
    assertThat(m.rows()).isEqualTo(3);
    assertThat(m.get(1, 0)).isEqualTo("second text".length());
    assertThat(m.get(2, 1)).isEqualTo(3f);
    assertThat(local.seen).containsExactly(PLANTED, "second text", "third one here");
  }

  @Test
  void embedderFailuresNeverCarryPrivateText() {
    RecordingEmbedder leaky = new RecordingEmbedder(Locality.LOCAL);
    leaky.failWith = new RuntimeException("could not embed: " + PLANTED);
    assertThatThrownBy(() -> PrivateTexts.embed(leaky, data(), PrivacyGuard.localOnly()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("embedder 'recording' failed")
        .hasMessageNotContaining("Zyxwvut");
    assertThat(printed(thrown(() -> PrivateTexts.embed(leaky, data(), PrivacyGuard.localOnly()))))
        .doesNotContain("Zyxwvut");
    leaky.failWith = new ProviderException.Retryable("429 for body " + PLANTED, null);
    assertThatThrownBy(() -> PrivateTexts.embed(leaky, data(), PrivacyGuard.localOnly()))
        .isInstanceOf(ProviderException.Retryable.class)
        .hasMessageNotContaining("Zyxwvut");
    assertThat(printed(thrown(() -> PrivateTexts.embed(leaky, data(), PrivacyGuard.localOnly()))))
        .doesNotContain("Zyxwvut");
  }

  /**
   * A user debugging their own embedder needs to know what was thrown where: the exception keeps
   * the class and stack trace of what the embedder threw, and of its causes, with every message
   * withheld. Before, the cause was dropped altogether.
   */
  @Test
  void anEmbedderFailureKeepsItsClassAndStackTraceButNoMessage() {
    class EmbedderBoom extends RuntimeException {
      EmbedderBoom(String message, Throwable cause) {
        super(message, cause);
      }
    }
    UncheckedIOException inner =
        new UncheckedIOException("socket read: " + PLANTED, new IOException("body " + PLANTED));
    EmbedderBoom boom = new EmbedderBoom("could not embed " + PLANTED, inner);
    boom.addSuppressed(new IllegalArgumentException("also " + PLANTED));
    RecordingEmbedder leaky = new RecordingEmbedder(Locality.LOCAL);
    leaky.failWith = boom;

    Throwable t = thrown(() -> PrivateTexts.embed(leaky, data(), PrivacyGuard.localOnly()));

    assertThat(t).isInstanceOf(IllegalStateException.class).hasMessageContaining(EmbedderBoom.class.getName());
    RedactedException cause = (RedactedException) t.getCause();
    assertThat(cause.originalClassName()).isEqualTo(EmbedderBoom.class.getName());
    assertThat(cause.getStackTrace()).isEqualTo(boom.getStackTrace());
    RedactedException second = (RedactedException) cause.getCause();
    assertThat(second.originalClassName()).isEqualTo(UncheckedIOException.class.getName());
    assertThat(second.getStackTrace()).isEqualTo(inner.getStackTrace());
    assertThat(((RedactedException) second.getCause()).originalClassName()).isEqualTo(IOException.class.getName());
    assertThat(((RedactedException) cause.getSuppressed()[0]).originalClassName())
        .isEqualTo("java.lang.IllegalArgumentException");
    assertThat(printed(t)).contains("EmbedderBoom", "UncheckedIOException", "IOException").doesNotContain("Zyxwvut");
  }

  @Test
  void anEmbedderThatClaimsUnitVectorsAndReturnsOthersIsAProviderFault() {
    RecordingEmbedder liar = new RecordingEmbedder(Locality.LOCAL);
    liar.claimsUnitNorm = true;
    assertThatThrownBy(() -> PrivateTexts.embed(liar, data(), PrivacyGuard.localOnly()))
        .isInstanceOf(ProviderFault.class)
        .hasMessage("embedder 'recording' declares normalized() but returned a vector whose L2 norm is not 1"
            + " (within 0.001) for text 0; return unit vectors or declare normalized() false");
    assertThatThrownBy(() -> PublicTexts.embed(liar, List.of("a b")))
        .isInstanceOf(ProviderFault.class);
    liar.claimsUnitNorm = false;
    assertThat(PrivateTexts.embed(liar, data(), PrivacyGuard.localOnly()).rows()).isEqualTo(3);
  }

  private static Throwable thrown(Runnable r) {
    try {
      r.run();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("nothing thrown");
  }

  private static String printed(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    return w.toString();
  }

  @Test
  void publicTextsMayGoToARemoteEmbedderAndAreCheckedTheSameWay() {
    RecordingEmbedder remote = new RecordingEmbedder(Locality.REMOTE);
    EmbeddingMatrix m = PublicTexts.embed(remote, List.of("a b", "c"), 1);
    assertThat(m.toFlatArray()).containsExactly(3f, 2f, 1f, 1f, 1f, 1f);
    remote.dimOverride = 2;
    assertThatThrownBy(() -> PublicTexts.embed(remote, List.of("x")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("dimension 2 for text 0");
    assertThatThrownBy(() -> PublicTexts.embed(remote, List.of("x"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("batchSize must be >= 1, got batchSize=0");
  }

  @Test
  void wrongDimensionIsAClearError() {
    RecordingEmbedder bad = new RecordingEmbedder(Locality.LOCAL);
    bad.dimOverride = 5;
    assertThatThrownBy(() -> PrivateTexts.embed(bad, data(), PrivacyGuard.localOnly()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("dimension 5 for text 0; it declares dimension 3");
  }

  @Test
  void detectionGoesThroughTheGate() {
    List<SecretMatch> found =
        PrivateTexts.detect(PiiDetector.all(), data().get(0).text(), PrivacyGuard.localOnly());
    assertThat(found).hasSize(1);
    assertThat(found.get(0).kind()).isEqualTo("phone");
    assertThat(found.get(0).toString()).doesNotContain("555").doesNotContain("212");
    assertThatThrownBy(
            () -> PrivateTexts.detect(remoteDetector(), data().get(0).text(), PrivacyGuard.localOnly()))
        .isInstanceOf(IllegalStateException.class);
    assertThat(
            PrivateTexts.detect(
                remoteDetector(),
                data().get(0).text(),
                PrivacyGuard.localOnly().withRemoteSecretDetectionAllowed()))
        .isEmpty();
  }

  @Test
  void detectorFailuresAreSanitised() {
    SecretDetector leaky =
        new SecretDetector() {
          @Override
          public String name() {
            return "leaky";
          }

          @Override
          public Locality locality() {
            return Locality.LOCAL;
          }

          @Override
          public List<SecretMatch> detect(String text) {
            throw new IllegalArgumentException("bad input: " + text);
          }
        };
    assertThatThrownBy(() -> PrivateTexts.detect(leaky, data().get(0).text(), PrivacyGuard.localOnly()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("secret detector 'leaky' failed")
        .hasMessageNotContaining("Zyxwvut");
  }

  static SecretDetector remoteDetector() {
    return new SecretDetector() {
      @Override
      public String name() {
        return "remote-pii";
      }

      @Override
      public Locality locality() {
        return Locality.REMOTE;
      }

      @Override
      public List<SecretMatch> detect(String text) {
        return List.of();
      }
    };
  }
}
