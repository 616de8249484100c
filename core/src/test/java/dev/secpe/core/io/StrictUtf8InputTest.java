package dev.secpe.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** {@link StrictUtf8Input} accepts exactly what the JDK's strict UTF-8 decoder accepts. */
class StrictUtf8InputTest {

  private static boolean jdkAccepts(byte[] bytes) {
    try {
      StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  private static boolean accepts(byte[] bytes) throws Exception {
    try (InputStream in = new StrictUtf8Input(new ByteArrayInputStream(bytes))) {
      in.readAllBytes();
      return true;
    } catch (StrictUtf8Input.Malformed e) {
      return false;
    }
  }

  @Property(tries = 3000)
  void acceptsWhatTheJdkDecoderAccepts(@ForAll @Size(max = 12) byte[] bytes) throws Exception {
    assertThat(accepts(bytes)).as("%s", java.util.HexFormat.of().formatHex(bytes)).isEqualTo(jdkAccepts(bytes));
  }

  @Property(tries = 500)
  void acceptsEveryStringTheJdkEncodes(@ForAll String text) throws Exception {
    assertThat(accepts(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(jdkAccepts(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void edgeCasesAndTheLineOfTheFault() throws Exception {
    // 4-byte U+10FFFF, 3-byte U+FFFD and U+D7FF accepted; surrogates, overlongs, U+110000, a cut sequence refused
    assertThat(accepts(new byte[] {(byte) 0xF4, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF})).isTrue();
    assertThat(accepts(new byte[] {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD})).isTrue();
    assertThat(accepts(new byte[] {(byte) 0xED, (byte) 0x9F, (byte) 0xBF})).isTrue();
    assertThat(accepts(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})).isFalse();
    assertThat(accepts(new byte[] {(byte) 0xC0, (byte) 0xAF})).isFalse();
    assertThat(accepts(new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0xAF})).isFalse();
    assertThat(accepts(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80})).isFalse();
    assertThat(accepts(new byte[] {'a', (byte) 0xE2, (byte) 0x82})).isFalse();
    byte[] third = "one\ntwo\nthr\u00e9e\u00c3(\n".getBytes(StandardCharsets.ISO_8859_1);
    assertThatThrownBy(() -> new StrictUtf8Input(new ByteArrayInputStream(third)).readAllBytes())
        .isInstanceOfSatisfying(StrictUtf8Input.Malformed.class, m -> assertThat(m.line()).isEqualTo(3));
  }
}
