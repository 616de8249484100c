package dev.secpe.llm.openai;

import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

/**
 * Throughput of {@link OpenAiTextGenerator} against the loopback server with a fixed injected
 * latency: achieved requests/s as a fraction of the ideal {@code concurrency / latency}, next to a
 * bare {@code java.net.http.HttpClient} loop with a semaphore (the reference, same process, same
 * server). Not a test; run it as a main class (command in the notes). Args: [latencyMs]
 * [requestsPerSlot] [concurrency...].
 */
public final class OpenAiThroughputBenchmark {

  private OpenAiThroughputBenchmark() {}

  public static void main(String[] args) throws Exception {
    long latencyMs = args.length > 0 ? Long.parseLong(args[0]) : 100;
    int perSlot = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    List<Integer> levels = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      levels.add(Integer.parseInt(args[i]));
    }
    if (levels.isEmpty()) {
      levels = List.of(1, 16, 64);
    }
    System.out.printf("latency=%d ms, requests per run = %d x concurrency, cores=%d, java=%s%n",
        latencyMs, perSlot, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    System.out.println("concurrency  ideal_rps  provider_rps  provider/ideal  bare_rps  bare/ideal"
        + "  cpu_us/req(provider)  cpu_us/req(bare)   [cpu = whole process, server included]");
    try (LoopbackOpenAi server = new LoopbackOpenAi(
        (id, a) -> LoopbackOpenAi.Fault.NONE, Duration.ofMillis(latencyMs), Duration.ZERO)) {
      for (int c : levels) {
        int n = c * perSlot;
        double ideal = c * 1000.0 / latencyMs;
        OpenAiConfig config = OpenAiConfig.builder()
            .endpoint(Endpoint.of(server.baseUrl(), "sk-bench"))
            .maxConcurrency(c)
            .requestTimeout(Duration.ofSeconds(30))
            .build();
        try (OpenAiTextGenerator gen = OpenAiTextGenerator.create(config)) {
          gen.generate(OpenAiTextGeneratorTest.requests(Math.min(n, 4 * c))); // warm-up
          List<GenerationRequest> reqs = OpenAiTextGeneratorTest.requests(n);
          long cpu0 = cpu();
          long t0 = System.nanoTime();
          List<GenerationResult> out = gen.generate(reqs);
          double s = (System.nanoTime() - t0) / 1e9;
          double cpuProvider = (cpu() - cpu0) / 1e3 / n;
          if (out.size() != n) {
            throw new IllegalStateException("lost results");
          }
          double rps = n / s;
          double[] bare = bare(server.baseUrl(), c, n);
          System.out.printf("%11d  %9.1f  %12.1f  %14.3f  %8.1f  %10.3f  %20.0f  %16.0f%n",
              c, ideal, rps, rps / ideal, bare[0], bare[0] / ideal, cpuProvider, bare[1]);
        }
      }
    }
  }

  /** The same number of chat requests through a bare HttpClient, c in flight. */
  /** A pooled keep-alive connection the server just closed fails once; resend, as any client must. */
  private static CompletableFuture<HttpResponse<byte[]>> sendRetryingOnce(HttpClient client, HttpRequest req) {
    return client.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray())
        .handle((r, e) -> e == null ? CompletableFuture.completedFuture(r)
            : client.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray()))
        .thenCompose(f -> f);
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** {requests/s, process CPU microseconds per request}. */
  private static double[] bare(String baseUrl, int c, int n) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    byte[] body = ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"req-1 hi\"}]}").getBytes();
    HttpRequest req = HttpRequest.newBuilder(URI.create(baseUrl + "/chat/completions"))
        .version(HttpClient.Version.HTTP_1_1)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    for (int round = 0; round < 2; round++) { // round 0 warms up
      Semaphore permits = new Semaphore(c);
      List<CompletableFuture<HttpResponse<byte[]>>> all = new ArrayList<>(n);
      long cpu0 = cpu();
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        permits.acquire();
        all.add(sendRetryingOnce(client, req).whenComplete((r, e) -> permits.release()));
      }
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
      double s = (System.nanoTime() - t0) / 1e9;
      if (round == 1) {
        return new double[] {n / s, (cpu() - cpu0) / 1e3 / n};
      }
    }
    throw new AssertionError();
  }
}
