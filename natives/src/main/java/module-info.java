/**
 * The per-user cache of native libraries extracted from jars. Internal to SecPE: exported only to
 * the modules that load native code (which this module, below them, cannot see when it is compiled:
 * hence the suppressed "module not found" warnings).
 */
@SuppressWarnings("module")
module dev.secpe.natives {
  requires static org.jspecify;
  exports dev.secpe.natives to
      dev.secpe.llm.embedded,
      dev.secpe.accounting.ortools;
}
