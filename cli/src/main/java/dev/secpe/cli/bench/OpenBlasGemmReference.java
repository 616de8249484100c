package dev.secpe.cli.bench;

import java.util.SplittableRandom;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.openblas.global.openblas_nolapack;

/**
 * The GEMM-alone reference of the benchmarks: one OpenBLAS {@code cblas_sgemm} of {@code A B^T}
 * (row-major, m x d times n x d) into a preallocated C, on the library the kernel's OpenBLAS
 * backend uses. Native arrays are freed by {@link #close()}.
 */
final class OpenBlasGemmReference implements AutoCloseable {

  private final int m;
  private final int n;
  private final int d;
  private final FloatPointer a;
  private final FloatPointer b;
  private final FloatPointer c;

  OpenBlasGemmReference(float[] a, int m, float[] b, int n, int d) {
    Loader.load(openblas_nolapack.class);
    this.m = m;
    this.n = n;
    this.d = d;
    this.a = new FloatPointer((long) m * d).put(a, 0, m * d);
    this.b = new FloatPointer((long) n * d).put(b, 0, n * d);
    this.c = new FloatPointer((long) m * n);
  }

  /** m x n x d with uniform random entries. */
  static OpenBlasGemmReference random(int m, int n, int d, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] a = new float[m * d];
    float[] b = new float[n * d];
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) r.nextDouble();
    }
    for (int i = 0; i < b.length; i++) {
      b[i] = (float) r.nextDouble();
    }
    return new OpenBlasGemmReference(a, m, b, n, d);
  }

  /** One GEMM; returns its seconds. */
  double time() {
    long t0 = System.nanoTime();
    openblas_nolapack.cblas_sgemm(openblas_nolapack.CblasRowMajor, openblas_nolapack.CblasNoTrans,
        openblas_nolapack.CblasTrans, m, n, d, 1f, a, d, b, d, 0f, c, n);
    return (System.nanoTime() - t0) / 1e9;
  }

  @Override
  public void close() {
    a.close();
    b.close();
    c.close();
  }
}
