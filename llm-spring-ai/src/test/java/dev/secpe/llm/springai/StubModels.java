package dev.secpe.llm.springai;

import dev.secpe.llm.testkit.FakeTextEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/** Spring AI models that run here, deterministic, recording what they were sent. */
final class StubModels {

  private StubModels() {}

  /**
   * A chat model whose reply is a rotation (by a hash of the whole prompt) of the words of the last
   * user message, as many as the options' {@code maxTokens} allows (finish reason "LENGTH" when it
   * cuts, else "STOP"); usage counts words.
   */
  static final class Chat implements ChatModel {
    final List<Prompt> prompts = new CopyOnWriteArrayList<>();

    @Override
    public ChatResponse call(Prompt prompt) {
      prompts.add(prompt);
      String user = "";
      for (Message m : prompt.getInstructions()) {
        if (m instanceof UserMessage u) {
          user = u.getText();
        }
      }
      String[] words = user.isBlank() ? new String[] {"empty"} : user.trim().split("\\s+");
      int shift = Math.floorMod(prompt.getInstructions().toString().hashCode(), words.length);
      Integer max = prompt.getOptions() == null ? null : prompt.getOptions().getMaxTokens();
      int n = Math.min(words.length, max == null ? words.length : max);
      List<String> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        out.add(words[(shift + i) % words.length]);
      }
      Generation g = new Generation(new AssistantMessage(String.join(" ", out)),
          ChatGenerationMetadata.builder().finishReason(n < words.length ? "LENGTH" : "STOP").build());
      return new ChatResponse(List.of(g),
          ChatResponseMetadata.builder().usage(new DefaultUsage(words.length, n)).build());
    }
  }

  /** An embedding model giving the testkit's fake vectors times 3 (so the adapter must normalise). */
  static class Embeddings implements EmbeddingModel {
    final FakeTextEmbedder vectors = FakeTextEmbedder.builder().dimension(16).build();
    final List<List<String>> batches = new CopyOnWriteArrayList<>();

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
      batches.add(request.getInstructions());
      List<Embedding> out = new ArrayList<>();
      for (String t : request.getInstructions()) {
        float[] v = vectors.vector(t).clone();
        for (int j = 0; j < v.length; j++) {
          v[j] *= 3;
        }
        out.add(new Embedding(v, out.size()));
      }
      return new EmbeddingResponse(out);
    }

    @Override
    public float[] embed(Document document) {
      return call(new EmbeddingRequest(List.of(document.getText()), null)).getResult().getOutput();
    }

    @Override
    public int dimensions() {
      return 16;
    }
  }
}
