package dev.secpe.core.secret;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Turns a secret's kind and normalised value into an id: {@code kind + ":" +} the first 16 hex
 * digits of HMAC-SHA256(key, kind NUL value). Keyed because the values (phone numbers, e-mail
 * addresses, words) have little entropy: an unkeyed hash could be reversed by trying candidates.
 * Ids are stable for one key; with {@link #randomKey()} they are stable within one run and
 * unlinkable across runs; SecPE keys them with {@link dev.secpe.core.PrivateDataset#secretIdKey()},
 * a key only the records give, so that its runs on the same records name the same secrets alike
 * (and its journal can tell their secret sets apart). {@link #toString()} never prints the key.
 */
public final class SecretIds {

  private final ThreadLocal<Mac> macs;

  private SecretIds(byte[] key) {
    SecretKeySpec spec = new SecretKeySpec(key, "HmacSHA256");
    this.macs =
        ThreadLocal.withInitial(
            () -> {
              try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(spec);
                return mac;
              } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is not available", e);
              }
            });
  }

  /** Ids under a fresh 32-byte key from {@link SecureRandom}. */
  public static SecretIds randomKey() {
    byte[] k = new byte[32];
    new SecureRandom().nextBytes(k);
    return new SecretIds(k);
  }

  /**
   * Ids under the caller's key (e.g. to link ids across runs); at least 16 bytes.
   *
   * @throws IllegalArgumentException if the key is shorter than 16 bytes
   */
  public static SecretIds withKey(byte[] key) {
    Objects.requireNonNull(key, "key");
    if (key.length < 16) {
      throw new IllegalArgumentException("secret id key must have >= 16 bytes, got " + key.length);
    }
    return new SecretIds(key.clone());
  }

  /** The id of the secret of this kind and normalised value. */
  public String idOf(String kind, String value) {
    Mac mac = macs.get();
    mac.reset();
    mac.update(kind.getBytes(StandardCharsets.UTF_8));
    mac.update((byte) 0);
    byte[] h = mac.doFinal(value.getBytes(StandardCharsets.UTF_8));
    return kind + ":" + HexFormat.of().formatHex(h, 0, 8);
  }

  @Override
  public String toString() {
    return "SecretIds[HmacSHA256, key redacted]";
  }
}
