package dev.secpe.llm.prompt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationTask;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PromptTemplatesTest {

  static final List<GenerationTask> EVERY_KIND = List.of(
      new GenerationTask.Random(null, List.of(), 40),
      new GenerationTask.Random(null, List.of("pasta", "service"), 40),
      new GenerationTask.Random("Italian restaurant", List.of(), 40),
      new GenerationTask.Random("Italian restaurant", List.of("pasta"), 40),
      new GenerationTask.FillIn("the pasta was cold but the staff were kind", 0.5, 9, null),
      new GenerationTask.Rewrite("the pasta was cold but the staff were kind", null),
      new GenerationTask.Cross("the pasta was cold", "lovely staff and quick service", null));

  @ParameterizedTest
  @EnumSource(Domain.class)
  void everyDefaultRendersEveryTaskKindWithNoPlaceholderLeft(Domain domain) {
    PromptTemplates t = PromptTemplates.defaults(domain);
    for (GenerationTask task : EVERY_KIND) {
      List<ChatMessage> msgs = t.render(task, new SplittableRandom(1));
      assertThat(msgs).extracting(ChatMessage::role).containsExactly("system", "user");
      String user = msgs.get(1).content();
      assertThat(user).doesNotContain("{").doesNotContain("}").contains(domain.description());
      if (task instanceof GenerationTask.Random) {
        assertThat(user).contains("about 40 words");
      }
    }
  }

  @Test
  void eachTaskSelectsItsOperatorAndCarriesItsValues() {
    PromptTemplates t = PromptTemplates.defaults(Domain.REVIEWS);
    assertThat(EVERY_KIND.stream().map(PromptTemplates::operatorFor).toList()).containsExactly(
        Operator.RANDOM, Operator.KEYWORDS, Operator.METADATA, Operator.METADATA,
        Operator.FILL_IN, Operator.REWRITE, Operator.CROSS);
    assertThat(user(t, EVERY_KIND.get(1))).contains("pasta, service");
    assertThat(user(t, EVERY_KIND.get(2))).contains("\"Italian restaurant\"").contains(PromptTemplates.NO_KEYWORDS);
    assertThat(user(t, EVERY_KIND.get(5))).contains("the pasta was cold but the staff were kind").contains("about 9 words");
    assertThat(user(t, EVERY_KIND.get(6))).contains("lovely staff and quick service").contains("about 5 words");
    String fill = user(t, EVERY_KIND.get(4));
    assertThat(fill).contains("_").contains("about 9 words").doesNotContain("the pasta was cold but the staff were kind");
  }

  @Test
  void fillInMaskIsReproducibleFromTheCallersGenerator() {
    PromptTemplates t = PromptTemplates.defaults(Domain.EMAIL);
    GenerationTask task = EVERY_KIND.get(4);
    assertThat(t.render(task, new SplittableRandom(42))).isEqualTo(t.render(task, new SplittableRandom(42)));
    assertThat(t.request(task, GenerationParams.defaults(), new SplittableRandom(3)).task()).isSameAs(task);
  }

  @Test
  void unknownPlaceholdersFailAtConstructionNamingThem() {
    assertThatThrownBy(() -> PromptTemplate.of("x", Operator.RANDOM, "", "Write {domain} about {parent}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("{parent}")
        .hasMessageContaining("RANDOM")
        .hasMessageContaining("[domain, target_words]");
    assertThatThrownBy(() -> PromptTemplate.of("x", Operator.CROSS, "{Bad Name}", "{first}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("{Bad Name}");
    assertThatThrownBy(() -> PromptTemplate.of("x", Operator.CROSS, "", "{first"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unclosed");
    assertThatThrownBy(() -> PromptTemplate.of("x", Operator.CROSS, "", "first}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unmatched");
  }

  @Test
  void missingValuesFailAtRenderNamingThem() {
    PromptTemplates t = PromptTemplates.defaults(Domain.REVIEWS);
    assertThatThrownBy(() -> t.render(new GenerationTask.Random(null, List.of(), 0), new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("{target_words}");
    PromptTemplates labelled = t.with(PromptTemplate.of("mine", Operator.REWRITE, "", "Rewrite this {label} review: {parent}"));
    assertThatThrownBy(() -> labelled.render(EVERY_KIND.get(5), new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("{label}").hasMessageContaining("mine");
  }

  @Test
  void templatesAreEditableCopiesWithLiteralBraces() {
    PromptTemplates base = PromptTemplates.defaults(Domain.ABSTRACTS);
    PromptTemplate mine = base.template(Operator.RANDOM).withUser("JSON {{\"words\": {target_words}}}").withSystem("");
    PromptTemplates edited = base.with(mine).withDomain("a lab report");
    assertThat(edited.render(new GenerationTask.Random(null, List.of(), 12), new SplittableRandom(1)))
        .containsExactly(ChatMessage.user("JSON {\"words\": 12}"));
    assertThat(base.template(Operator.RANDOM).user()).isNotEqualTo(mine.user());
    assertThat(edited.domain()).isEqualTo("a lab report");
    assertThat(mine.placeholders()).containsExactly("target_words");
    assertThat(mine.render(Map.of("target_words", "3", "extra", "ignored"))).hasSize(1);
  }

  private static String user(PromptTemplates t, GenerationTask task) {
    return t.render(task, new SplittableRandom(5)).get(1).content();
  }
}
