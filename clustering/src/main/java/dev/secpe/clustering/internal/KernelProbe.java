package dev.secpe.clustering.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Not API (this package is not exported): where the nearest-neighbour kernel's time goes, for
 * {@code secpe bench kernel}. A probe started on a thread is picked up by the kernel calls that
 * thread makes until {@link #stop()}; it changes nothing else (no process-wide state), and calls
 * made on other threads never see it.
 */
public final class KernelProbe {

  /** The phases of a block: read and prepare A's rows, GEMM, arg-max scan, exact re-check, delivery. */
  public enum Phase {
    /** Reading A's rows, the finiteness check, normalisation and norms. */
    PREPARE,
    /** The GEMM of each tile. */
    GEMM,
    /** The arg-max scan of each tile (including its rare collect pass). */
    SCAN,
    /** The exact rescoring of the shortlisted candidates and the final choice. */
    RESCORE,
    /** Handing results to the consumer (serialised between lanes). */
    DELIVER
  }

  private static final ThreadLocal<KernelProbe> CURRENT = new ThreadLocal<>();

  private final LongAdder[] nanos = new LongAdder[Phase.values().length];
  private final boolean scalarScan;
  private volatile String scan = "none";
  private volatile int lanes;
  private volatile int partsPerLane;
  private volatile int blockRows;
  private volatile int chunkColumns;
  private long nativeBytes;
  private long peakNativeBytes;

  private KernelProbe(boolean scalarScan) {
    this.scalarScan = scalarScan;
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] = new LongAdder();
    }
  }

  /**
   * Starts a probe on this thread.
   *
   * @param scalarScan make the kernel use its scalar scan even where the Vector API is present
   */
  public static KernelProbe start(boolean scalarScan) {
    KernelProbe p = new KernelProbe(scalarScan);
    CURRENT.set(p);
    return p;
  }

  /** The probe started on this thread, or null. */
  public static KernelProbe current() {
    return CURRENT.get();
  }

  /** Detaches the probe from this thread; its figures stay readable. */
  public void stop() {
    if (CURRENT.get() == this) {
      CURRENT.remove();
    }
  }

  /** Whether the kernel should use its scalar scan. */
  public boolean scalarScan() {
    return scalarScan;
  }

  /** Adds {@code ns} nanoseconds of lane time to {@code phase}. */
  public void add(Phase phase, long ns) {
    nanos[phase.ordinal()].add(ns);
  }

  /** Lane nanoseconds spent in {@code phase} (summed over lanes). */
  public long nanos(Phase phase) {
    return nanos[phase.ordinal()].sum();
  }

  /** Records the scan, the parallel layout and the tiling the kernel used. */
  public void layout(String scan, int lanes, int partsPerLane, int blockRows, int chunkColumns) {
    this.scan = scan;
    this.lanes = lanes;
    this.partsPerLane = partsPerLane;
    this.blockRows = blockRows;
    this.chunkColumns = chunkColumns;
  }

  /** Counts {@code bytes} of native (off-heap) memory the kernel allocated (negative: freed). */
  public synchronized void nativeAllocated(long bytes) {
    nativeBytes += bytes;
    peakNativeBytes = Math.max(peakNativeBytes, nativeBytes);
  }

  /** The most native memory the kernel held at once (B's chunks, A blocks and score tiles). */
  public synchronized long peakNativeBytes() {
    return peakNativeBytes;
  }

  /** Rows of A per block in the last call. */
  public int blockRows() {
    return blockRows;
  }

  /** Columns of B per tile in the last call. */
  public int chunkColumns() {
    return chunkColumns;
  }

  /** The scan the last call used ({@code "scalar"}, {@code "vector-512"}, ...). */
  public String scan() {
    return scan;
  }

  /** Lanes (blocks in flight at once) of the last call. */
  public int lanes() {
    return lanes;
  }

  /** Threads sharing one block's scan in the last call. */
  public int partsPerLane() {
    return partsPerLane;
  }
}
