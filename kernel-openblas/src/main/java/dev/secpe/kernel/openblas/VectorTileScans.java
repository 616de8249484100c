package dev.secpe.kernel.openblas;

import dev.secpe.clustering.spi.TileScan;

/**
 * Provides the Vector API tile scan where the application added {@code jdk.incubator.vector}
 * ({@code --add-modules jdk.incubator.vector}; {@code bin/secpe} does): links to nothing optional
 * itself and loads {@link VectorTileScan} by name only once the module is known to be present.
 */
public final class VectorTileScans implements TileScan.Provider {

  /** For {@link java.util.ServiceLoader}. */
  public VectorTileScans() {}

  @Override
  public TileScan create() {
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
      return null;
    }
    try {
      Class<?> c = Class.forName("dev.secpe.kernel.openblas.VectorTileScan");
      if (!(Boolean) c.getDeclaredMethod("usable").invoke(null)) {
        return null;
      }
      return (TileScan) c.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      // the incubator API differs on this JDK (FloatVector.fromByteBuffer is gone on 25)
      return null;
    }
  }
}
