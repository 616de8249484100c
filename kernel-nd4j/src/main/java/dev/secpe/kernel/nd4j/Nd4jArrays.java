package dev.secpe.kernel.nd4j;

import dev.secpe.clustering.spi.NativeGemm;
import java.nio.ByteBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Every ND4J call of this module. B is copied to native memory once per kernel call, one array per
 * column chunk; each lane allocates its A block and tile arrays once and reuses them (only a
 * short last block gets temporaries), outside any workspace the calling thread may have open.
 * Rows of a tile are read by the kernel straight from native memory: the tile is never copied to
 * the Java heap as a whole.
 */
final class Nd4jArrays {

  private Nd4jArrays() {}

  /** Forces ND4J to initialise; the simple name of its backend class. */
  static String backend() {
    return Nd4j.getBackend().getClass().getSimpleName();
  }

  static int blasThreads() {
    return Nd4j.factory().blas().getMaxThreads();
  }

  static void setBlasThreads(int threads) {
    Nd4j.factory().blas().setMaxThreads(threads);
  }

  /** B's chunks, each its own native {@code width x d} array. */
  static final class BChunks implements NativeGemm.Chunks {
    private final INDArray[] chunks;
    private final int[] widths;
    private final int d;
    private final long bytes;

    BChunks(float[] b, int d, int[] starts, int[] widths) {
      this.d = d;
      this.widths = widths.clone();
      this.chunks = new INDArray[widths.length];
      long total = 0;
      // Never allocate inside a caller's workspace: these arrays outlive any scope it might close.
      try (MemoryWorkspace ws = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
        for (int c = 0; c < chunks.length; c++) {
          int w = widths[c];
          chunks[c] = Nd4j.createUninitialized(DataType.FLOAT, w, d);
          chunks[c].data().asNioFloat().put(0, b, starts[c] * d, w * d);
          total += (long) w * d * Float.BYTES;
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
    public NativeGemm.Tile newTile(int maxRows, int maxWidth) {
      return new ATile(this, maxRows, maxWidth);
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

  /**
   * One lane's A block and score tiles: arrays of full height (and of each chunk width: a chunk of
   * full width, the narrower last one) kept from the first block that needs them to the close;
   * a short last block's arrays are temporaries, closed at the next load or at the close.
   */
  static final class ATile implements NativeGemm.Tile {
    private final BChunks b;
    private final int maxRows;
    private final int maxWidth;
    /** Full-height A block and tiles (index: 0 = a chunk of full width, 1 = a narrower one). */
    private INDArray aFull;
    private final INDArray[] cFull = new INDArray[2];
    /** Temporaries of a short (last) block. */
    private INDArray aShort;
    private final INDArray[] cShort = new INDArray[2];
    private INDArray aCur;
    private int rows;

    ATile(BChunks b, int maxRows, int maxWidth) {
      this.b = b;
      this.maxRows = maxRows;
      this.maxWidth = maxWidth;
    }

    /**
     * The native memory of a block of full height and a tile of full width: what the tile holds
     * once a full block ran (a narrower last chunk and a short last block add arrays no larger).
     */
    @Override
    public long bytes() {
      return ((long) maxRows * b.d + (long) maxRows * maxWidth) * Float.BYTES;
    }

    @Override
    public void load(float[] a, int rows) {
      if (rows < 1 || rows > maxRows) {
        throw new IllegalArgumentException("rows must be in 1.." + maxRows + ", got rows=" + rows);
      }
      try (MemoryWorkspace ws = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
        closeShort();
        this.rows = rows;
        if (rows == maxRows) {
          if (aFull == null) {
            aFull = Nd4j.createUninitialized(DataType.FLOAT, maxRows, b.d);
          }
          aCur = aFull;
        } else {
          aShort = Nd4j.createUninitialized(DataType.FLOAT, rows, b.d);
          aCur = aShort;
        }
        aCur.data().asNioFloat().put(0, a, 0, rows * b.d);
      }
    }

    @Override
    public ByteBuffer multiply(int chunk) {
      try (MemoryWorkspace ws = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
        int width = b.widths[chunk];
        int kind = width == maxWidth ? 0 : 1;
        INDArray[] cs = rows == maxRows ? cFull : cShort;
        if (cs[kind] == null) {
          cs[kind] = Nd4j.createUninitialized(DataType.FLOAT, rows, width);
        }
        Nd4j.gemm(aCur, b.chunks[chunk], cs[kind], false, true, 1.0, 0.0);
        return cs[kind].data().asNio();
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

    private static void free(INDArray x) {
      if (x != null) {
        x.close();
      }
    }

    @Override
    public void close() {
      closeShort();
      free(aFull);
      aFull = null;
      aCur = null;
      for (int i = 0; i < 2; i++) {
        free(cFull[i]);
        cFull[i] = null;
      }
    }
  }
}
