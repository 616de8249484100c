/** The blocked nearest-neighbour kernel, k-means and SecPE's secret clustering. */
package dev.secpe.clustering;
