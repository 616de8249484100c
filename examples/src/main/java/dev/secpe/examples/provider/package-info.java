/** A custom LLM provider, registered through {@code META-INF/services}. */
package dev.secpe.examples.provider;
