/**
 * The provider test kit: contract tests ({@link dev.secpe.llm.testkit.TextGeneratorContract},
 * {@link dev.secpe.llm.testkit.TextEmbedderContract}) that a provider author implements in a test
 * to check their provider, and deterministic fakes ({@link
 * dev.secpe.llm.testkit.FakeTextGenerator}, {@link dev.secpe.llm.testkit.FakeTextEmbedder}) with
 * failure injection ({@link dev.secpe.llm.testkit.FaultPlan}) for testing code that uses
 * providers.
 */
@NullMarked
package dev.secpe.llm.testkit;

import org.jspecify.annotations.NullMarked;
