package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationTask;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SpliceTextGeneratorTest {

  private static final List<String> TEXTS = List.of(
      "alpha one\nalpha two\nalpha three\nalpha four",
      "beta one\nbeta two\nbeta three\nbeta four",
      "gamma one\ngamma two\ngamma three\ngamma four\ngamma five\ngamma six",
      "delta one\ndelta two\ndelta three");
  private static final List<String> LABELS = List.of("a", "a", "b", "b");

  private static GenerationRequest req(GenerationTask task, long seed, int maxTokens) {
    return new GenerationRequest(
        List.of(ChatMessage.user("x")), task, new GenerationParams(1, 1, maxTokens, List.of(), OptionalLong.of(seed)));
  }

  private static SpliceTextGenerator gen() {
    return SpliceTextGenerator.builder().train(TEXTS, LABELS).jumpProbability(0).build();
  }

  private static Set<String> linesOfLabel(String label) {
    Set<String> out = new HashSet<>();
    for (int i = 0; i < TEXTS.size(); i++) {
      if (LABELS.get(i).equals(label)) {
        out.addAll(Arrays.asList(TEXTS.get(i).split("\n")));
      }
    }
    return out;
  }

  @Test
  void freshSamplesUseOnlyLinesOfTheirLabelAndRepeatForTheSameSeed() {
    SpliceTextGenerator g = gen();
    for (long seed = 0; seed < 30; seed++) {
      String t = g.generate(List.of(req(new GenerationTask.Random("b", List.of(), 4), seed, 100))).get(0).text();
      assertThat(linesOfLabel("b")).containsAll(Arrays.asList(t.split("\n")));
      assertThat(g.generate(List.of(req(new GenerationTask.Random("b", List.of(), 4), seed, 100))).get(0).text())
          .isEqualTo(t);
    }
  }

  @Test
  void aFillInKeepsMostOfTheParentAndFollowsTheTargetLength() {
    SpliceTextGenerator g = gen();
    String parent = "gamma one\ngamma two\ngamma three\ngamma four\ngamma five\ngamma six";
    int kept = 0;
    int total = 0;
    for (long seed = 0; seed < 200; seed++) {
      String child =
          g.generate(List.of(req(new GenerationTask.FillIn(parent, 0.5, 12, "b"), seed, 100))).get(0).text();
      String[] c = child.split("\n");
      String[] p = parent.split("\n");
      for (int i = 0; i < Math.min(c.length, p.length); i++) {
        kept += c[i].equals(p[i]) ? 1 : 0;
      }
      total += p.length;
      int words = child.split("\\s+").length;
      assertThat(words).isBetween(11, 14); // within 10% of 12 words, in whole lines of 2 words
    }
    // Each line is replaced with probability 0.5 * 0.5 = 0.25, always by another line; when no
    // line of the six was drawn (probability 0.75^6 = 0.178) one is replaced anyway. So the share
    // kept is 0.75 - 0.178 / 6 = 0.720; the binomial sd over 1,200 lines is 1.3%: 4 sd either side.
    assertThat(kept / (double) total).isBetween(0.668, 0.772);
  }

  /** Records of one sentence each, as in a corpus of short passages. */
  private static final List<String> SENTENCES = List.of(
      "The budget grew faster than the economy this year.",
      "Our schools need more teachers and better pay.",
      "The army and the navy are ready for any task.",
      "Trade with our neighbours rose to a new height.",
      "Farmers saw the best harvest in a generation.");

  @Test
  void aFillInOfAOneSentenceRecordNeverReturnsTheParent() {
    SpliceTextGenerator g = SpliceTextGenerator.builder().train(SENTENCES).build();
    for (long seed = 0; seed < 200; seed++) {
      String parent = SENTENCES.get((int) (seed % SENTENCES.size()));
      int words = parent.split("\\s+").length;
      String child =
          g.generate(List.of(req(new GenerationTask.FillIn(parent, 0.5, words, null), seed, 100))).get(0).text();
      assertThat(child).as("seed %d", seed).isNotEqualTo(parent);
    }
  }

  @Test
  void theSentencesOfAParagraphAreUnitsAndKeepTheParagraphsLayout() {
    String paragraph = "First point made here. Second point follows it! Third point ends? Fourth one closes.";
    assertThat(SpliceTextGenerator.lines(paragraph))
        .containsExactly("First point made here. ", "Second point follows it! ", "Third point ends? ",
            "Fourth one closes. ");
    assertThat(SpliceTextGenerator.lines("One line. Two here.\nA second line."))
        .containsExactly("One line. ", "Two here.\n", "A second line.\n");
    SpliceTextGenerator g = SpliceTextGenerator.builder().train(List.of(paragraph)).jumpProbability(0).build();
    String t = g.generate(List.of(req(new GenerationTask.Random(null, List.of(), 8), 4, 100))).get(0).text();
    assertThat(t).doesNotContain("\n").contains("point");
  }

  /**
   * One-line sources (chat messages, single-paragraph tickets) give one-line texts for every kind
   * of task, whatever is spliced: a newline was inserted wherever a text ended and the next began.
   */
  @Test
  void oneLineSourcesGiveOneLineTexts() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      texts.add("Ticket " + i + " opened today. The printer on floor " + i + " jams again! Please send someone soon.");
    }
    SpliceTextGenerator g = SpliceTextGenerator.builder().train(texts).jumpProbability(0.5).build();
    String parent = texts.get(3) + " " + texts.get(4);
    for (long seed = 0; seed < 40; seed++) {
      for (GenerationTask task : List.of(
          new GenerationTask.Random(null, List.of(), 60),
          new GenerationTask.FillIn(parent, 0.5, 60, null),
          new GenerationTask.Rewrite(parent, null),
          new GenerationTask.Cross(texts.get(1), texts.get(2), null))) {
        String t = g.generate(List.of(req(task, seed, 200))).get(0).text();
        assertThat(t).as("%s, seed %d", task.getClass().getSimpleName(), seed).doesNotContain("\n").isNotBlank();
      }
    }
  }

  @Test
  void maxTokensCutsTheTextInWords() {
    String t = gen().generate(List.of(req(new GenerationTask.Random("b", List.of(), 50), 1, 5))).get(0).text();
    assertThat(t.split("\\s+")).hasSize(5);
  }
}
