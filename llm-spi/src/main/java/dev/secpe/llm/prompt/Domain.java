package dev.secpe.llm.prompt;

/** The data domains with default prompt templates ({@link PromptTemplates#defaults(Domain)}). */
public enum Domain {
  /** Product, restaurant or paper reviews (Yelp, OpenReview). */
  REVIEWS("a review"),
  /** Scientific paper abstracts (PubMed). */
  ABSTRACTS("an abstract of a scientific paper"),
  /** Work or personal e-mail messages. */
  EMAIL("an e-mail message");

  private final String description;

  Domain(String description) {
    this.description = description;
  }

  /** The value of the {@code {domain}} placeholder, e.g. "a review". */
  public String description() {
    return description;
  }
}
