package dev.secpe.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LabelSetTest {

  @Test
  void declaredPublicProportionsMustSumToOne() {
    LabelSet s =
        LabelSet.declaredPublic(Map.of(Label.of("spam"), 0.3, Label.of("ham"), 0.7));
    assertThat(s.labels()).containsExactly(Label.of("ham"), Label.of("spam"));
    assertThatThrownBy(() -> LabelSet.declaredPublic(Map.of(Label.of("spam"), 0.3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sum to 1, got sum=0.3");
    assertThatThrownBy(() -> LabelSet.declaredPublic(Map.of(Label.of("spam"), Double.NaN)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("label 'spam'");
  }

  @Test
  void toBeReleasedAndUnlabelled() {
    LabelSet s = LabelSet.toBeReleased(List.of(Label.of("b"), Label.of("a")));
    assertThat(s).isInstanceOf(LabelSet.ToBeReleased.class);
    assertThat(((LabelSet.ToBeReleased) s).asList()).containsExactly(Label.of("a"), Label.of("b"));
    assertThat(LabelSet.unlabelled().labels()).isEmpty();
    assertThatThrownBy(() -> LabelSet.toBeReleased(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Label.of(" ")).isInstanceOf(IllegalArgumentException.class);
  }
}
