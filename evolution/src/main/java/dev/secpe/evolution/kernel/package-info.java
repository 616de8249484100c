/**
 * What counting over private embeddings needs, beneath both the public face and the engine
 * (internal: not exported by the module, no compatibility promise): {@link
 * dev.secpe.evolution.kernel.Kernel}, the nearest-neighbour kernel every vote, selection and
 * private store counts with (cosine over row subsets, centred on a vote centre where asked, the
 * clustering module's exact tie rule), and {@link dev.secpe.evolution.kernel.InProcessEmbeddings},
 * the contract of a store whose embeddings are in this JVM. {@link dev.secpe.evolution.PrivateStore}
 * (its {@code countNearest}, and the in-memory store) and the engine both use them, so that
 * neither reaches into the other; this package reads nothing of the packages above it.
 */
@NullMarked
package dev.secpe.evolution.kernel;

import org.jspecify.annotations.NullMarked;
