package com.example.adapters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.langchain4j.LangChain4jTextEmbedder;
import dev.secpe.llm.langchain4j.LangChain4jTextGenerator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The LangChain4j adapter in a plain Maven project: the resolved jars run together. */
class LangChain4jConsumerTest {

  @Test
  void generatesAndEmbedsThroughStubModels() {
    ChatModel chat = new ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        return ChatResponse.builder().aiMessage(AiMessage.from("a synthetic ticket")).build();
      }
    };
    EmbeddingModel embedding = new EmbeddingModel() {
      @Override
      public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        return Response.from(segments.stream().map(s -> Embedding.from(new float[] {3f, 4f})).toList());
      }

      @Override
      public int dimension() {
        return 2;
      }
    };
    try (TextGenerator gen = LangChain4jTextGenerator.builder(chat).build();
        TextEmbedder emb = LangChain4jTextEmbedder.builder(embedding).locality(Locality.LOCAL).build()) {
      GenerationRequest r = new GenerationRequest(List.of(ChatMessage.user("write a ticket")),
          new GenerationTask.Random(null, List.of(), 0), GenerationParams.defaults());
      assertEquals("a synthetic ticket", gen.generate(List.of(r)).get(0).text());
      float[] v = emb.embed(List.of("text"))[0];
      assertEquals(1.0, Math.hypot(v[0], v[1]), 1e-6); // 3-4-5: the adapter normalises
    }
  }
}
