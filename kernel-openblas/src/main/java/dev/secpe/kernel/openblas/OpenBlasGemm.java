package dev.secpe.kernel.openblas;

import dev.secpe.clustering.spi.NativeGemm;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.openblas.global.openblas_nolapack;

/**
 * The vote kernel's GEMM on OpenBLAS 0.3.31 (the same release numpy ships) through JavaCPP's
 * {@code org.bytedeco:openblas}: {@code cblas_sgemm} on row-major native arrays, B transposed.
 * Found by the kernel through {@link java.util.ServiceLoader}; applications never call it.
 *
 * <p>OpenBLAS picks its kernels for the CPU when it loads ({@code OPENBLAS_CORETYPE} overrides,
 * {@code OPENBLAS_VERBOSE=2} prints the choice) and runs each GEMM on its own threads
 * ({@code OPENBLAS_NUM_THREADS}, default one per core): both are the application's settings and
 * this class changes neither. JavaCPP extracts the library once to its per-user cache ({@code
 * ~/.javacpp/cache}, or {@code -Dorg.bytedeco.javacpp.cachedir}), not to the temporary directory.
 */
public final class OpenBlasGemm implements NativeGemm {

  private static volatile String loaded;

  /** For {@link java.util.ServiceLoader}. */
  public OpenBlasGemm() {}

  @Override
  public String name() {
    return "openblas";
  }

  @Override
  public String load() {
    String s = loaded;
    if (s == null) {
      synchronized (OpenBlasGemm.class) {
        s = loaded;
        if (s == null) {
          Loader.load(openblas_nolapack.class);
          // one tiny GEMM: a library that loads but cannot run on this CPU fails here, once
          try (FloatPointer a = new FloatPointer(1f, 2f, 3f, 4f); FloatPointer c = new FloatPointer(4)) {
            openblas_nolapack.cblas_sgemm(openblas_nolapack.CblasRowMajor,
                openblas_nolapack.CblasNoTrans, openblas_nolapack.CblasTrans, 2, 2, 2, 1f, a, 2,
                a, 2, 0f, c, 2);
            if (c.get(0) != 5f || c.get(1) != 11f || c.get(3) != 25f) {
              throw new IllegalStateException("OpenBLAS sgemm gave a wrong result on a 2 x 2 check");
            }
          }
          s = openblas_nolapack.OPENBLAS_VERSION.trim();
          loaded = s;
        }
      }
    }
    return s;
  }

  /**
   * The count last set through {@link #setThreads}, else OpenBLAS's own as it reads it when it
   * loads: {@code OPENBLAS_NUM_THREADS}, else {@code GOTO_NUM_THREADS}, else {@code
   * OMP_NUM_THREADS}, else one per available processor (JavaCPP's mapping does not expose {@code
   * openblas_get_num_threads}).
   */
  @Override
  public int threads() {
    load();
    int set = openblas_nolapack.blas_get_num_threads(); // -1 until set through JavaCPP
    if (set > 0) {
      return set;
    }
    for (String v : new String[] {"OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"}) {
      String s = System.getenv(v);
      if (s != null && !s.isBlank()) {
        try {
          int t = Integer.parseInt(s.trim());
          if (t > 0) {
            return t;
          }
        } catch (NumberFormatException ignored) {
          // OpenBLAS ignores it too
        }
      }
    }
    return Math.max(1, Runtime.getRuntime().availableProcessors());
  }

  @Override
  public void setThreads(int threads) {
    NativeGemm.requireThreads(threads);
    load();
    openblas_nolapack.blas_set_num_threads(threads);
  }

  @Override
  public boolean columnMajor() {
    return true;
  }

  @Override
  public Chunks chunks(float[] b, int d, int[] starts, int[] widths) {
    NativeGemm.requireChunkShape(d, starts, widths);
    load();
    return new NativeChunks(b, d, starts, widths);
  }

  /** B's chunks, each its own native row-major array. */
  private static final class NativeChunks implements Chunks {
    private final FloatPointer[] chunks;
    private final int[] widths;
    private final int d;
    private final long bytes;

    NativeChunks(float[] b, int d, int[] starts, int[] widths) {
      this.d = d;
      this.widths = widths.clone();
      this.chunks = new FloatPointer[widths.length];
      long total = 0;
      try {
        for (int c = 0; c < widths.length; c++) {
          long n = (long) widths[c] * d;
          chunks[c] = new FloatPointer(n);
          chunks[c].put(b, starts[c] * d, (int) n);
          total += n * Float.BYTES;
        }
      } catch (RuntimeException | Error e) {
        close();
        throw e;
      }
      this.bytes = total;
    }

    @Override
    public long bytes() {
      return bytes;
    }

    @Override
    public Tile newTile(int maxRows, int maxWidth) {
      return new NativeTile(this, maxRows, maxWidth);
    }

    @Override
    public void close() {
      for (int c = 0; c < chunks.length; c++) {
        if (chunks[c] != null) {
          chunks[c].close();
          chunks[c] = null;
        }
      }
    }
  }

  /** One lane's A block and score tile. */
  private static final class NativeTile implements Tile {
    private final NativeChunks b;
    private final int maxRows;
    private final FloatPointer a;
    private final FloatPointer c;
    private final ByteBuffer cBytes;
    private int rows;

    NativeTile(NativeChunks b, int maxRows, int maxWidth) {
      this.b = b;
      this.maxRows = maxRows;
      this.a = new FloatPointer((long) maxRows * b.d);
      this.c = new FloatPointer((long) maxRows * maxWidth);
      this.cBytes = c.asByteBuffer().order(ByteOrder.nativeOrder());
    }

    @Override
    public long bytes() {
      return ((long) maxRows * b.d + c.capacity()) * Float.BYTES;
    }

    @Override
    public void load(float[] rowsOfA, int rows) {
      if (rows < 1 || rows > maxRows) {
        throw new IllegalArgumentException("rows must be in 1.." + maxRows + ", got rows=" + rows);
      }
      a.put(rowsOfA, 0, rows * b.d);
      this.rows = rows;
    }

    @Override
    public ByteBuffer multiply(int chunk) {
      int w = b.widths[chunk];
      int d = b.d;
      openblas_nolapack.cblas_sgemm(openblas_nolapack.CblasRowMajor, openblas_nolapack.CblasNoTrans,
          openblas_nolapack.CblasTrans, rows, w, d, 1f, a, d, b.chunks[chunk], d, 0f, c, w);
      return cBytes;
    }

    @Override
    public ByteBuffer multiplyColumns(int chunk) {
      int w = b.widths[chunk];
      int d = b.d;
      openblas_nolapack.cblas_sgemm(openblas_nolapack.CblasRowMajor, openblas_nolapack.CblasNoTrans,
          openblas_nolapack.CblasTrans, w, rows, d, 1f, b.chunks[chunk], d, a, d, 0f, c, rows);
      return cBytes;
    }

    @Override
    public void close() {
      a.close();
      c.close();
    }
  }
}
