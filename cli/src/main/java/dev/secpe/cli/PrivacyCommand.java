package dev.secpe.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code secpe privacy ...}: the privacy calculator. */
@Command(
    name = "privacy",
    mixinStandardHelpOptions = true,
    description = "Privacy calculator: conversions, calibrations and accounting.",
    subcommands = {
      GdpCommands.SecretToGdp.class,
      GdpCommands.GdpToSecret.class,
      GdpCommands.GdpToDp.class,
      GdpCommands.Gaussian.class,
      GdpCommands.PeNoise.class,
      DpsgdCommand.class,
      BlowupCommand.class,
      SecretNoiseCommand.class,
      JournalCommands.Spent.class,
      JournalCommands.Limit.class
    })
final class PrivacyCommand implements Runnable {

  @Spec CommandSpec spec;

  /** {@code secpe privacy} alone is bad input: a subcommand is required. */
  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing required subcommand");
  }
}
