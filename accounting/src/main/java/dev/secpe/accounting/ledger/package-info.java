/**
 * The privacy ledger: every release recorded (mechanism, sensitivity, noise, what it protects,
 * cost), refused past the budget before any noise is drawn, composed and reported as (p, r) per
 * secret, mu-GDP and (epsilon, delta); snapshots restore a checkpointed run without charging a
 * release twice.
 */
@NullMarked
package dev.secpe.accounting.ledger;

import org.jspecify.annotations.NullMarked;
