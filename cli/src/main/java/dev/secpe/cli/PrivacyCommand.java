package dev.secpe.cli;

import picocli.CommandLine.Command;

/** {@code secpe privacy ...}: the privacy calculator. */
@Command(
    name = "privacy",
    mixinStandardHelpOptions = true,
    description = "Privacy calculator: conversions, calibrations and accounting.",
    subcommands = {DpsgdCommand.class, BlowupCommand.class, SecretNoiseCommand.class})
final class PrivacyCommand {}
