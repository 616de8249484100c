package dev.secpe.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options and the answer the {@code secpe privacy} calculators share, declared once: each is a
 * picocli mixin ({@code @Mixin}), so its name, description and help line are the same wherever it
 * appears. The one-option mixins look alike line for line: that is the shape of a mixin, not an
 * idea written twice.
 */
final class PrivacyOptions {

  private PrivacyOptions() {}

  /** A calculator that answers with one JSON object on stdout (exit code 0). */
  @Command(mixinStandardHelpOptions = true)
  abstract static class JsonAnswer implements Callable<Integer> {
    @Spec CommandSpec spec;

    /** The answer, written as one JSON object. */
    abstract Map<String, ?> answer() throws Exception;

    @Override
    public final Integer call() throws Exception {
      return JsonOut.print(spec, answer());
    }
  }

  /** {@code --p}: the adversary's prior success probability. */
  static final class Prior {
    @Option(names = "--p", required = true, description = "prior success probability, in (0, 1)")
    double p;
  }

  /** {@code --r}: the bound on the adversary's posterior success probability. */
  static final class Posterior {
    @Option(names = "--r", required = true, description = "posterior bound, in (p, 1)")
    double r;
  }

  /** {@code --mu}: the GDP parameter. */
  static final class Mu {
    @Option(names = "--mu", required = true, description = "GDP parameter, >= 0")
    double mu;
  }

  /** {@code --epsilon} and {@code --delta}: an (epsilon, delta)-DP budget. */
  static final class EpsilonDelta {
    @Option(names = "--epsilon", required = true, description = "epsilon > 0")
    double epsilon;

    @Option(names = "--delta", required = true, description = "delta in (0, 1)")
    double delta;
  }
}
