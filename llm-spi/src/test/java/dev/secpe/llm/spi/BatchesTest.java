package dev.secpe.llm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class BatchesTest {

  @Test
  void splitsInOrderWithASmallerLastBatch() {
    assertThat(Batches.of(List.of("a", "b", "c", "d", "e"), 2))
        .containsExactly(List.of("a", "b"), List.of("c", "d"), List.of("e"));
    assertThat(Batches.of(List.of("a", "b"), 2)).containsExactly(List.of("a", "b"));
    assertThat(Batches.of(List.<String>of(), 3)).isEmpty();
    assertThatThrownBy(() -> Batches.of(List.of("a"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("batch size must be >= 1, got size=0");
  }

  @Test
  void joinsTheRowsInOrderAndRefusesAWrongCount() {
    float[] a = {1};
    float[] b = {2};
    float[] c = {3};
    List<float[][]> parts = List.of(new float[][] {a, b}, new float[][] {c});
    float[][] joined = Batches.join(parts, 3);
    assertThat(joined.length).isEqualTo(3);
    assertThat(joined[0]).isSameAs(a);
    assertThat(joined[1]).isSameAs(b);
    assertThat(joined[2]).isSameAs(c);
    List<float[][]> two = List.<float[][]>of(new float[][] {a, b});
    assertThatThrownBy(() -> Batches.join(two, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the batches hold 2 rows, not total=3");
    assertThatThrownBy(() -> Batches.join(two, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the batches hold more than total=1 rows");
  }
}
