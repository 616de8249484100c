/**
 * Prompt templates for the evolution operators (random, keyword- and metadata-conditioned
 * generation, fill-in, rewrite, cross) with defaults for reviews, abstracts and e-mail, and the
 * Aug-PE fill-in masking helper. Rendering takes an explicit {@link java.util.random.RandomGenerator};
 * there is no global RNG.
 */
@NullMarked
package dev.secpe.llm.prompt;

import org.jspecify.annotations.NullMarked;
