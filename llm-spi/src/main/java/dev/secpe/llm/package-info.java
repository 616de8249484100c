/**
 * The service-provider interface through which private evolution talks to models: a {@link
 * dev.secpe.llm.TextGenerator} (random samples and variations of public or synthetic text) and a
 * {@link dev.secpe.llm.TextEmbedder}. JDK only.
 */
@NullMarked
package dev.secpe.llm;

import org.jspecify.annotations.NullMarked;
