/** Domain model: records, labels, datasets, embeddings, secrets and secret detectors, reports. */
package dev.secpe.core;
