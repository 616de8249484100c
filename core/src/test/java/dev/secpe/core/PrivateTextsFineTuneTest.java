package dev.secpe.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.FineTunableGenerator;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class PrivateTextsFineTuneTest {

  private static final String SECRET = "alice@example.org wrote this";

  /** Records what it was given; fails with the text in its message when asked to. */
  static final class Recording implements FineTunableGenerator {
    final Locality locality;
    final boolean fail;
    final List<Example> seen = new ArrayList<>();

    Recording(Locality locality, boolean fail) {
      this.locality = locality;
      this.fail = fail;
    }

    @Override
    public String name() {
      return "recording";
    }

    @Override
    public Locality locality() {
      return locality;
    }

    @Override
    public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
      return CompletableFuture.completedFuture(List.of());
    }

    @Override
    public TextGenerator fineTune(List<Example> examples, DpSgdSettings settings, DpNoise noise) {
      if (fail) {
        throw new IllegalStateException("cannot learn from " + examples.get(0).document());
      }
      seen.addAll(examples);
      return this;
    }
  }

  private static final FineTunableGenerator.DpNoise NOISE =
      new FineTunableGenerator.DpNoise() {
        @Override
        public double gaussian(double sigma) {
          return 0;
        }

        @Override
        public boolean bernoulli(double p) {
          return true;
        }
      };

  private static final FineTunableGenerator.DpSgdSettings SETTINGS =
      new FineTunableGenerator.DpSgdSettings(1, 1, 1, 1, 1);

  private static PrivateDataset data() {
    return PrivateDataset.of(List.of(PrivateRecord.of("a", SECRET), PrivateRecord.of("b", "second record")));
  }

  @Test
  void passesEachRecordWithItsKeywordsToALocalGenerator() {
    Recording g = new Recording(Locality.LOCAL, false);
    PrivateTexts.fineTune(g, data(), List.of(List.of("mail"), List.of()), SETTINGS, NOISE);
    assertThat(g.seen).extracting(FineTunableGenerator.Example::document).containsExactly(SECRET, "second record");
    assertThat(g.seen.get(0).keywords()).containsExactly("mail");
  }

  @Test
  void refusesRemoteGeneratorsAndNeverQuotesTheTextInFailures() {
    assertThatThrownBy(() -> PrivateTexts.fineTune(
            new Recording(Locality.REMOTE, false), data(), List.of(List.of(), List.of()), SETTINGS, NOISE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("only LOCAL");
    assertThatThrownBy(() -> PrivateTexts.fineTune(
            new Recording(Locality.LOCAL, true), data(), List.of(List.of(), List.of()), SETTINGS, NOISE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageNotContaining("alice")
        // The generator's exception survives as a class and a stack trace, its message withheld.
        .satisfies(e -> assertThat(e.getCause()).isInstanceOf(RedactedException.class)
            .hasMessageNotContaining("alice"));
    assertThatThrownBy(() -> PrivateTexts.fineTune(
            new Recording(Locality.LOCAL, false), data(), List.of(List.of()), SETTINGS, NOISE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("keywords=1 records=2");
  }
}
