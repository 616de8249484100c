package dev.secpe.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.secret.SecretNoise;
import dev.secpe.accounting.secret.SecretNoiseResult;
import dev.secpe.core.io.InputFiles;
import dev.secpe.core.io.InputStalledException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code secpe privacy secret-noise}: SecPE Algorithm 1 on a JSONL file of records. */
@Command(
    name = "secret-noise",
    description = {
      "SecPE SECRETNOISE (Alg. 1): solves the LP (6) for the sampling probabilities rho and the"
          + " least sigma giving every secret (p, r)-secret protection. Prints"
          + " {\"sigma\": ..., \"records\": n, \"secrets\": m, \"expected_sampled\": sum rho}.",
      "Input lines: {\"id\": \"...\", \"secrets\": [\"s1\", \"s7\"]}. Secret names never appear in"
          + " output or error messages.",
      "The shift multiplier defaults to sqrt(2): secret clustering releases counts AND centres,"
          + " whose joint normalised shift is sqrt(2) S (docs/math-decisions.md §4; the paper's Theorem 1 uses 1)."
          + " Use --shift-multiplier 1 for a count-only release."
    })
final class SecretNoiseCommand extends PrivacyOptions.JsonAnswer {

  @Option(names = "--records", required = true, description = "JSONL file of records")
  Path records;

  @Mixin PrivacyOptions.Prior prior;
  @Mixin PrivacyOptions.Posterior posterior;

  @Option(names = "--rounds", defaultValue = "1", description = "releases T (default 1)")
  int rounds;

  @Option(
      names = "--shift-multiplier",
      defaultValue = "1.4142135623730951",
      description = "shift multiplier c (default sqrt(2) = 1.4142135623730951)")
  double shiftMultiplier;

  @Override
  Map<String, ?> answer() throws Exception {
    SecretBudget budget = new SecretBudget(prior.p, posterior.r);
    ObjectMapper mapper = new ObjectMapper();
    List<int[]> secretsOfRecord = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        InputFiles.open(records, InputFiles.DEFAULT_STALL_TIMEOUT), StandardCharsets.UTF_8))) {
      String line;
      int lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode node;
        try {
          node = mapper.readTree(line);
        } catch (JsonProcessingException e) {
          throw new IllegalArgumentException("records line " + lineNo + " is not valid JSON");
        }
        JsonNode secrets = node == null ? null : node.get("secrets");
        if (secrets == null || !secrets.isArray()) {
          throw new IllegalArgumentException(
              "records line " + lineNo + " needs a \"secrets\" array of strings");
        }
        int[] ids = new int[secrets.size()];
        for (int k = 0; k < ids.length; k++) {
          JsonNode s = secrets.get(k);
          if (!s.isTextual()) {
            throw new IllegalArgumentException(
                "records line " + lineNo + ": secrets must be strings (entry " + k + ")");
          }
          ids[k] = index.computeIfAbsent(s.asText(), key -> index.size());
        }
        secretsOfRecord.add(ids);
      }
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("records file not found: " + records);
    } catch (InputStalledException e) {
      throw new IllegalArgumentException("--records: " + e.getMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read records file " + records + ": " + e.getClass().getSimpleName());
    }
    if (secretsOfRecord.isEmpty()) {
      throw new IllegalArgumentException("records file has no records: " + records);
    }
    SecretNoiseResult res = SecretNoise.builder()
        .records(secretsOfRecord, index.size())
        .uniformBudget(budget)
        .rounds(rounds)
        .shiftMultiplier(shiftMultiplier)
        .solve();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("sigma", res.sigma());
    out.put("records", res.records());
    out.put("secrets", res.secrets());
    out.put("expected_sampled", res.expectedSampled());
    return out;
  }
}
