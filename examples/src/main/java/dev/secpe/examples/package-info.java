/** Runnable examples of the public API. */
@NullMarked
package dev.secpe.examples;

import org.jspecify.annotations.NullMarked;
