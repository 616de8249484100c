package dev.secpe.clustering;

import dev.secpe.clustering.internal.KernelProbe;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The ND4J inner-product engine: one float GEMM {@code C = A_block * B_chunk^T} per tile. B is
 * copied to native memory once per kernel call, one array per column chunk; each lane allocates
 * its A-block and tile arrays once and reuses them (only a short last block gets temporaries),
 * outside any workspace the calling thread may have open. Rows of the tile are read straight
 * from native memory into the scanning thread's small buffer (bulk copies through a direct
 * {@link java.nio.FloatBuffer}): the tile is never copied to the Java heap as a whole.
 */
final class Nd4jScorer extends NativeTileScorer {

  private final INDArray[] b;
  private final Tiling tiling;
  private final int d;
  private final int maxRows;
  private final KernelProbe probe;
  /** Full-height A block and tiles (index: 0 = a chunk of full width, 1 = the narrower last). */
  private INDArray aFull;
  private final INDArray[] cFull = new INDArray[2];
  /** Temporaries of a short (last) block; closed at the next load or at close. */
  private INDArray aShort;
  private final INDArray[] cShort = new INDArray[2];
  private INDArray aCur;
  private int rows;

  private Nd4jScorer(INDArray[] b, Tiling tiling, int d, int maxRows, KernelProbe probe) {
    this.b = b;
    this.tiling = tiling;
    this.d = d;
    this.maxRows = maxRows;
    this.probe = probe;
  }

  /** Loads ND4J (throws if the native backend cannot load) and copies B's chunks to native memory. */
  static Factory factory(float[] bData, int d, Tiling tiling, KernelProbe probe) {
    INDArray[] chunks = new INDArray[tiling.chunks()];
    long bytes = (long) tiling.n() * d * Float.BYTES;
    // Never allocate inside a caller's workspace: these arrays outlive any scope it might close.
    try (MemoryWorkspace ws = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
      for (int c = 0; c < chunks.length; c++) {
        int w = tiling.width(c);
        chunks[c] = Nd4j.createUninitialized(DataType.FLOAT, w, d);
        chunks[c].data().asNioFloat().put(0, bData, tiling.start(c) * d, w * d);
      }
    }
    track(probe, bytes);
    return new Factory() {
      @Override
      public BlockScorer newScorer(int maxRows) {
        return new Nd4jScorer(chunks, tiling, d, maxRows, probe);
      }

      @Override
      public void close() {
        for (INDArray x : chunks) {
          x.close();
        }
        track(probe, -bytes);
      }
    };
  }

  private static void track(KernelProbe probe, long bytes) {
    if (probe != null) {
      probe.nativeAllocated(bytes);
    }
  }

  /** A new float array outside workspaces, counted by the probe. */
  private INDArray create(long rows, long cols) {
    track(probe, rows * cols * Float.BYTES);
    return Nd4j.createUninitialized(DataType.FLOAT, rows, cols);
  }

  private void free(INDArray x) {
    if (x != null) {
      track(probe, -x.length() * Float.BYTES);
      x.close();
    }
  }

  /** Forces ND4J to initialise; returns a short description of the backend. */
  static String load() {
    return Nd4j.getBackend().getClass().getSimpleName();
  }

  /** The process-wide OpenBLAS thread count (read only). */
  static int blasThreads() {
    return Nd4j.factory().blas().getMaxThreads();
  }

  /** Sets the number of BLAS threads (OpenBLAS) for the process. */
  static void setBlasThreads(int threads) {
    Nd4j.factory().blas().setMaxThreads(threads);
  }

  @Override
  public void load(float[] a, int rows) {
    try (MemoryWorkspace ws = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
      closeShort();
      this.rows = rows;
      if (rows == maxRows) {
        if (aFull == null) {
          aFull = create(maxRows, d);
        }
        aCur = aFull;
      } else {
        aShort = create(rows, d);
        aCur = aShort;
      }
      aCur.data().asNioFloat().put(0, a, 0, rows * d);
    }
  }

  @Override
  public void multiply(int chunk) {
    try (MemoryWorkspace ws = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
      int width = tiling.width(chunk);
      int kind = width == tiling.chunkCols() ? 0 : 1;
      INDArray[] cs = rows == maxRows ? cFull : cShort;
      if (cs[kind] == null) {
        cs[kind] = create(rows, width);
      }
      Nd4j.gemm(aCur, b[chunk], cs[kind], false, true, 1.0, 0.0);
      tileIs(cs[kind].data().asNio(), width, rows, false);
    }
  }

  private void closeShort() {
    free(aShort);
    aShort = null;
    for (int i = 0; i < 2; i++) {
      free(cShort[i]);
      cShort[i] = null;
    }
  }

  @Override
  public void close() {
    closeShort();
    free(aFull);
    aFull = null;
    for (int i = 0; i < 2; i++) {
      free(cFull[i]);
      cFull[i] = null;
    }
    noTile();
  }
}
