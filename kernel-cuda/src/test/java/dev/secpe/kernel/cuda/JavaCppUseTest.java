package dev.secpe.kernel.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.junit.jupiter.api.Test;

/**
 * The JavaCPP idioms {@link CudaEngine} relies on, checked on host memory where no GPU is: an
 * {@link CudaEngine.Address} points where it is told (with no deallocator of its own), reads and
 * writes floats there, views as ints and as a direct byte buffer of the right size, and the
 * launch's argument array holds each argument's address in the kernel's order.
 */
class JavaCppUseTest {

  @Test
  void anAddressReadsAndWritesTheMemoryItNames() {
    try (FloatPointer owner = new FloatPointer(8)) {
      CudaEngine.Address at = new CudaEngine.Address(owner.address(), 8);
      assertThat(at.address()).isEqualTo(owner.address());
      assertThat(at.position()).isZero();
      at.put(new float[] {1f, 2f, 3f, 4f, 5f, 6f, 7f, 8f}, 0, 8);
      float[] back = new float[3];
      new CudaEngine.Address(owner.address() + 2L * Float.BYTES, 6).get(back, 0, 3);
      assertThat(back).containsExactly(3f, 4f, 5f);
      assertThat(owner.get(7)).isEqualTo(8f);

      int[] asInts = new int[2];
      new IntPointer(new CudaEngine.Address(owner.address(), 8)).get(asInts, 0, 2);
      assertThat(asInts).containsExactly(Float.floatToRawIntBits(1f), Float.floatToRawIntBits(2f));

      BytePointer bytes = new BytePointer(new CudaEngine.Address(owner.address(), 0));
      bytes.capacity(8L * Float.BYTES).limit(8L * Float.BYTES);
      ByteBuffer view = bytes.asByteBuffer().order(java.nio.ByteOrder.nativeOrder());
      assertThat(view.capacity()).isEqualTo(32);
      assertThat(view.getFloat(4 * 5)).isEqualTo(6f);
    }
  }

  @Test
  void theLaunchArgumentsHoldEachValueInTheKernelsOrder() {
    Pointer[] args = CudaEngine.scanArguments(0x1000L, 7, 9, true, 0x2000L, 0x3000L, 0x4000L,
        0x5000L);
    PointerPointer<Pointer> params = new PointerPointer<>(args);
    assertThat(args).hasSize(8);
    for (int i = 0; i < args.length; i++) {
      assertThat(params.get(i).address()).as("argument %s", i).isEqualTo(args[i].address());
    }
    assertThat(new LongPointer(args[0]).get(0)).isEqualTo(0x1000L);
    assertThat(new IntPointer(args[1]).get(0)).isEqualTo(7);
    assertThat(new IntPointer(args[2]).get(0)).isEqualTo(9);
    assertThat(new IntPointer(args[3]).get(0)).isEqualTo(1);
    assertThat(new LongPointer(args[4]).get(0)).isEqualTo(0x2000L);
    assertThat(new LongPointer(args[7]).get(0)).isEqualTo(0x5000L);
  }
}
