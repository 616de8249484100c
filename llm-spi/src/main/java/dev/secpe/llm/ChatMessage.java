package dev.secpe.llm;

import java.util.Objects;

/**
 * One message of a chat prompt.
 *
 * @param role "system", "user" or "assistant"
 * @param content the text
 */
public record ChatMessage(String role, String content) {

  /** Validates eagerly. */
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
  }

  /** A system message. */
  public static ChatMessage system(String content) {
    return new ChatMessage("system", content);
  }

  /** A user message. */
  public static ChatMessage user(String content) {
    return new ChatMessage("user", content);
  }
}
