package dev.secpe.llm.prompt;

import dev.secpe.llm.ChatMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A named, editable chat prompt for one {@link Operator}: a system message and a user message
 * with {@code {placeholder}} slots ({@code {{} and {@code }}} stand for literal braces).
 *
 * <p>Construction rejects placeholders the operator does not define ({@link
 * IllegalArgumentException} naming the placeholder and the allowed set); {@link #render(Map)}
 * rejects a template whose placeholder has no value ({@link IllegalArgumentException} naming the
 * placeholder). Immutable; edit with {@link #withSystem(String)} and {@link #withUser(String)}.
 *
 * @param name a name for reports, e.g. "reviews/fill-in"
 * @param operator the operator it renders
 * @param system the system message template (may be empty: then no system message is sent)
 * @param user the user message template (non-blank)
 */
public record PromptTemplate(String name, Operator operator, String system, String user) {

  /** Validates eagerly: every placeholder must belong to the operator. */
  public PromptTemplate {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(system, "system");
    Objects.requireNonNull(user, "user");
    if (user.isBlank()) {
      throw new IllegalArgumentException("user template must not be blank, template " + name);
    }
    for (String p : parse(system, name)) {
      checkAllowed(name, operator, p);
    }
    for (String p : parse(user, name)) {
      checkAllowed(name, operator, p);
    }
  }

  /** A template. */
  public static PromptTemplate of(String name, Operator operator, String system, String user) {
    return new PromptTemplate(name, operator, system, user);
  }

  /** A copy with another system message. */
  public PromptTemplate withSystem(String newSystem) {
    return new PromptTemplate(name, operator, newSystem, user);
  }

  /** A copy with another user message. */
  public PromptTemplate withUser(String newUser) {
    return new PromptTemplate(name, operator, system, newUser);
  }

  /** The placeholders used, in order of first appearance (system, then user). */
  public Set<String> placeholders() {
    Set<String> all = new LinkedHashSet<>(parse(system, name));
    all.addAll(parse(user, name));
    return Collections.unmodifiableSet(all);
  }

  /**
   * Fills the placeholders.
   *
   * @param values a value for at least every placeholder used (extra values are ignored)
   * @return a system message (when the system template is not empty) and a user message
   * @throws IllegalArgumentException naming the first placeholder without a value
   */
  public List<ChatMessage> render(Map<String, String> values) {
    Objects.requireNonNull(values, "values");
    List<ChatMessage> out = new ArrayList<>(2);
    if (!system.isEmpty()) {
      out.add(ChatMessage.system(fill(system, values)));
    }
    out.add(ChatMessage.user(fill(user, values)));
    return List.copyOf(out);
  }

  private String fill(String template, Map<String, String> values) {
    StringBuilder sb = new StringBuilder(template.length() + 256);
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c == '{' && i + 1 < template.length() && template.charAt(i + 1) == '{') {
        sb.append('{');
        i += 2;
      } else if (c == '}' && i + 1 < template.length() && template.charAt(i + 1) == '}') {
        sb.append('}');
        i += 2;
      } else if (c == '{') {
        int end = template.indexOf('}', i);
        String key = template.substring(i + 1, end);
        String v = values.get(key);
        if (v == null) {
          throw new IllegalArgumentException(
              "no value for placeholder {" + key + "} of template " + name);
        }
        sb.append(v);
        i = end + 1;
      } else {
        sb.append(c);
        i++;
      }
    }
    return sb.toString();
  }

  private static void checkAllowed(String name, Operator operator, String placeholder) {
    if (!operator.placeholders().contains(placeholder)) {
      throw new IllegalArgumentException(
          "unknown placeholder {" + placeholder + "} in template " + name + " for operator "
              + operator + "; allowed: " + new TreeSet<>(operator.placeholders()));
    }
  }

  /** The placeholder names in {@code template}; rejects unbalanced braces. */
  private static List<String> parse(String template, String name) {
    List<String> found = new ArrayList<>();
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      boolean doubled = i + 1 < template.length() && template.charAt(i + 1) == c;
      if ((c == '{' || c == '}') && doubled) {
        i += 2;
      } else if (c == '{') {
        int end = template.indexOf('}', i);
        if (end < 0) {
          throw new IllegalArgumentException(
              "unclosed '{' at index " + i + " of template " + name + " (write {{ for a literal brace)");
        }
        String key = template.substring(i + 1, end);
        if (!key.matches("[a-z_]+")) {
          throw new IllegalArgumentException(
              "bad placeholder {" + key + "} in template " + name
                  + " (names are lower_snake_case; write {{ for a literal brace)");
        }
        found.add(key);
        i = end + 1;
      } else if (c == '}') {
        throw new IllegalArgumentException(
            "unmatched '}' at index " + i + " of template " + name + " (write }} for a literal brace)");
      } else {
        i++;
      }
    }
    return found;
  }
}
