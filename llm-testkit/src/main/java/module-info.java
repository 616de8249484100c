/**
 * Contract tests (jqwik, JUnit) and deterministic fakes with failure injection for provider
 * authors: extend the contracts in your own test sources to check a generator or an embedder.
 */
module dev.secpe.llm.testkit {
  requires static org.jspecify;
  requires transitive dev.secpe.llm;
  requires transitive net.jqwik.api;
  requires transitive org.junit.jupiter.api;

  exports dev.secpe.llm.testkit;
  // jqwik and JUnit instantiate the contract classes reflectively.
  opens dev.secpe.llm.testkit;
}
