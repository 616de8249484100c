/**
 * Reading datasets from JSON lines and CSV ({@link dev.secpe.core.io.DatasetReader}) and the
 * bundled SpamAssassin sample ({@link dev.secpe.core.io.BundledCorpus}). Error messages name the
 * source, line and field and never quote the records' text.
 */
@NullMarked
package dev.secpe.core.io;

import org.jspecify.annotations.NullMarked;
