/**
 * Private evolution: SecPE, Aug-PE, DPGA-TextSyn and CTCL behind one engine, their builders,
 * run results and checkpoints. The only module most applications add.
 */
module dev.secpe.evolution {
  requires static org.jspecify;
  requires transitive dev.secpe.core;
  requires transitive dev.secpe.clustering;
  requires com.fasterxml.jackson.databind;

  exports dev.secpe.evolution;
}
