/**
 * Utility metrics for synthetic text, computed on sentence embeddings and word counts: the
 * Fréchet distance between embedding sets (FID on text embeddings, as reported by SecPE and
 * DPGA-TextSyn), precision and recall of the synthetic manifold (Kynkäänniemi et al. 2019), MAUVE
 * (Pillutla et al. 2021), length-distribution distances, self-similarity (DPGA-TextSyn Fig. 3)
 * and downstream accuracy of a classifier trained on synthetic data and tested on real held-out
 * data.
 *
 * <p>Entry points: {@link dev.secpe.evaluation.Evaluation} (texts in, one {@link
 * dev.secpe.evaluation.EvaluationReport} out) and the single metrics {@link
 * dev.secpe.evaluation.FrechetDistance}, {@link dev.secpe.evaluation.ManifoldPrecisionRecall},
 * {@link dev.secpe.evaluation.Mauve}, {@link dev.secpe.evaluation.LengthDistance}, {@link
 * dev.secpe.evaluation.SelfSimilarity} and {@link dev.secpe.evaluation.DownstreamClassifier}.
 *
 * <p>Evaluation data: the "real" texts passed here are held-out evaluation data of the user. The
 * metrics are not differentially private; they are meant to be computed by the data holder, on
 * their own machine, to judge a synthetic dataset, and their values are not released by the
 * library.
 *
 * <p>Dependencies: ojAlgo (MIT) for eigen-decompositions and singular values; the
 * logistic-regression classifier is the library's own (LIBLINEAR's model, compared with LIBLINEAR
 * for Java in the tests). Smile (GPL-3.0) is deliberately not used.
 */
@NullMarked
package dev.secpe.evaluation;

import org.jspecify.annotations.NullMarked;
