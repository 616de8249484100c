/**
 * Run events and reports: the types the evolution engine fills. {@link
 * dev.secpe.core.report.RunListener} receives {@link dev.secpe.core.report.RunEvent}s while a run
 * progresses; a finished run leaves a {@link dev.secpe.core.report.PrivacyReport}, written as JSON
 * by {@link dev.secpe.core.report.PrivacyReportJson}. Reports hold public facts only: mechanisms,
 * budgets, noise scales, provider names, timings; never private text, secret values or
 * per-secret counts.
 */
@NullMarked
package dev.secpe.core.report;

import org.jspecify.annotations.NullMarked;
