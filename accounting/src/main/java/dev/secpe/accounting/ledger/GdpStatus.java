package dev.secpe.accounting.ledger;

/** How the ledger's composition relates to mu-GDP. */
public enum GdpStatus {
  /** Every release is a Gaussian mechanism: the composed mu is exact (Dong et al. 2019). */
  EXACT,
  /**
   * Every release is dominated by a Gaussian mechanism (a subsampled Gaussian accounted without
   * its amplification, a SecPE mixture accounted at its largest shift): the composed mu is a valid
   * upper bound but not tight.
   */
  UPPER_BOUND,
  /** Some release is pure epsilon-DP (Laplace, SVT): the ledger does not claim a mu-GDP bound. */
  NOT_GDP
}
