/** Utility of synthetic text: FID, KID, MAUVE, precision/recall and downstream accuracy. */
module dev.secpe.evaluation {
  requires static org.jspecify;
  requires transitive dev.secpe.core;
  requires ojalgo; // a named module (its jar has a descriptor)

  exports dev.secpe.evaluation;
}
