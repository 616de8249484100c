/**
 * The kernel's phase timings for {@code bin/secpe bench kernel} (not exported: no compatibility
 * promise).
 */
@NullMarked
package dev.secpe.clustering.internal;

import org.jspecify.annotations.NullMarked;
