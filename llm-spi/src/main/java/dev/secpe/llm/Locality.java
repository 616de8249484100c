package dev.secpe.llm;

/** Where a model runs: in this process/host ({@code LOCAL}) or behind the network ({@code REMOTE}). */
public enum Locality {
  /** Runs in-process or on this host; text never leaves it. */
  LOCAL,
  /** Runs behind a network endpoint; text sent to it leaves this process. */
  REMOTE
}
