/**
 * Domain model: private, public and synthetic records, labels, datasets and embedding matrices.
 *
 * <p>Privacy is enforced by types. The text of a {@link dev.secpe.core.PrivateRecord} is a
 * {@link dev.secpe.core.PrivateText}: it prints as {@code PrivateText[redacted, N chars]} and its
 * content leaves it only through the narrow gates of {@link dev.secpe.core.PrivateTexts}
 * (embedding and secret detection, both refusing a {@link dev.secpe.llm.Locality#REMOTE} service
 * unless a {@link dev.secpe.core.PrivacyGuard} allows it) and local, aggregate-only views
 * ({@link dev.secpe.core.PrivateText#length()}, {@link dev.secpe.core.PrivateText#wordCount()},
 * {@link dev.secpe.core.PrivateText#containedTerms(java.util.List)}). Code that talks to a text
 * generator therefore has no way to hand it private text by accident.
 */
@NullMarked
package dev.secpe.core;

import org.jspecify.annotations.NullMarked;
