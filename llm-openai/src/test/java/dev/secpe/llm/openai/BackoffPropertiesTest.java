package dev.secpe.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class BackoffPropertiesTest {

  /** Equals min(max, initial * 2^attempt) computed exactly, for any sizes (no overflow). */
  @Property(tries = 500)
  void ceilingIsTheCappedDoubling(
      @ForAll @IntRange(min = 0, max = 200) int attempt,
      @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long initial,
      @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long max) {
    long lo = Math.min(initial, max);
    BigInteger exact = BigInteger.valueOf(lo).shiftLeft(attempt).min(BigInteger.valueOf(max));
    assertThat(OpenAiHttp.backoffCeilingNanos(attempt, initial, max)).isEqualTo(exact.longValueExact());
  }

  @Property(tries = 200)
  void ceilingNeverDecreasesWithAttempts(
      @ForAll @IntRange(min = 0, max = 100) int attempt,
      @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long initial,
      @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long max) {
    assertThat(OpenAiHttp.backoffCeilingNanos(attempt + 1, initial, max))
        .isGreaterThanOrEqualTo(OpenAiHttp.backoffCeilingNanos(attempt, initial, max));
  }
}
