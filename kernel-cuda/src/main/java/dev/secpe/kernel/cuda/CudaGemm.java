package dev.secpe.kernel.cuda;

import dev.secpe.clustering.spi.NativeGemm;

/**
 * The vote kernel's GEMM and arg-max on an NVIDIA GPU (CUDA 13 through JavaCPP's {@code
 * org.bytedeco:cuda} presets). Found by the kernel through {@link java.util.ServiceLoader};
 * applications never call it.
 *
 * <p>{@link #load()} fails, and the kernel then uses the next backend, where the CUDA libraries
 * (libcudart, libcublas, libnvrtc of CUDA 13, and the driver's libcuda) are not found, where no
 * device answers, or where the scan's kernel does not compile; the reason is kept for {@code
 * Backend.CUDA}'s error. The first device (CUDA's device 0, or the first that {@code
 * CUDA_VISIBLE_DEVICES} names) is used.
 *
 * <p>For tests only, {@code -Dsecpe.kernel.cuda.emulate=true} replaces the device by {@link
 * EmulatedEngine}: the same calls, done on the CPU by the Java twin of the device's scan, so that
 * the kernel's host side (chunks, fused scans, rows fetched for near-ties) is tested where there
 * is no GPU. It is slow and never chosen otherwise.
 */
public final class CudaGemm implements NativeGemm {

  /** The system property that turns on the emulated device (tests only). */
  static final String EMULATE = "secpe.kernel.cuda.emulate";

  private static volatile Engine engine;
  private static volatile String loaded;
  /** Why the first load failed: said again by every later one (a native library loads once). */
  private static volatile IllegalStateException failure;

  /** For {@link java.util.ServiceLoader}. */
  public CudaGemm() {}

  @Override
  public String name() {
    return "cuda";
  }

  @Override
  public String load() {
    String s = loaded;
    if (s == null) {
      synchronized (CudaGemm.class) {
        s = loaded;
        if (s == null) {
          if (failure != null) {
            throw new IllegalStateException(failure.getMessage(), failure);
          }
          Engine e = Boolean.getBoolean(EMULATE) ? new EmulatedEngine() : new CudaEngine();
          try {
            s = e.load();
          } catch (RuntimeException | LinkageError t) {
            failure = t instanceof IllegalStateException ise ? ise
                : new IllegalStateException(t.getClass().getSimpleName() + ": " + t.getMessage(), t);
            throw failure;
          }
          engine = e;
          loaded = s;
        }
      }
    }
    return s;
  }

  /** The engine, loaded. */
  private Engine engine() {
    load();
    return engine;
  }

  /** One GEMM at a time per tile; the GPU's parallelism is inside it. */
  @Override
  public int threads() {
    return 1;
  }

  /** Nothing to set: the GPU's work is not split over CPU threads. */
  @Override
  public void setThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
  }

  @Override
  public boolean fusedTop2() {
    return true;
  }

  @Override
  public Chunks chunks(float[] b, int d, int[] starts, int[] widths) {
    if (b == null || starts == null || widths == null || starts.length != widths.length) {
      throw new IllegalArgumentException("b, starts and widths must be given, with as many starts"
          + " as widths");
    }
    if (d < 1 || b.length % d != 0) {
      throw new IllegalArgumentException("d must be >= 1 and divide b.length, got d=" + d
          + " b.length=" + b.length);
    }
    int n = b.length / d;
    for (int c = 0; c < starts.length; c++) {
      if (starts[c] < 0 || widths[c] < 1 || (long) starts[c] + widths[c] > n) {
        throw new IllegalArgumentException("chunk " + c + " must lie within b's " + n
            + " rows, got start=" + starts[c] + " width=" + widths[c]);
      }
    }
    return engine().chunks(b, n, d, starts.clone(), widths.clone());
  }

  /** What does the work: the GPU, or its emulation. */
  interface Engine {
    /** Loads and checks; a description of what loaded. */
    String load();

    /** B on the device, split into chunks (arguments checked). */
    Chunks chunks(float[] b, int n, int d, int[] starts, int[] widths);
  }
}
