package dev.secpe.core.report;

/** The phases of one evolution round, timed apart as SecPE's Table 2 reports them. */
public enum Phase {
  /** LLM generation of candidates and variations. */
  GENERATION,
  /** Embedding candidates (and, once, the private and public data). */
  EMBEDDING,
  /** Voting / histogram, noise and selection. */
  SELECTION
}
