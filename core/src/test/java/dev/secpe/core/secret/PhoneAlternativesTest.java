package dev.secpe.core.secret;

import com.google.i18n.phonenumbers.PhoneNumberUtil.Leniency;
import dev.secpe.llm.Locality;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The measurement behind {@link PhoneNumbers#recallFirst}'s choice: libphonenumber's passes and
 * leniencies on the recall set's phone spellings, with the time each takes. Not an assertion: it
 * writes {@code core/target/phone-alternatives.md} (docs/detector-recall.md quotes it). Tagged slow
 * (a few seconds a variant); {@code bin/detector-recall --phones} runs it.
 */
@Tag("slow")
class PhoneAlternativesTest {

  private static SecretDetector of(PhoneNumbers p) {
    return new SecretDetector() {
      @Override
      public String name() {
        return "phones";
      }

      @Override
      public Locality locality() {
        return Locality.LOCAL;
      }

      @Override
      public List<SecretMatch> detect(String text) {
        List<SecretMatch> out = new ArrayList<>();
        p.find(text, "phone", out);
        return out;
      }
    };
  }

  @Test
  void alternatives() throws IOException {
    RecallSet set = RecallSet.load();
    List<String> regions = PhoneNumbers.VALID_REGIONS;
    Object[][] variants = {
      {"US at POSSIBLE", new PhoneNumbers("US", List.of(), Leniency.POSSIBLE)},
      {"US at VALID", new PhoneNumbers("US", List.of(), Leniency.VALID)},
      {"US + GB, DE, FR, all at VALID", new PhoneNumbers("US", List.of("GB", "DE", "FR"), Leniency.VALID)},
      {"US + 23 regions, all at VALID", new PhoneNumbers("US", regions, Leniency.VALID)},
      {"US at POSSIBLE + GB, DE, FR at VALID", new PhoneNumbers("US", List.of("GB", "DE", "FR"), Leniency.POSSIBLE)},
      {"US at POSSIBLE + 23 regions at VALID (the default)", PhoneNumbers.recallFirst()},
    };
    List<DetectorRecall.Result> rs = new ArrayList<>();
    StringBuilder times = new StringBuilder("| variant | ms per 1,000 texts (median of 5 passes) |\n|---|---:|\n");
    for (Object[] v : variants) {
      SecretDetector d = of((PhoneNumbers) v[1]);
      for (RecallSet.Item i : set.items()) {
        d.detect(i.text()); // warm up
      }
      long[] ns = new long[5];
      for (int rep = 0; rep < ns.length; rep++) {
        long t0 = System.nanoTime();
        for (RecallSet.Item i : set.items()) {
          d.detect(i.text());
        }
        ns[rep] = System.nanoTime() - t0;
      }
      java.util.Arrays.sort(ns);
      times.append(String.format(
          Locale.ROOT, "| %s | %.0f |%n", v[0], ns[2] / 1e6 * 1000 / set.items().size()));
      rs.add(DetectorRecall.measure(new DetectorRecall.Subject((String) v[0], d, Set.of("phone")), set));
    }
    String md = DetectorRecall.summaryTable(rs) + "\n" + times;
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target/phone-alternatives.md"), md, StandardCharsets.UTF_8);
  }
}
