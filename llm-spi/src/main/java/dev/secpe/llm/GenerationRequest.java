package dev.secpe.llm;

import java.util.List;
import java.util.Objects;

/**
 * One generation request: the rendered chat prompt (for instruction-following models), the
 * structured task it stands for (for in-process generators), and sampling parameters.
 *
 * @param messages the prompt as chat messages (non-empty)
 * @param task the structured operator
 * @param params sampling parameters
 */
public record GenerationRequest(
    List<ChatMessage> messages, GenerationTask task, GenerationParams params) {

  /** Validates eagerly and copies the message list. */
  public GenerationRequest {
    messages = List.copyOf(messages);
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("messages must not be empty");
    }
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(params, "params");
  }
}
