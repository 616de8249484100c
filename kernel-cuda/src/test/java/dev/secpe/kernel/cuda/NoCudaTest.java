package dev.secpe.kernel.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.secpe.clustering.Backend;
import dev.secpe.clustering.NearestNeighbours;

import org.junit.jupiter.api.Test;

/**
 * Where no GPU answers (CI, this project's machines: no CUDA 13 library, no device), AUTO keeps
 * to the CPU and {@code Backend.CUDA} fails naming why; run without the emulation property.
 * Skipped, saying so, on a machine where a GPU does answer.
 */
class NoCudaTest {

  @Test
  void withoutAGpuAutoKeepsToTheCpuAndCudaSaysWhy() {
    String why;
    try {
      why = new CudaGemm().load();
    } catch (Throwable t) {
      why = null;
    }
    assumeTrue(why == null, "a GPU answered here (" + why + "): the no-GPU path is not testable");
    assertThat(Boolean.getBoolean(CudaGemm.EMULATE)).isFalse();
    NearestNeighbours auto = NearestNeighbours.builder().backend(Backend.AUTO).build();
    assertThat(auto.resolvedBackend()).isNotEqualTo(Backend.CUDA);
    assertThatThrownBy(() -> NearestNeighbours.builder().backend(Backend.CUDA).build()
        .resolvedBackend())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("backend=CUDA but CUDA could not be used: ")
        .satisfies(e -> assertThat(e.getMessage())
            .containsAnyOf("the CUDA 13 libraries did not load", "no CUDA device",
                "no usable CUDA device"));
  }
}
