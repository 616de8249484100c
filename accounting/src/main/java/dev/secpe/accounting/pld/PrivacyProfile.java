package dev.secpe.accounting.pld;

/**
 * The hockey-stick divergence {@code delta(eps) = sup_E P(E) - e^eps Q(E)} of a dominating pair,
 * evaluated exactly (to floating-point accuracy) at any real {@code eps}, together with a range
 * of privacy losses outside of which the pair has negligible P-mass. Package-private: the input
 * of the connect-the-dots discretisation.
 */
interface PrivacyProfile {

  /** delta(eps) for any real eps; non-increasing, and convex as a function of e^eps. */
  double delta(double eps);

  /** A loss below which P has negligible mass (the left end of the grid). */
  double lowLoss();

  /** A loss above which delta is negligible (the right end of the grid). */
  double highLoss();
}
