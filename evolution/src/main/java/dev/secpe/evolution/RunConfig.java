package dev.secpe.evolution;

/** What every method's configuration has: the shared settings. */
interface RunConfig {

  /** The settings every method shares. */
  EvolutionSettings settings();
}
