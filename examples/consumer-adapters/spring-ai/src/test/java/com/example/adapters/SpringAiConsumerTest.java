package com.example.adapters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.springai.SpringAiTextEmbedder;
import dev.secpe.llm.springai.SpringAiTextGenerator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/** The Spring AI adapter in a plain Maven project: the resolved jars run together. */
class SpringAiConsumerTest {

  @Test
  void generatesAndEmbedsThroughStubModels() {
    ChatModel chat = new ChatModel() {
      @Override
      public ChatResponse call(Prompt prompt) {
        return new ChatResponse(List.of(new Generation(new AssistantMessage("a synthetic ticket"))));
      }
    };
    EmbeddingModel embedding = new EmbeddingModel() {
      @Override
      public EmbeddingResponse call(EmbeddingRequest request) {
        return new EmbeddingResponse(request.getInstructions().stream()
            .map(t -> new Embedding(new float[] {3f, 4f}, 0)).toList());
      }

      @Override
      public float[] embed(Document document) {
        return new float[] {3f, 4f};
      }

      @Override
      public int dimensions() {
        return 2;
      }
    };
    try (TextGenerator gen = SpringAiTextGenerator.builder(chat).build();
        TextEmbedder emb = SpringAiTextEmbedder.builder(embedding).locality(Locality.LOCAL).build()) {
      GenerationRequest r = new GenerationRequest(List.of(ChatMessage.user("write a ticket")),
          new GenerationTask.Random(null, List.of(), 0), GenerationParams.defaults());
      List<GenerationResult> out = gen.generate(List.of(r));
      assertEquals("a synthetic ticket", out.get(0).text());
      float[] v = emb.embed(List.of("text"))[0];
      assertEquals(1.0, Math.hypot(v[0], v[1]), 1e-6); // 3-4-5: the adapter normalises
    }
  }
}
