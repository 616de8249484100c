package dev.secpe.llm.testkit;

import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.prompt.Domain;
import dev.secpe.llm.prompt.PromptTemplates;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Synthetic requests for contract tests: every operator (random, keywords, metadata, fill-in,
 * rewrite, cross), rendered with the default review templates, each with a distinct seed and a
 * distinct marker word so results can be told apart. Contains no private text.
 */
public final class ContractRequests {

  private static final PromptTemplates TEMPLATES = PromptTemplates.defaults(Domain.REVIEWS);
  private static final String[] PARENTS = {
    "the staff was friendly and the room was clean",
    "a clear paper with a novel method but a weak baseline",
    "thanks for the update on the project schedule",
    "delivery was late and the order was cold",
  };

  private ContractRequests() {}

  /**
   * {@code n} requests cycling through the operators; request {@code i} has seed {@code seed + i}
   * and carries the marker {@code "m<i>"}.
   */
  public static List<GenerationRequest> mixed(int n, long seed) {
    if (n < 0) {
      throw new IllegalArgumentException("n must be >= 0, got n=" + n);
    }
    SplittableRandom rng = new SplittableRandom(seed);
    List<GenerationRequest> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String marker = "m" + i;
      String parent = marker + " " + PARENTS[rng.nextInt(PARENTS.length)];
      GenerationTask task = switch (i % 6) {
        case 0 -> new GenerationTask.Random(null, List.of(), 8 + rng.nextInt(8));
        case 1 -> new GenerationTask.Random(null, List.of(marker, "service"), 10);
        case 2 -> new GenerationTask.Random("positive " + marker, List.of("price"), 12);
        case 3 -> new GenerationTask.FillIn(parent, 0.5, 10, null);
        case 4 -> new GenerationTask.Rewrite(parent, null);
        default -> new GenerationTask.Cross(parent, PARENTS[rng.nextInt(PARENTS.length)], null);
      };
      GenerationParams params =
          new GenerationParams(1.0, 1.0, 64, List.of(), OptionalLong.of(seed + i));
      out.add(TEMPLATES.request(task, params, new SplittableRandom(seed + i)));
    }
    return List.copyOf(out);
  }
}
