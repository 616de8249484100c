/**
 * Private evolution: the four methods' entry points ({@link dev.secpe.evolution.SecPE}, {@link
 * dev.secpe.evolution.AugPE}, {@link dev.secpe.evolution.DPGA}, {@link dev.secpe.evolution.CTCL}),
 * their builders and immutable configurations, the settings they share, the {@link
 * dev.secpe.evolution.PrivateStore} through which a run reaches private records, and the {@link
 * dev.secpe.evolution.RunResult}. This is the only package the module exports; the engine and
 * each method's steps live in sub-packages that are not part of the API.
 */
@NullMarked
package dev.secpe.evolution;

import org.jspecify.annotations.NullMarked;
