package dev.secpe.llm;

import java.util.Objects;

/**
 * One generated text.
 *
 * @param text the generated text
 * @param finishReason why generation stopped
 * @param promptTokens tokens in the prompt (0 if unknown)
 * @param completionTokens tokens generated (0 if unknown)
 */
public record GenerationResult(
    String text, FinishReason finishReason, int promptTokens, int completionTokens) {

  /** Validates eagerly. */
  public GenerationResult {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(finishReason, "finishReason");
  }

  /** Why a generation ended. */
  public enum FinishReason {
    /** A natural end or a stop sequence. */
    STOP,
    /** The token limit. */
    LENGTH,
    /** Filtered by the provider. */
    CONTENT_FILTER,
    /** Unknown or not reported. */
    OTHER
  }
}
