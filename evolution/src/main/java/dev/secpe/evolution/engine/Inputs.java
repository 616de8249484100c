package dev.secpe.evolution.engine;

import dev.secpe.core.PublicCorpus;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import java.util.List;

/** The data and services of a run (kept out of the config records, which stay printable). */
public record Inputs(
    PrivateStore privateData, PublicCorpus publicData, TextGenerator generator, TextEmbedder embedder) {

/** An absent public corpus is an empty one. */
  public Inputs {
    if (publicData == null) {
      publicData = PublicCorpus.of(List.of());
    }
  }
}
