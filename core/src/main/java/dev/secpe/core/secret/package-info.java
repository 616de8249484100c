/**
 * Secrets and secret detectors (SecPE §3.1, §4.2).
 *
 * <p>A {@link dev.secpe.core.secret.SecretDetector} finds {@link
 * dev.secpe.core.secret.SecretMatch}es in a text. Built-ins: {@link
 * dev.secpe.core.secret.PiiDetector} (PII: e-mail, phone through libphonenumber, URL, IPv4/IPv6,
 * Luhn-checked card numbers), {@link dev.secpe.core.secret.NameDetector} (person names from a
 * gazetteer), {@link dev.secpe.core.secret.DictionaryDetector} (caller's terms),
 * {@link dev.secpe.core.secret.RandomWordSecrets} (the paper's random-word secrets chosen from
 * public word frequencies), {@link dev.secpe.core.secret.SecretDetectors#composite} and {@link
 * dev.secpe.core.secret.SecretDetectors#fromPiiService} for external PII services. Detectors are
 * run on private text only through {@link dev.secpe.core.PrivateTexts#detect}, which refuses a
 * {@link dev.secpe.llm.Locality#REMOTE} detector unless the {@link dev.secpe.core.PrivacyGuard}
 * allows it. {@link dev.secpe.core.secret.SecretIndex#scan} turns the matches over a private
 * dataset into the per-record secret indices {@code SecretNoise.builder().records(...)} takes.
 *
 * <p>Every built-in detector matches on one normalised view of the text, never on the raw text:
 * NFKC, full case folding ("İ", "ı", "I" are "i"), every default-ignorable code point removed
 * (zero-width space, ZWJ, soft hyphen, variation selectors, ...), every Unicode whitespace
 * character an ASCII one and every decimal digit its ASCII digit; spans are mapped back to the
 * scanned text. A secret is named by its canonical form in that view (a dictionary term as
 * configured, an e-mail address lower-cased, a number's digits), so one secret is one secret in
 * every spelling the view makes one. Homoglyphs across scripts, dropped accents, leetspeak and
 * words split by spaces or punctuation are not made one.
 *
 * <p>Nothing here prints a secret's value: {@link dev.secpe.core.secret.Secret} holds only a keyed
 * hash id and a kind, and {@link dev.secpe.core.secret.SecretMatch#toString()} is redacted.
 */
@NullMarked
package dev.secpe.core.secret;

import org.jspecify.annotations.NullMarked;
