/**
 * {@link dev.secpe.natives.NativeCache}: native libraries shipped inside jars, extracted once to a
 * per-user cache directory and reused. Internal to SecPE (the module exports this package to the
 * modules that load native code only); JDK only.
 */
@NullMarked
package dev.secpe.natives;

import org.jspecify.annotations.NullMarked;
