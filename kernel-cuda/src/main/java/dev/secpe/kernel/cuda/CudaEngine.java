package dev.secpe.kernel.cuda;

import static org.bytedeco.cuda.global.cublas.CUBLAS_OP_N;
import static org.bytedeco.cuda.global.cublas.CUBLAS_OP_T;
import static org.bytedeco.cuda.global.cublas.CUBLAS_PEDANTIC_MATH;
import static org.bytedeco.cuda.global.cublas.CUBLAS_STATUS_SUCCESS;
import static org.bytedeco.cuda.global.cublas.cublasCreate_v2;
import static org.bytedeco.cuda.global.cublas.cublasDestroy_v2;
import static org.bytedeco.cuda.global.cublas.cublasSetMathMode;
import static org.bytedeco.cuda.global.cublas.cublasSetStream_v2;
import static org.bytedeco.cuda.global.cublas.cublasSgemm_v2;
import static org.bytedeco.cuda.global.cudart.CUDA_SUCCESS;
import static org.bytedeco.cuda.global.cudart.cuLaunchKernel;
import static org.bytedeco.cuda.global.cudart.cuModuleGetFunction;
import static org.bytedeco.cuda.global.cudart.cuModuleLoadData;
import static org.bytedeco.cuda.global.cudart.cudaDriverGetVersion;
import static org.bytedeco.cuda.global.cudart.cudaFree;
import static org.bytedeco.cuda.global.cudart.cudaFreeHost;
import static org.bytedeco.cuda.global.cudart.cudaGetDeviceCount;
import static org.bytedeco.cuda.global.cudart.cudaGetDeviceProperties;
import static org.bytedeco.cuda.global.cudart.cudaGetErrorString;
import static org.bytedeco.cuda.global.cudart.cudaMalloc;
import static org.bytedeco.cuda.global.cudart.cudaMallocHost;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyAsync;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyDeviceToHost;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyHostToDevice;
import static org.bytedeco.cuda.global.cudart.cudaRuntimeGetVersion;
import static org.bytedeco.cuda.global.cudart.cudaSetDevice;
import static org.bytedeco.cuda.global.cudart.cudaStreamCreate;
import static org.bytedeco.cuda.global.cudart.cudaStreamDestroy;
import static org.bytedeco.cuda.global.cudart.cudaStreamSynchronize;
import static org.bytedeco.cuda.global.cudart.cudaSuccess;
import static org.bytedeco.cuda.global.nvrtc.NVRTC_SUCCESS;
import static org.bytedeco.cuda.global.nvrtc.nvrtcCompileProgram;
import static org.bytedeco.cuda.global.nvrtc.nvrtcCreateProgram;
import static org.bytedeco.cuda.global.nvrtc.nvrtcDestroyProgram;
import static org.bytedeco.cuda.global.nvrtc.nvrtcGetPTX;
import static org.bytedeco.cuda.global.nvrtc.nvrtcGetPTXSize;
import static org.bytedeco.cuda.global.nvrtc.nvrtcGetProgramLog;
import static org.bytedeco.cuda.global.nvrtc.nvrtcGetProgramLogSize;

import dev.secpe.clustering.spi.NativeGemm;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.cuda.cublas.cublasContext;
import org.bytedeco.cuda.cudart.CUfunc_st;
import org.bytedeco.cuda.cudart.CUmod_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.cudart.cudaDeviceProp;
import org.bytedeco.cuda.global.cublas;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nvrtc;
import org.bytedeco.cuda.nvrtc._nvrtcProgram;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.javacpp.SizeTPointer;

/**
 * The GPU: B's chunks in device memory for a kernel call; per tile (one per lane) a CUDA stream,
 * a cuBLAS handle on it, device memory for the A block, the score tile and the scan's three
 * outputs, and pinned host memory for the copies. Every call on a tile is ordered on its stream
 * and waits for it before it returns, so a tile is used by one thread at a time as {@link
 * NativeGemm.Tile} requires, and two lanes' tiles overlap on the device.
 */
final class CudaEngine implements CudaGemm.Engine {

  private static final int DEVICE = 0;

  /** The compiled scan (valid in the device's primary context, from any thread). */
  private CUfunc_st top2;

  @Override
  public String load() {
    try {
      Loader.load(cudart.class);
      Loader.load(cublas.class);
      Loader.load(nvrtc.class);
    } catch (LinkageError e) { // UnsatisfiedLinkError: CUDA 13's runtime, cuBLAS, NVRTC or the driver
      throw new IllegalStateException("the CUDA 13 libraries did not load (libcudart.so.13,"
          + " libcublas.so.13 and libnvrtc.so.13 on the library path, and an NVIDIA driver's"
          + " libcuda.so.1; -Dorg.bytedeco.javacpp.logger.debug=true names the one missing): "
          + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
    int[] count = {0};
    int rc = cudaGetDeviceCount(count);
    if (rc != cudaSuccess) {
      throw new IllegalStateException("no usable CUDA device: cudaGetDeviceCount gave " + error(rc));
    }
    if (count[0] < 1) {
      throw new IllegalStateException("no CUDA device: cudaGetDeviceCount gave 0");
    }
    check(cudaSetDevice(DEVICE), "cudaSetDevice(" + DEVICE + ")");
    // freeing the null pointer creates the device's primary context, which the driver API calls
    // below (loading the compiled module) need current on this thread
    check(cudaFree(new Address(0, 0)), "initialising the CUDA context");
    cudaDeviceProp prop = new cudaDeviceProp();
    check(cudaGetDeviceProperties(prop, DEVICE), "cudaGetDeviceProperties");
    String name = prop.name().getString();
    int major = prop.major();
    int minor = prop.minor();
    long memory = prop.totalGlobalMem();
    top2 = compile(major, minor);
    int[] driver = {0};
    int[] runtime = {0};
    cudaDriverGetVersion(driver);
    cudaRuntimeGetVersion(runtime);
    return "CUDA " + name + " (compute " + major + "." + minor + ", " + (memory >> 20)
        + " MiB, driver " + version(driver[0]) + ", runtime " + version(runtime[0]) + ")";
  }

  private static String version(int v) {
    return (v / 1000) + "." + (v % 1000) / 10;
  }

  /** The scan's kernel, compiled for the device's architecture with NVRTC and loaded. */
  private static CUfunc_st compile(int major, int minor) {
    _nvrtcProgram prog = new _nvrtcProgram();
    checkNvrtc(nvrtcCreateProgram(prog, new BytePointer(Top2Columns.SOURCE),
        new BytePointer("secpe_top2.cu"), 0, (PointerPointer<?>) null, (PointerPointer<?>) null),
        "nvrtcCreateProgram", null);
    try {
      // --fmad=false: no contraction; the source's __fmul_rn/__fsub_rn already forbid it
      PointerPointer<?> options = new PointerPointer<>(
          "--gpu-architecture=compute_" + major + minor, "--fmad=false");
      int rc = nvrtcCompileProgram(prog, 2, options);
      if (rc != NVRTC_SUCCESS) {
        SizeTPointer logSize = new SizeTPointer(1);
        nvrtcGetProgramLogSize(prog, logSize);
        BytePointer log = new BytePointer(Math.max(1, logSize.get()));
        nvrtcGetProgramLog(prog, log);
        checkNvrtc(rc, "nvrtcCompileProgram", log.getString());
      }
      SizeTPointer size = new SizeTPointer(1);
      checkNvrtc(nvrtcGetPTXSize(prog, size), "nvrtcGetPTXSize", null);
      BytePointer ptx = new BytePointer(size.get());
      checkNvrtc(nvrtcGetPTX(prog, ptx), "nvrtcGetPTX", null);
      CUmod_st module = new CUmod_st();
      checkDriver(cuModuleLoadData(module, ptx), "cuModuleLoadData");
      CUfunc_st function = new CUfunc_st();
      checkDriver(cuModuleGetFunction(function, module, Top2Columns.KERNEL), "cuModuleGetFunction");
      return function;
    } finally {
      nvrtcDestroyProgram(prog);
    }
  }

  @Override
  public NativeGemm.Chunks chunks(float[] b, int n, int d, int[] starts, int[] widths) {
    return new DeviceChunks(b, n, d, starts, widths);
  }

  // ------------------------------------------------------------------------ memory and errors

  /**
   * A device (or pinned host) address as the pointer JavaCPP passes to CUDA: position 0, no
   * deallocator (the memory is freed by the tile or chunks that allocated it).
   */
  static final class Address extends FloatPointer {
    Address(long address, long floats) {
      super((Pointer) null);
      this.address = address;
      this.capacity = floats;
      this.limit = floats;
    }
  }

  static long deviceAlloc(long bytes, String what) {
    PointerPointer<?> out = new PointerPointer<>(1);
    int rc = cudaMalloc(out, Math.max(bytes, Float.BYTES));
    if (rc != cudaSuccess) {
      throw new IllegalStateException("cudaMalloc of " + bytes + " bytes for " + what
          + " failed: " + error(rc));
    }
    return out.get(0).address();
  }

  static long hostAlloc(long bytes, String what) {
    PointerPointer<?> out = new PointerPointer<>(1);
    int rc = cudaMallocHost(out, Math.max(bytes, Float.BYTES));
    if (rc != cudaSuccess) {
      throw new IllegalStateException("cudaMallocHost of " + bytes + " pinned bytes for " + what
          + " failed: " + error(rc));
    }
    return out.get(0).address();
  }

  static void copy(long dst, long src, long bytes, int kind, CUstream_st stream, String what) {
    check(cudaMemcpyAsync(new Address(dst, 0), new Address(src, 0), bytes, kind, stream), what);
  }

  static String error(int rc) {
    BytePointer s = cudaGetErrorString(rc);
    return "error " + rc + (s == null ? "" : " (" + s.getString() + ")");
  }

  static void check(int rc, String what) {
    if (rc != cudaSuccess) {
      throw new IllegalStateException(what + " failed: " + error(rc));
    }
  }

  private static void checkDriver(int rc, String what) {
    if (rc != CUDA_SUCCESS) {
      throw new IllegalStateException(what + " failed: CUresult " + rc);
    }
  }

  private static void checkBlas(int rc, String what) {
    if (rc != CUBLAS_STATUS_SUCCESS) {
      throw new IllegalStateException(what + " failed: cublasStatus " + rc);
    }
  }

  private static void checkNvrtc(int rc, String what, String log) {
    if (rc != NVRTC_SUCCESS) {
      throw new IllegalStateException(what + " failed: nvrtcResult " + rc
          + (log == null || log.isBlank() ? "" : ": " + log.strip()));
    }
  }

  /**
   * The scan kernel's arguments for {@code cuLaunchKernel}: each value in its own native memory,
   * in the order of the kernel's parameters (device addresses as 64-bit values).
   */
  static Pointer[] scanArguments(long c, int rows, int w, boolean l2, long sqf, long outMax,
      long outSecond, long outPos) {
    return new Pointer[] {new LongPointer(1).put(c), new IntPointer(1).put(rows),
        new IntPointer(1).put(w), new IntPointer(1).put(l2 ? 1 : 0), new LongPointer(1).put(sqf),
        new LongPointer(1).put(outMax), new LongPointer(1).put(outSecond),
        new LongPointer(1).put(outPos)};
  }

  // ------------------------------------------------------------------------ chunks and tiles

  /** B on the device, and B's squared norms once an L2 scan asks for them. */
  private final class DeviceChunks implements NativeGemm.Chunks {
    private final int n;
    private final int d;
    private final int[] starts;
    private final int[] widths;
    private final long b;
    private final long bytes;
    private volatile long sqf;

    DeviceChunks(float[] host, int n, int d, int[] starts, int[] widths) {
      this.n = n;
      this.d = d;
      this.starts = starts;
      this.widths = widths;
      this.bytes = (long) n * d * Float.BYTES;
      this.b = deviceAlloc(bytes, "B (" + n + " x " + d + ")");
      CUstream_st stream = new CUstream_st();
      check(cudaStreamCreate(stream), "cudaStreamCreate");
      try (FloatPointer staging = new FloatPointer(host)) {
        copy(b, staging.address(), bytes, cudaMemcpyHostToDevice, stream, "copying B to the GPU");
        check(cudaStreamSynchronize(stream), "copying B to the GPU");
      } finally {
        cudaStreamDestroy(stream);
      }
    }

    /** B's squared norms on the device (copied once, on the first L2 scan). */
    long sqf(float[] host, CUstream_st stream) {
      long s = sqf;
      if (s == 0) {
        synchronized (this) {
          s = sqf;
          if (s == 0) {
            s = deviceAlloc((long) n * Float.BYTES, "B's squared norms");
            try (FloatPointer staging = new FloatPointer(host)) {
              copy(s, staging.address(), (long) n * Float.BYTES, cudaMemcpyHostToDevice, stream,
                  "copying B's squared norms to the GPU");
              check(cudaStreamSynchronize(stream), "copying B's squared norms to the GPU");
            }
            sqf = s;
          }
        }
      }
      return s;
    }

    @Override
    public long bytes() {
      return bytes + (sqf == 0 ? 0 : (long) n * Float.BYTES);
    }

    @Override
    public NativeGemm.Tile newTile(int maxRows, int maxWidth) {
      return new DeviceTile(this, maxRows, maxWidth);
    }

    @Override
    public void close() {
      cudaFree(new Address(b, 0));
      if (sqf != 0) {
        cudaFree(new Address(sqf, 0));
      }
    }
  }

  private final class DeviceTile implements NativeGemm.Tile {
    private final DeviceChunks chunks;
    private final int maxRows;
    private final int maxWidth;
    private final CUstream_st stream = new CUstream_st();
    private final cublasContext blas = new cublasContext();
    private final FloatPointer one = new FloatPointer(1f);
    private final FloatPointer zero = new FloatPointer(0f);
    private final long a;
    private final long c;
    private final long out;
    private final long hostA;
    private final long hostOut;
    private long hostTile;
    private int rows;
    /** Whether {@link #hostTile} holds the device's current column-major tile. */
    private boolean tileCopied;
    private int width;

    DeviceTile(DeviceChunks chunks, int maxRows, int maxWidth) {
      this.chunks = chunks;
      this.maxRows = maxRows;
      this.maxWidth = maxWidth;
      check(cudaStreamCreate(stream), "cudaStreamCreate");
      checkBlas(cublasCreate_v2(blas), "cublasCreate");
      checkBlas(cublasSetStream_v2(blas, stream), "cublasSetStream");
      // IEEE float32 only: never TF32 or other reduced-precision paths (the error bound of the
      // kernel's exact re-check assumes float32 products and sums)
      checkBlas(cublasSetMathMode(blas, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
      this.a = deviceAlloc((long) maxRows * chunks.d * Float.BYTES, "an A block");
      this.c = deviceAlloc((long) maxRows * maxWidth * Float.BYTES, "a score tile");
      this.out = deviceAlloc(3L * maxRows * Float.BYTES, "the scan's results");
      this.hostA = hostAlloc((long) maxRows * chunks.d * Float.BYTES, "an A block");
      this.hostOut = hostAlloc(3L * maxRows * Float.BYTES, "the scan's results");
    }

    @Override
    public long bytes() {
      return ((long) maxRows * chunks.d + (long) maxRows * maxWidth + 3L * maxRows) * Float.BYTES;
    }

    @Override
    public void load(float[] src, int rows) {
      if (rows < 0 || rows > maxRows) {
        throw new IllegalArgumentException("rows must be in [0, " + maxRows + "], got " + rows);
      }
      long n = (long) rows * chunks.d;
      new Address(hostA, n).put(src, 0, (int) n);
      copy(a, hostA, n * Float.BYTES, cudaMemcpyHostToDevice, stream, "copying an A block");
      this.rows = rows;
    }

    private long chunkAddress(int chunk) {
      return chunks.b + (long) chunks.starts[chunk] * chunks.d * Float.BYTES;
    }

    @Override
    public ByteBuffer multiply(int chunk) {
      int w = chunks.widths[chunk];
      if (rows == 0) {
        return ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder());
      }
      // row-major C (rows x w) = column-major C^T (w x rows) = B_chunk A^T
      checkBlas(cublasSgemm_v2(blas, CUBLAS_OP_T, CUBLAS_OP_N, w, rows, chunks.d, one,
          new Address(chunkAddress(chunk), 0), chunks.d, new Address(a, 0), chunks.d, zero,
          new Address(c, 0), w), "cublasSgemm");
      long n = (long) rows * w;
      downloadTile(n);
      tileCopied = false; // the host copy is row-major, not the scan's tile
      // a plain BytePointer (element size 1) over the pinned tile, for its direct buffer
      BytePointer bytes = new BytePointer(new Address(hostTile, 0));
      bytes.capacity(n * Float.BYTES).limit(n * Float.BYTES);
      return bytes.asByteBuffer().order(ByteOrder.nativeOrder());
    }

    /**
     * Copies the device's tile ({@code floats} of it, as laid out there) to the pinned host tile,
     * allocated on first use, and waits for it (and for the work before it on the stream).
     */
    private void downloadTile(long floats) {
      if (hostTile == 0) {
        hostTile = hostAlloc((long) maxRows * maxWidth * Float.BYTES, "a tile's rows");
      }
      copy(hostTile, c, floats * Float.BYTES, cudaMemcpyDeviceToHost, stream, "copying a tile");
      check(cudaStreamSynchronize(stream), "a tile's GEMM and its copy");
    }

    @Override
    public void top2(int chunk, boolean l2, float[] sqf, int j0, float[] max, float[] second,
        int[] pos) {
      int w = chunks.widths[chunk];
      synchronized (this) {
        tileCopied = false;
        width = w;
      }
      if (rows == 0) {
        return;
      }
      // column-major C (rows x w) = A B_chunk^T: column j of the chunk holds every row's score
      checkBlas(cublasSgemm_v2(blas, CUBLAS_OP_T, CUBLAS_OP_N, rows, w, chunks.d, one,
          new Address(a, 0), chunks.d, new Address(chunkAddress(chunk), 0), chunks.d, zero,
          new Address(c, 0), rows), "cublasSgemm");
      long sq = l2 ? chunks.sqf(sqf, stream) + (long) j0 * Float.BYTES : c;
      long outMax = out;
      long outSecond = out + (long) maxRows * Float.BYTES;
      long outPos = out + 2L * maxRows * Float.BYTES;
      // each argument's value in native memory, and the array of their addresses (the
      // PointerPointer keeps the values reachable until the launch has read them)
      Pointer[] args = scanArguments(c, rows, w, l2, sq, outMax, outSecond, outPos);
      PointerPointer<Pointer> params = new PointerPointer<>(args);
      int blocks = (rows + Top2Columns.ROWS - 1) / Top2Columns.ROWS;
      checkDriver(cuLaunchKernel(top2, blocks, 1, 1, Top2Columns.ROWS, Top2Columns.SEGMENTS, 1,
          0, stream, params, (PointerPointer<?>) null), "cuLaunchKernel(" + Top2Columns.KERNEL + ")");
      Reference.reachabilityFence(args);
      copy(hostOut, out, 3L * maxRows * Float.BYTES, cudaMemcpyDeviceToHost, stream,
          "copying the scan's results");
      check(cudaStreamSynchronize(stream), "a tile's GEMM and scan");
      new Address(hostOut, maxRows).get(max, 0, rows);
      new Address(hostOut + (long) maxRows * Float.BYTES, maxRows).get(second, 0, rows);
      new IntPointer(new Address(hostOut + 2L * maxRows * Float.BYTES, maxRows)).get(pos, 0, rows);
    }

    @Override
    public void columnsRow(int r, int width, float[] buf) {
      FloatPointer tile;
      synchronized (this) {
        if (!tileCopied) { // rare: a row whose runner-up is within the float error of its maximum
          downloadTile((long) rows * this.width);
          tileCopied = true;
        }
        tile = new Address(hostTile, (long) rows * this.width);
      }
      for (int j = 0; j < width; j++) {
        buf[j] = tile.get((long) j * rows + r);
      }
    }

    @Override
    public void close() {
      cudaStreamSynchronize(stream);
      cudaFree(new Address(a, 0));
      cudaFree(new Address(c, 0));
      cudaFree(new Address(out, 0));
      cudaFreeHost(new Address(hostA, 0));
      cudaFreeHost(new Address(hostOut, 0));
      if (hostTile != 0) {
        cudaFreeHost(new Address(hostTile, 0));
      }
      cublasDestroy_v2(blas);
      cudaStreamDestroy(stream);
      one.close();
      zero.close();
    }
  }
}
