package dev.secpe.clustering;

import java.nio.FloatBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The ND4J inner-product engine: one float GEMM {@code C = A_block * B^T} per block. B is copied
 * to native memory once per kernel call; each worker allocates its A-block and C arrays once and
 * reuses them for every full block (no INDArray is created per block; allocation happens
 * outside any workspace the calling thread may have open). Data crosses the JNI boundary by bulk copies through direct {@link FloatBuffer} views.
 */
final class Nd4jScorer implements BlockScorer {

  private final INDArray b;
  private final int n;
  private final int d;
  private final int maxRows;
  private INDArray aFull;
  private INDArray cFull;

  private Nd4jScorer(INDArray b, int n, int d, int maxRows) {
    this.b = b;
    this.n = n;
    this.d = d;
    this.maxRows = maxRows;
  }

  /** Loads ND4J (throws if the native backend cannot load) and copies B to native memory. */
  static Factory factory(float[] bData, int n, int d) {
    INDArray b;
    // Never allocate inside a caller's workspace: these arrays outlive any scope it might close.
    try (MemoryWorkspace ws = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
      b = Nd4j.createUninitialized(DataType.FLOAT, n, d);
    }
    b.data().asNioFloat().put(bData, 0, n * d);
    return new Factory() {
      @Override
      public BlockScorer newScorer(int maxRows) {
        return new Nd4jScorer(b, n, d, maxRows);
      }

      @Override
      public void close() {
        b.close();
      }
    };
  }

  /** Forces ND4J to initialise; returns a short description of the backend. */
  static String load() {
    return Nd4j.getBackend().getClass().getSimpleName();
  }

  /** Sets the number of BLAS threads (OpenBLAS) for the process. */
  static void setBlasThreads(int threads) {
    Nd4j.factory().blas().setMaxThreads(threads);
  }

  @Override
  public void scores(float[] a, int rows, float[] out) {
    try (MemoryWorkspace ws = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
      scoresOutsideWorkspaces(a, rows, out);
    }
  }

  private void scoresOutsideWorkspaces(float[] a, int rows, float[] out) {
    INDArray aa;
    INDArray cc;
    boolean temp = rows != maxRows;
    if (temp) {
      aa = Nd4j.createUninitialized(DataType.FLOAT, rows, d);
      cc = Nd4j.createUninitialized(DataType.FLOAT, rows, n);
    } else {
      if (aFull == null) {
        aFull = Nd4j.createUninitialized(DataType.FLOAT, maxRows, d);
        cFull = Nd4j.createUninitialized(DataType.FLOAT, maxRows, n);
      }
      aa = aFull;
      cc = cFull;
    }
    FloatBuffer ab = aa.data().asNioFloat();
    ab.put(a, 0, rows * d);
    Nd4j.gemm(aa, b, cc, false, true, 1.0, 0.0);
    FloatBuffer cb = cc.data().asNioFloat();
    cb.get(out, 0, rows * n);
    if (temp) {
      aa.close();
      cc.close();
    }
  }

  @Override
  public void close() {
    if (aFull != null) {
      aFull.close();
      cFull.close();
      aFull = null;
      cFull = null;
    }
  }
}
