/** A custom LLM provider, registered through {@code META-INF/services}. */
@NullMarked
package dev.secpe.examples.provider;

import org.jspecify.annotations.NullMarked;
