/** Utility of synthetic text: FID, KID, MAUVE, precision/recall and downstream accuracy. */
module dev.secpe.evaluation {
  requires static org.jspecify;
  requires transitive dev.secpe.core;
  // Neither jar carries a module name: these are the names the JDK derives from the jars.
  requires hipparchus.core;
  requires liblinear;

  exports dev.secpe.evaluation;
}
