/**
 * The vote kernel on an NVIDIA GPU: {@link dev.secpe.kernel.cuda.CudaGemm}, found by the kernel
 * through {@link java.util.ServiceLoader}. Applications never call it: they add the artifact and
 * the kernel ({@code NearestNeighbours}, k-means, the methods' votes) uses the GPU where one
 * answers.
 *
 * <p>What runs where: B (the candidates) is copied to the GPU once per kernel call, each block of
 * A's rows once per block; cuBLAS computes each tile (IEEE float32, {@code CUBLAS_PEDANTIC_MATH}:
 * never TF32); a kernel compiled at run time with NVRTC finds each row's two largest ranking
 * values and the first position of the largest; only those come back. The CPU then re-checks, in
 * exact arithmetic, every row whose runner-up is within the float error bound of its maximum, as
 * for every other backend, so the winners do not depend on the backend.
 */
package dev.secpe.kernel.cuda;
