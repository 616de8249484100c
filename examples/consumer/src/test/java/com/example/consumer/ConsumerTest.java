package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.secret.PiiDetector;
import dev.secpe.evolution.RunResult;
import dev.secpe.evolution.SecPE;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a user does with secpe-evolution alone: their own providers, SecPE, a report. */
class ConsumerTest {

  @Test
  void secpeRunsWithOwnProvidersAndPrintsNothing() {
    List<PrivateRecord> priv = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String who = i % 3 == 0 ? " write to user" + (i % 7) + "@example.com" : "";
      priv.add(PrivateRecord.of("p" + i, "Subject: " + (i % 2 == 0 ? "project meeting update" : "free prize offer") + who));
    }
    List<String> pub = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      pub.add("Subject: " + (i % 2 == 0 ? "team schedule report " : "discount winner urgent ") + i);
    }
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunResult result;
    try (PrintStream capture = new PrintStream(console, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      System.setErr(capture);
      result = SecPE.builder()
          .privateData(PrivateDataset.of(priv))
          .publicData(PublicCorpus.ofTexts(pub))
          .generator(new TemplateGenerator())
          .embedder(new HashingEmbedder())
          .secrets(PiiDetector.all())
          .budget(SecretBudget.ofRatio(1e-4, 10))
          .syntheticSize(12)
          .iterations(2)
          .clusters(4)
          .build()
          .run();
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    String printed = console.toString(StandardCharsets.UTF_8);
    assertFalse(printed.contains("SLF4J"), "the library printed an SLF4J warning: " + printed);
    assertEquals("", printed, "the library printed on its own");
    assertEquals(12, result.dataset().size());
    assertTrue(result.report().toString().contains("secret"), result.report().toString());
  }
}
