/**
 * The shared vocabulary of every method: records and datasets, reading and writing them, secret
 * detection, privacy budgets and the privacy report.
 */
module dev.secpe.core {
  requires static org.jspecify;
  requires transitive dev.secpe.accounting;
  requires transitive dev.secpe.llm;
  // Transitive: PrivacyReportJson.toTree, in an exported package, returns a Jackson ObjectNode.
  requires transitive com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.dataformat.csv;
  // PiiDetector's phone numbers (an automatic module: Google's libphonenumber).
  requires com.google.i18n.phonenumbers.libphonenumber;

  exports dev.secpe.core;
  exports dev.secpe.core.io;
  exports dev.secpe.core.report;
  exports dev.secpe.core.secret;

  uses dev.secpe.core.secret.SecretDetectorProvider;

  provides dev.secpe.core.secret.SecretDetectorProvider with
      dev.secpe.core.secret.SecretDetectors.PiiRegexProvider,
      dev.secpe.core.secret.SecretDetectors.DictionaryProvider,
      dev.secpe.core.secret.SecretDetectors.NamesProvider;
}
