package dev.secpe.core;

import java.util.Objects;

/** The rule every record's id follows, in one place: present and not blank. */
final class Ids {

  private Ids() {}

  /** {@code id}, checked; {@code what} names the record in the error ("record", "synthetic text"). */
  static String require(String id, String what) {
    Objects.requireNonNull(id, "id");
    if (id.isBlank()) {
      throw new IllegalArgumentException(what + " id must not be blank");
    }
    return id;
  }
}
