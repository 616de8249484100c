/**
 * A user's application on the module path: it reads SecPE's modules through their descriptors
 * only (no --add-opens, no --add-reads).
 */
module com.example.modular {
  requires dev.secpe.evolution;        // SecPE and, transitively, core, clustering, accounting, llm
  requires dev.secpe.llm.embedded;     // the n-gram generator (the embedder is found by name)
  requires dev.secpe.accounting.ortools; // only to check that its solvers are bound as services
  requires dev.secpe.evaluation;       // downstream accuracy (its classifier is its own: no LIBLINEAR)
}
