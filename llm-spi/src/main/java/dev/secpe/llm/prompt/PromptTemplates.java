package dev.secpe.llm.prompt;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationTask;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A complete set of templates, one per {@link Operator}, for one data domain, and the renderer
 * that turns a {@link GenerationTask} into chat messages. Immutable; {@link #with(PromptTemplate)}
 * returns an edited copy.
 *
 * <p>Which template a task uses: {@link GenerationTask.Random} with a label uses {@link
 * Operator#METADATA}, without a label but with keywords {@link Operator#KEYWORDS}, otherwise
 * {@link Operator#RANDOM}; {@link GenerationTask.FillIn}, {@link GenerationTask.Rewrite} and
 * {@link GenerationTask.Cross} use {@link Operator#FILL_IN}, {@link Operator#REWRITE} and {@link
 * Operator#CROSS}.
 *
 * <p>Values: {@code {target_words}} is the task's target length (for a random task it must be set,
 * or a template using it fails to render); for a rewrite it is the parent's length, for a cross
 * the mean of the parents' lengths. {@code {label}} is absent when the task has none, so a
 * template that uses it fails to render for unlabelled tasks. {@code {keywords}} is the task's
 * keywords joined by ", ", or {@link #NO_KEYWORDS} when it has none. {@code {masked_parent}} is the
 * parent masked by {@link FillInMasking#mask} with the task's probability and the caller's RNG.
 *
 * <p>The default wording is our own (inspired by, not copied from, the prompts of Aug-PE and
 * DPGA-TextSyn, Tables 7 and 9).
 */
public final class PromptTemplates {

  /** The value of {@code {keywords}} for a random task without keywords. */
  public static final String NO_KEYWORDS = "none in particular";

  private final String domain;
  private final Map<Operator, PromptTemplate> templates;

  private PromptTemplates(String domain, Map<Operator, PromptTemplate> templates) {
    this.domain = domain;
    this.templates = templates;
  }

  /**
   * A set of templates.
   *
   * @param domain the value of {@code {domain}}, e.g. "a support ticket"
   * @param templates exactly one template per operator
   */
  public static PromptTemplates of(String domain, List<PromptTemplate> templates) {
    Objects.requireNonNull(domain, "domain");
    if (domain.isBlank()) {
      throw new IllegalArgumentException("domain must not be blank");
    }
    Map<Operator, PromptTemplate> m = new EnumMap<>(Operator.class);
    for (PromptTemplate t : templates) {
      if (m.put(t.operator(), t) != null) {
        throw new IllegalArgumentException("two templates for operator " + t.operator());
      }
    }
    for (Operator op : Operator.values()) {
      if (!m.containsKey(op)) {
        throw new IllegalArgumentException("no template for operator " + op);
      }
    }
    return new PromptTemplates(domain, m);
  }

  /** The default templates of a domain. */
  public static PromptTemplates defaults(Domain domain) {
    Objects.requireNonNull(domain, "domain");
    String key = domain.name().toLowerCase(Locale.ROOT);
    String sys = systemFor(domain);
    String style = styleFor(domain);
    String tail = " Reply with the new text only, without a title, preamble or comments.";
    return of(
        domain.description(),
        List.of(
            PromptTemplate.of(key + "/random", Operator.RANDOM, sys,
                "Write {domain} of about {target_words} words. " + style + tail),
            PromptTemplate.of(key + "/keywords", Operator.KEYWORDS, sys,
                "Write {domain} of about {target_words} words about these topics: {keywords}. "
                    + style + tail),
            PromptTemplate.of(key + "/metadata", Operator.METADATA, sys,
                "Write {domain} in the category \"{label}\", about {target_words} words long."
                    + " Themes to touch on: {keywords}. " + style + tail),
            PromptTemplate.of(key + "/fill-in", Operator.FILL_IN, sys,
                "Below is {domain} in which some words were replaced by the blank \"_\".\n\n"
                    + "{masked_parent}\n\n"
                    + "Guess a plausible word or phrase for every blank and write out the"
                    + " completed text, about {target_words} words long. Keep the unmasked"
                    + " words and the overall meaning. " + style + tail),
            PromptTemplate.of(key + "/rewrite", Operator.REWRITE, sys,
                "Here is {domain}:\n\n{parent}\n\n"
                    + "Write a new version of it with a clearly different wording, structure and"
                    + " tone, keeping its subject and its overall verdict or purpose. It should"
                    + " be about {target_words} words long. " + style + tail),
            PromptTemplate.of(key + "/cross", Operator.CROSS, sys,
                "Here are two examples of {domain}.\n\nFirst:\n{first}\n\nSecond:\n{second}\n\n"
                    + "Write one new text of the same kind that blends ideas, details and style"
                    + " from both, about {target_words} words long, without copying whole"
                    + " sentences from either. " + style + tail)));
  }

  private static String systemFor(Domain d) {
    return switch (d) {
      case REVIEWS -> "You write realistic, varied customer and peer reviews.";
      case ABSTRACTS -> "You write realistic abstracts of scientific papers in a journal's register.";
      case EMAIL -> "You write realistic, ordinary e-mail messages between people and teams.";
    };
  }

  private static String styleFor(Domain d) {
    return switch (d) {
      case REVIEWS ->
          "Sound like a real reviewer: concrete observations, an opinion, natural phrasing.";
      case ABSTRACTS ->
          "Use the usual background, methods, results and conclusion flow and precise,"
              + " formal language.";
      case EMAIL ->
          "Include a greeting and a sign-off, and invent names and details rather than"
              + " reusing any that look real.";
    };
  }

  /** The value of {@code {domain}}. */
  public String domain() {
    return domain;
  }

  /** The template of an operator. */
  public PromptTemplate template(Operator operator) {
    return templates.get(Objects.requireNonNull(operator, "operator"));
  }

  /** A copy with {@code template} replacing the one of its operator. */
  public PromptTemplates with(PromptTemplate template) {
    Objects.requireNonNull(template, "template");
    Map<Operator, PromptTemplate> m = new EnumMap<>(templates);
    m.put(template.operator(), template);
    return new PromptTemplates(domain, m);
  }

  /** A copy with another {@code {domain}} value. */
  public PromptTemplates withDomain(String newDomain) {
    return of(newDomain, List.copyOf(templates.values()));
  }

  /** The operator whose template renders {@code task}. */
  public static Operator operatorFor(GenerationTask task) {
    Objects.requireNonNull(task, "task");
    if (task instanceof GenerationTask.Random r) {
      if (r.label() != null) {
        return Operator.METADATA;
      }
      return r.keywords().isEmpty() ? Operator.RANDOM : Operator.KEYWORDS;
    } else if (task instanceof GenerationTask.FillIn) {
      return Operator.FILL_IN;
    } else if (task instanceof GenerationTask.Rewrite) {
      return Operator.REWRITE;
    } else if (task instanceof GenerationTask.Cross) {
      return Operator.CROSS;
    }
    throw new IllegalArgumentException("unsupported task type " + task.getClass().getName());
  }

  /**
   * Renders {@code task} with its operator's template.
   *
   * @param rng randomness for the fill-in mask (unused by other operators)
   * @throws IllegalArgumentException naming a placeholder the task gives no value for
   */
  public List<ChatMessage> render(GenerationTask task, RandomGenerator rng) {
    Objects.requireNonNull(rng, "rng");
    Operator op = operatorFor(task);
    Map<String, String> v = new HashMap<>();
    v.put("domain", domain);
    if (task instanceof GenerationTask.Random r) {
      putTarget(v, r.targetWords());
      putLabel(v, r.label());
      v.put("keywords", r.keywords().isEmpty() ? NO_KEYWORDS : String.join(", ", r.keywords()));
    } else if (task instanceof GenerationTask.FillIn f) {
      putTarget(v, f.targetWords() > 0 ? f.targetWords() : FillInMasking.wordCount(f.parent()));
      putLabel(v, f.label());
      v.put("masked_parent", FillInMasking.mask(f.parent(), f.maskProbability(), rng));
    } else if (task instanceof GenerationTask.Rewrite w) {
      putTarget(v, FillInMasking.wordCount(w.parent()));
      putLabel(v, w.label());
      v.put("parent", w.parent());
    } else if (task instanceof GenerationTask.Cross c) {
      putTarget(v, (FillInMasking.wordCount(c.first()) + FillInMasking.wordCount(c.second()) + 1) / 2);
      putLabel(v, c.label());
      v.put("first", c.first());
      v.put("second", c.second());
    }
    return templates.get(op).render(v);
  }

  /** Renders {@code task} into a complete request. */
  public GenerationRequest request(GenerationTask task, GenerationParams params, RandomGenerator rng) {
    return new GenerationRequest(render(task, rng), task, params);
  }

  private static void putTarget(Map<String, String> v, int words) {
    if (words > 0) {
      v.put("target_words", Integer.toString(words));
    }
  }

  private static void putLabel(Map<String, String> v, String label) {
    if (label != null) {
      v.put("label", label);
    }
  }

  @Override
  public String toString() {
    return "PromptTemplates{domain=" + domain + ", templates=" + templates.values().stream()
        .map(PromptTemplate::name).toList() + "}";
  }
}
