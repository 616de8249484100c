/** The privacy ledger: every release recorded, composed, and refused past the budget. */
package dev.secpe.accounting.ledger;
