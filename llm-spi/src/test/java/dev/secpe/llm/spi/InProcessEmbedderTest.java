package dev.secpe.llm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

class InProcessEmbedderTest {

  /** One-hot vectors of the text's length, modulo the dimension. */
  private static final class Lengths extends InProcessEmbedder {
    Lengths(String name, int dimension) {
      super(name, dimension);
    }

    @Override
    public boolean normalized() {
      return true;
    }

    @Override
    public float[][] embed(List<String> texts) {
      float[][] out = new float[texts.size()][dimension()];
      for (int i = 0; i < out.length; i++) {
        out[i][texts.get(i).length() % dimension()] = 1;
      }
      return out;
    }
  }

  @Test
  void isLocalWithTheNameAndDimensionItWasMadeWith() {
    TextEmbedder e = new Lengths("lengths", 3);
    assertThat(e.name()).isEqualTo("lengths");
    assertThat(e.dimension()).isEqualTo(3);
    assertThat(e.locality()).isEqualTo(Locality.LOCAL);
    assertThat(e.embed(List.of("ab", "abcd"))).isDeepEqualTo(new float[][] {{0, 0, 1}, {0, 1, 0}});
  }

  @Test
  void refusesABlankNameAndADimensionBelowOne() {
    assertThatThrownBy(() -> new Lengths(" ", 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("name must not be blank");
    assertThatThrownBy(() -> new Lengths(null, 3))
        .isInstanceOf(NullPointerException.class).hasMessage("name");
    assertThatThrownBy(() -> new Lengths("lengths", 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("dimension must be >= 1, got dimension=0");
  }
}
