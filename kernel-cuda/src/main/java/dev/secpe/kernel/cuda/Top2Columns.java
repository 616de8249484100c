package dev.secpe.kernel.cuda;

/**
 * The device's arg-max scan of a column-major tile, and its Java twin. The tile holds {@code rows
 * x w} float scores, column {@code j} of the chunk at floats {@code [j rows, (j + 1) rows)}; for
 * each row the scan gives what {@link dev.secpe.clustering.spi.TileScan#columnsTop2Scalar} gives:
 * the largest ranking value, the largest of the others (the largest itself where it occurs
 * twice, -infinity for one column) and the first position of the largest (-1 where every value
 * is -infinity).
 *
 * <p>On the device a block of {@link #ROWS} x {@link #SEGMENTS} threads takes {@link #ROWS}
 * consecutive rows (so that a warp reads 32 consecutive floats of a column) and cuts the columns
 * into {@link #SEGMENTS} consecutive segments; each thread scans its segment with the scalar
 * scan's comparisons, and the first thread of each row merges the segments' results in order:
 * a later segment's maximum replaces the running one only where it is larger (so the first
 * position of the maximum is kept), and where it equals it the maximum occurs twice. {@link #scan}
 * is that algorithm in Java, segment by segment; {@code Top2ColumnsTest} checks it against the
 * scalar scan on tie-heavy tiles, and the emulated device runs it where no GPU is.
 *
 * <p>The ranking value of a score {@code c} is {@code c} (cosine) or {@code 2f * c - sqf[j0 + j]}
 * (L2), rounded as Java rounds it: {@code __fmul_rn} (exact, a power of two) then {@code
 * __fsub_rn}, never contracted into another operation.
 */
final class Top2Columns {

  /** Rows per thread block (one warp wide). */
  static final int ROWS = 32;
  /** Column segments per thread block. */
  static final int SEGMENTS = 16;
  /** The kernel's name in {@link #SOURCE}. */
  static final String KERNEL = "secpe_top2_columns";

  /** The CUDA C source compiled at run time with NVRTC. */
  static final String SOURCE = """
      #define ROWS %d
      #define SEGMENTS %d
      extern "C" __global__ void %s(const float* __restrict__ c, int rows, int w, int l2,
          const float* __restrict__ sqf, float* __restrict__ outMax,
          float* __restrict__ outSecond, int* __restrict__ outPos) {
        __shared__ float sMax[SEGMENTS][ROWS];
        __shared__ float sSecond[SEGMENTS][ROWS];
        __shared__ int sPos[SEGMENTS][ROWS];
        int tx = threadIdx.x;
        int seg = threadIdx.y;
        int r = blockIdx.x * ROWS + tx;
        int per = (w + SEGMENTS - 1) / SEGMENTS;
        int j0 = seg * per;
        int j1 = min(w, j0 + per);
        float mx = -__int_as_float(0x7f800000);
        float sc = mx;
        int ps = -1;
        if (r < rows) {
          for (int j = j0; j < j1; j++) {
            float v = c[(size_t) j * (size_t) rows + (size_t) r];
            if (l2) {
              v = __fsub_rn(__fmul_rn(2.0f, v), sqf[j]);
            }
            if (v > sc) {
              if (v > mx) {
                sc = mx;
                mx = v;
                ps = j;
              } else {
                sc = v;
              }
            }
          }
        }
        sMax[seg][tx] = mx;
        sSecond[seg][tx] = sc;
        sPos[seg][tx] = ps;
        __syncthreads();
        if (seg == 0 && r < rows) {
          for (int s = 1; s < SEGMENTS; s++) {
            float m2 = sMax[s][tx];
            if (m2 > mx) {
              sc = fmaxf(mx, sSecond[s][tx]);
              mx = m2;
              ps = sPos[s][tx];
            } else if (m2 == mx) {
              sc = mx;
            } else {
              sc = fmaxf(sc, m2);
            }
          }
          outMax[r] = mx;
          outSecond[r] = sc;
          outPos[r] = ps;
        }
      }
      """.formatted(ROWS, SEGMENTS, KERNEL);

  private Top2Columns() {}

  /**
   * The device's algorithm in Java: rows {@code [0, rows)} of the column-major tile {@code c}
   * ({@code w} columns; {@code sqf} indexed from {@code j0}, L2 only).
   */
  static void scan(float[] c, int rows, int w, boolean l2, float[] sqf, int j0, float[] max,
      float[] second, int[] pos) {
    int per = (w + SEGMENTS - 1) / SEGMENTS;
    for (int r = 0; r < rows; r++) {
      float mx = Float.NEGATIVE_INFINITY;
      float sc = Float.NEGATIVE_INFINITY;
      int ps = -1;
      for (int seg = 0; seg < SEGMENTS; seg++) {
        int s0 = seg * per;
        int s1 = Math.min(w, s0 + per);
        float m = Float.NEGATIVE_INFINITY;
        float s = Float.NEGATIVE_INFINITY;
        int p = -1;
        for (int j = s0; j < s1; j++) {
          float v = c[j * rows + r];
          if (l2) {
            v = 2f * v - sqf[j0 + j];
          }
          if (v > s) {
            if (v > m) {
              s = m;
              m = v;
              p = j;
            } else {
              s = v;
            }
          }
        }
        if (seg == 0) {
          mx = m;
          sc = s;
          ps = p;
        } else if (m > mx) {
          sc = Math.max(mx, s);
          mx = m;
          ps = p;
        } else if (m == mx) {
          sc = mx;
        } else {
          sc = Math.max(sc, m);
        }
      }
      max[r] = mx;
      second[r] = sc;
      pos[r] = ps;
    }
  }
}
