/**
 * CUDA for the vote kernel: add this module (artifact {@code secpe-kernel-cuda}) and, where the
 * machine has an NVIDIA GPU with the CUDA 13 libraries, the kernel's inner products and the
 * arg-max of each tile run on the GPU, with the winners of the CPU backends ({@code Backend.AUTO}
 * picks it; {@code Backend.CUDA} asks for it). Exports nothing: it only provides the kernel's
 * service.
 */
module dev.secpe.kernel.cuda {
  requires static org.jspecify;
  requires dev.secpe.clustering;
  requires org.bytedeco.javacpp;
  requires org.bytedeco.cuda;

  provides dev.secpe.clustering.spi.NativeGemm with dev.secpe.kernel.cuda.CudaGemm;
}
