/** Runnable examples of the public API. */
package dev.secpe.examples;
