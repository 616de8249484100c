package dev.secpe.kernel.cuda;

import dev.secpe.clustering.spi.NativeGemm;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * The device emulated on the CPU, for tests where there is no GPU ({@code
 * -Dsecpe.kernel.cuda.emulate=true}): the same chunks and tiles as {@link CudaEngine}, the tile
 * computed column-major in float32 as cuBLAS computes it (one product and sum per term, in index
 * order: within the bound the kernel assumes) and scanned by {@link Top2Columns#scan}, the Java
 * twin of the device's kernel. Slow; never chosen unless asked for.
 */
final class EmulatedEngine implements CudaGemm.Engine {

  @Override
  public String load() {
    return "CUDA emulated on the CPU (" + CudaGemm.EMULATE + "=true: tests only)";
  }

  @Override
  public NativeGemm.Chunks chunks(float[] b, int n, int d, int[] starts, int[] widths) {
    float[] copy = b.clone();
    return new NativeGemm.Chunks() {
      @Override
      public long bytes() {
        return (long) copy.length * Float.BYTES;
      }

      @Override
      public NativeGemm.Tile newTile(int maxRows, int maxWidth) {
        return new Tile(copy, d, starts, widths, maxRows, maxWidth);
      }

      @Override
      public void close() {}
    };
  }

  private static final class Tile implements NativeGemm.Tile {
    private final float[] b;
    private final int d;
    private final int[] starts;
    private final int[] widths;
    private final int maxRows;
    private final float[] a;
    private final float[] c;
    private final ByteBuffer rowMajor;
    private int rows;

    Tile(float[] b, int d, int[] starts, int[] widths, int maxRows, int maxWidth) {
      this.b = b;
      this.d = d;
      this.starts = starts;
      this.widths = widths;
      this.maxRows = maxRows;
      this.a = new float[maxRows * d];
      this.c = new float[maxRows * maxWidth];
      this.rowMajor = ByteBuffer.allocateDirect(maxRows * maxWidth * Float.BYTES)
          .order(ByteOrder.nativeOrder());
    }

    @Override
    public long bytes() {
      return (long) (a.length + 2 * c.length) * Float.BYTES;
    }

    @Override
    public void load(float[] src, int rows) {
      if (rows < 0 || rows > maxRows) {
        throw new IllegalArgumentException("rows must be in [0, " + maxRows + "], got " + rows);
      }
      System.arraycopy(src, 0, a, 0, rows * d);
      this.rows = rows;
    }

    /** The tile column-major into {@code c}: column j of the chunk at {@code [j rows, (j+1) rows)}. */
    private int gemmColumns(int chunk) {
      int w = widths[chunk];
      int j0 = starts[chunk];
      for (int j = 0; j < w; j++) {
        int bo = (j0 + j) * d;
        for (int r = 0; r < rows; r++) {
          int ao = r * d;
          float s = 0f;
          for (int i = 0; i < d; i++) {
            s += a[ao + i] * b[bo + i];
          }
          c[j * rows + r] = s;
        }
      }
      return w;
    }

    @Override
    public ByteBuffer multiply(int chunk) {
      int w = gemmColumns(chunk);
      FloatBuffer f = rowMajor.duplicate().order(ByteOrder.nativeOrder()).asFloatBuffer();
      for (int r = 0; r < rows; r++) {
        for (int j = 0; j < w; j++) {
          f.put(r * w + j, c[j * rows + r]);
        }
      }
      return rowMajor;
    }

    @Override
    public void top2(int chunk, boolean l2, float[] sqf, int j0, float[] max, float[] second,
        int[] pos) {
      int w = gemmColumns(chunk);
      Top2Columns.scan(c, rows, w, l2, sqf, j0, max, second, pos);
    }

    @Override
    public void columnsRow(int r, int width, float[] buf) {
      for (int j = 0; j < width; j++) {
        buf[j] = c[j * rows + r];
      }
    }

    @Override
    public void close() {
      Arrays.fill(a, 0f); // no private vector outlives the tile
    }
  }
}
