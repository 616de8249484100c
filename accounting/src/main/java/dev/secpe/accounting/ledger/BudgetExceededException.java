package dev.secpe.accounting.ledger;

/** A release was refused because it would exceed the ledger's limit; no noise was drawn. */
public final class BudgetExceededException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message naming the release and the limit. */
  public BudgetExceededException(String message) {
    super(message);
  }
}
