package dev.secpe.core.io;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.secpe.core.Label;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PrivateText;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.PublicRecord;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.zip.GZIPInputStream;

/**
 * Reads private datasets and public corpora from JSON lines or CSV (optionally gzip-compressed,
 * detected from the content), with configurable text, label and id fields.
 *
 * <ul>
 *   <li>JSONL: one JSON object per line; blank lines are ignored. CSV: RFC 4180 with a header row
 *       naming the columns; quoted fields may span lines.
 *   <li>The text field must be a string; absent, null or blank text follows the {@link
 *       MissingTextPolicy} (reject by default); text of another JSON type is always an error.
 *   <li>With a label field set, every record needs a label: a string, an integer or a boolean.
 *   <li>The id field is optional per record; without it the id is {@code "line-N"}.
 *   <li>Errors are {@link DatasetFormatException}s naming the source, line and field, e.g.
 *       {@code "private.jsonl: line 17: field 'text' missing, null or blank"}: they never quote
 *       content. An empty private dataset is rejected.
 * </ul>
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}.
 */
public final class DatasetReader {

  /** The file format. */
  public enum Format {
    /** JSON lines. */
    JSONL,
    /** Comma-separated values with a header row. */
    CSV,
    /**
     * Decided by the file name: {@code .csv} (optionally {@code .gz}) is CSV; {@code .jsonl},
     * {@code .ndjson} or {@code .json} is JSONL.
     */
    AUTO
  }

  /** The default {@link Builder#maxRecordChars}: 16 Mi characters. */
  public static final long DEFAULT_MAX_RECORD_CHARS = 16L << 20;

  /** The default {@link Builder#maxInputBytes}: 4 GiB. */
  public static final long DEFAULT_MAX_INPUT_BYTES = 4L << 30;

  private final ObjectMapper json;
  private final CsvMapper csv;
  private final long maxRecordChars;
  private final long maxInputBytes;

  private final String textField;
  private final String labelField;
  private final String idField;
  private final Format format;
  private final MissingTextPolicy missingText;
  private final IntConsumer onSkipped;
  private final Duration stallTimeout;

  private DatasetReader(Builder b) {
    this.maxRecordChars = b.maxRecordChars;
    this.maxInputBytes = b.maxInputBytes;
    // A record up to the limit parses: Jackson's own string limit (20 M) would call a longer one "not valid JSON".
    StreamReadConstraints limits = StreamReadConstraints.builder()
        .maxStringLength((int) Math.min(Integer.MAX_VALUE - 16, Math.max(maxRecordChars, 1)))
        .build();
    this.json = JsonMapper.builder()
        .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();
    this.json.getFactory().setStreamReadConstraints(limits);
    this.csv = CsvMapper.builder().disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION).build();
    this.csv.getFactory().setStreamReadConstraints(limits);
    this.stallTimeout = b.stallTimeout;
    this.textField = b.textField;
    this.labelField = b.labelField;
    this.idField = b.idField;
    this.format = b.format;
    this.missingText = b.missingText;
    this.onSkipped = b.onSkipped;
  }

  /**
   * A builder with text field "text", no label field, id field "id", format AUTO, REJECT, and a
   * stall timeout of {@link InputFiles#DEFAULT_STALL_TIMEOUT}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A reader with the defaults of {@link #builder()}. */
  public static DatasetReader defaults() {
    return builder().build();
  }

  /**
   * Reads a private dataset.
   *
   * @throws DatasetFormatException for a malformed record, or if no record has text
   * @throws UncheckedIOException if the file cannot be read
   */
  public PrivateDataset readPrivate(Path file) {
    return toPrivate(readRows(file, Set.of()), file.toString());
  }

  /** Reads a private dataset from a stream (not closed) in the given format (not AUTO). */
  public PrivateDataset readPrivate(InputStream in, String sourceName, Format format) {
    return toPrivate(readRows(in, sourceName, concrete(format, sourceName), Set.of()), sourceName);
  }

  /** Reads a public corpus (may be empty). */
  public PublicCorpus readPublic(Path file) {
    return toPublic(readRows(file, Set.of()));
  }

  /** Reads a public corpus from a stream (not closed) in the given format (not AUTO). */
  public PublicCorpus readPublic(InputStream in, String sourceName, Format format) {
    return toPublic(readRows(in, sourceName, concrete(format, sourceName), Set.of()));
  }

  /** One parsed record, before it becomes private or public. */
  record Row(long line, String id, String text, Optional<Label> label, Map<String, String> extra) {}

  PrivateDataset toPrivate(List<Row> rows, String source) {
    if (rows.isEmpty()) {
      throw new DatasetFormatException(
          source, 0, textField, "no records with text: a private dataset must not be empty");
    }
    List<PrivateRecord> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      out.add(new PrivateRecord(r.id, PrivateText.of(r.text), r.label));
    }
    return PrivateDataset.of(out);
  }

  PublicCorpus toPublic(List<Row> rows) {
    List<PublicRecord> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      out.add(new PublicRecord(r.id, r.text, r.label));
    }
    return PublicCorpus.of(out);
  }

  List<Row> readRows(Path file, Set<String> extraFields) {
    Objects.requireNonNull(file, "file");
    Format f = concrete(format, file.getFileName().toString());
    try (InputStream in = InputFiles.open(file, stallTimeout)) {
      return readRows(in, file.toString(), f, extraFields);
    } catch (InputStalledException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getClass().getSimpleName(), e);
    }
  }

  List<Row> readRows(InputStream raw, String source, Format f, Set<String> extraFields) {
    Objects.requireNonNull(raw, "in");
    Objects.requireNonNull(source, "sourceName");
    try {
      InputStream in = new StrictUtf8Input(new Limited(maybeGunzip(raw), maxInputBytes));
      PushbackReader reader =
          new PushbackReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1);
      int first = reader.read();
      if (first >= 0 && first != '\uFEFF') {
        reader.unread(first); // a UTF-8 byte-order mark (Excel's CSV export) is dropped
      }
      return f == Format.CSV
          ? readCsv(reader, source, extraFields)
          : readJsonl(new BufferedReader(reader), source, extraFields);
    } catch (InputStalledException e) {
      throw new UncheckedIOException(e.getMessage(), e); // names the file and the timeout only
    } catch (Limited.Reached e) {
      throw new InputLimitException(source, 0, "more than " + maxInputBytes + " bytes of input", "maxInputBytes", maxInputBytes);
    } catch (StrictUtf8Input.Malformed e) {
      throw new DatasetFormatException(source, e.line(), null,
          "holds bytes that are not valid UTF-8 (nothing of it is shown): save the file as UTF-8; a record is never"
              + " read with its text silently replaced");
    } catch (IOException e) {
      // The original message may quote content (e.g. a decoder error); keep only its class.
      throw new UncheckedIOException(
          "cannot read " + source,
          new IOException(e.getClass().getName() + " (message withheld)"));
    }
  }

  private static Format concrete(Format f, String name) {
    Objects.requireNonNull(f, "format");
    if (f != Format.AUTO) {
      return f;
    }
    String n = name.toLowerCase(Locale.ROOT);
    if (n.endsWith(".gz")) {
      n = n.substring(0, n.length() - 3);
    }
    if (n.endsWith(".csv")) {
      return Format.CSV;
    }
    if (n.endsWith(".jsonl") || n.endsWith(".ndjson") || n.endsWith(".json")) {
      return Format.JSONL;
    }
    throw new IllegalArgumentException(
        "cannot tell the format of '" + name + "' from its name; use .jsonl or .csv, or set format");
  }

  private static InputStream maybeGunzip(InputStream raw) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw);
    in.mark(2);
    int a = in.read();
    int b = in.read();
    in.reset();
    if (a == 0x1f && b == 0x8b) {
      return new GZIPInputStream(in, 1 << 16);
    }
    return in;
  }

  private List<Row> readJsonl(BufferedReader in, String source, Set<String> extraFields)
      throws IOException {
    List<Row> rows = new ArrayList<>();
    Map<String, Long> idLines = new HashMap<>();
    String line;
    long lineNo = 0;
    LineReader lines = new LineReader(in, maxRecordChars);
    while (true) {
      try {
        line = lines.next();
      } catch (LineReader.TooLong e) {
        throw new InputLimitException(source, lineNo + 1, "a record longer than " + maxRecordChars + " characters",
            "maxRecordChars", maxRecordChars);
      }
      if (line == null) {
        break;
      }
      lineNo++;
      Row row = parseJsonLine(line, lineNo, source, extraFields, idLines);
      if (row != null) {
        rows.add(row);
      }
    }
    return rows;
  }

  /**
   * One JSONL line as a private record, for readers that split a file and parse its lines apart
   * (such as {@code secpe-spark}'s): empty for a blank line or a record skipped by the {@link
   * MissingTextPolicy}. Errors name the source, the line and the field, never the content. Ids are
   * not checked for duplicates (no other line is seen).
   *
   * @throws DatasetFormatException if the line is not a valid record
   */
  public Optional<PrivateRecord> parsePrivateLine(String line, long lineNo, String source) {
    Objects.requireNonNull(line, "line");
    Objects.requireNonNull(source, "source");
    if (lineNo == 1 && line.startsWith("\uFEFF")) {
      line = line.substring(1); // a UTF-8 byte-order mark, as readRows drops it
    }
    Row r = parseJsonLine(line, lineNo, source, Set.of(), new HashMap<>());
    return r == null ? Optional.empty() : Optional.of(new PrivateRecord(r.id, PrivateText.of(r.text), r.label));
  }

  /** A JSONL line as a row; null for a blank line or a skipped record. */
  private Row parseJsonLine(
      String line, long lineNo, String source, Set<String> extraFields, Map<String, Long> idLines) {
    if (line.isBlank()) {
      return null;
    }
    JsonNode node;
    try {
      node = json.readTree(line);
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      throw new DatasetFormatException(
          source,
          lineNo,
          null,
          "not valid JSON" + (loc != null && loc.getColumnNr() > 0 ? " (column " + loc.getColumnNr() + ")" : ""));
    }
    if (node == null || !node.isObject()) {
      throw new DatasetFormatException(
          source, lineNo, null, "expected a JSON object, got " + kindOf(node));
    }
    Map<String, JsonNode> fields = new HashMap<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      fields.put(e.getKey(), e.getValue());
    }
    return toRow(fields, lineNo, source, extraFields, idLines);
  }

  private List<Row> readCsv(Reader in, String source, Set<String> extraFields) throws IOException {
    CsvSchema schema = CsvSchema.emptySchema().withHeader();
    List<Row> rows = new ArrayList<>();
    Map<String, Long> idLines = new HashMap<>();
    try (JsonParser p = csv.readerFor(Map.class).with(schema).createParser(in)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        return rows;
      }
      CsvSchema header = ((CsvParser) p).getSchema();
      List<String> columns = new ArrayList<>();
      header.forEach(c -> columns.add(c.getName()));
      if (!columns.contains(textField)) {
        throw new DatasetFormatException(
            source, 1, textField, "header has no column '" + textField + "'; columns: " + columns);
      }
      if (labelField != null && !columns.contains(labelField)) {
        throw new DatasetFormatException(
            source, 1, labelField, "header has no column '" + labelField + "'; columns: " + columns);
      }
      while (t != null) {
        if (t != JsonToken.START_OBJECT) {
          throw new DatasetFormatException(
              source, p.currentTokenLocation().getLineNr(), null, "malformed CSV record");
        }
        long lineNo = -1;
        Map<String, JsonNode> fields = new HashMap<>();
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          if (lineNo < 0) {
            // The location of the record's first value: START_OBJECT still points at the end of
            // the previous record.
            lineNo = p.currentTokenLocation().getLineNr();
          }
          fields.put(name, json.getNodeFactory().textNode(p.getValueAsString()));
        }
        if (t != JsonToken.END_OBJECT) {
          throw new DatasetFormatException(source, Math.max(lineNo, 0), null, "malformed CSV record");
        }
        Row row = toRow(fields, lineNo, source, extraFields, idLines);
        if (row != null) {
          rows.add(row);
        }
        t = p.nextToken();
      }
    } catch (StreamConstraintsException e) {
      throw new InputLimitException(source, 0, "a field longer than " + maxRecordChars + " characters",
          "maxRecordChars", maxRecordChars);
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      throw new DatasetFormatException(
          source, loc == null ? 0 : loc.getLineNr(), null, "malformed CSV (e.g. an unclosed quote or too many columns)");
    }
    return rows;
  }

  private Row toRow(
      Map<String, JsonNode> fields,
      long lineNo,
      String source,
      Set<String> extraFields,
      Map<String, Long> idLines) {
    JsonNode text = fields.get(textField);
    String textValue;
    if (text == null || text.isNull() || (text.isTextual() && text.asText().isBlank())) {
      if (missingText == MissingTextPolicy.SKIP) {
        if (onSkipped != null) {
          onSkipped.accept((int) Math.min(Integer.MAX_VALUE, lineNo));
        }
        return null;
      }
      throw new DatasetFormatException(
          source, lineNo, textField, "field '" + textField + "' missing, null or blank");
    }
    if (!text.isTextual()) {
      throw new DatasetFormatException(
          source,
          lineNo,
          textField,
          "field '" + textField + "' is not a string (got " + kindOf(text) + ")");
    }
    textValue = text.asText();

    String id = "line-" + lineNo;
    if (idField != null) {
      JsonNode idNode = fields.get(idField);
      if (idNode != null && !idNode.isNull()) {
        if (!(idNode.isTextual() || idNode.isIntegralNumber()) || idNode.asText().isBlank()) {
          throw new DatasetFormatException(
              source,
              lineNo,
              idField,
              "field '" + idField + "' must be a non-blank string or an integer (got " + kindOf(idNode) + ")");
        }
        id = idNode.asText();
      }
    }
    Long first = idLines.putIfAbsent(id, lineNo);
    if (first != null) {
      throw new DatasetFormatException(
          source, lineNo, idField, "duplicate id (first used on line " + first + ")");
    }

    Optional<Label> label = Optional.empty();
    if (labelField != null) {
      JsonNode l = fields.get(labelField);
      if (l == null || l.isNull() || !(l.isTextual() || l.isIntegralNumber() || l.isBoolean())
          || l.asText().isBlank()) {
        throw new DatasetFormatException(
            source,
            lineNo,
            labelField,
            "field '" + labelField + "' missing or not a non-blank string, integer or boolean (got "
                + kindOf(l) + ")");
      }
      label = Optional.of(Label.of(l.asText()));
    }

    Map<String, String> extra = Map.of();
    if (!extraFields.isEmpty()) {
      extra = new HashMap<>();
      for (String f : extraFields) {
        JsonNode v = fields.get(f);
        if (v != null && v.isValueNode() && !v.isNull()) {
          extra.put(f, v.asText());
        }
      }
    }
    return new Row(lineNo, id, textValue, label, extra);
  }

  private static String kindOf(JsonNode n) {
    if (n == null) {
      return "nothing";
    }
    return n.getNodeType().name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return "DatasetReader[text="
        + textField
        + (labelField != null ? ", label=" + labelField : "")
        + (idField != null ? ", id=" + idField : "")
        + ", format="
        + format
        + ", missingText="
        + missingText
        + "]";
  }

  /** A stream that fails once more than {@code max} bytes were read through it. */
  private static final class Limited extends FilterInputStream {
    /** The limit was passed. */
    static final class Reached extends IOException {
      private static final long serialVersionUID = 1L;
    }

    private final long max;
    private long read;

    Limited(InputStream in, long max) {
      super(in);
      this.max = max;
    }

    private int count(int n) throws IOException {
      if (n > 0) {
        read += n;
        if (read > max) {
          throw new Reached();
        }
      }
      return n;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      count(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return count(super.read(b, off, len));
    }
  }

  /** Lines (ended by \n, \r or \r\n, as {@link BufferedReader#readLine}) of at most {@code max} characters. */
  private static final class LineReader {
    /** A line passed the limit. */
    static final class TooLong extends Exception {
      private static final long serialVersionUID = 1L;
    }

    private final Reader in;
    private final long max;
    private final char[] buf = new char[1 << 16];
    private int pos;
    private int len;
    private boolean skipLf;

    LineReader(Reader in, long max) {
      this.in = in;
      this.max = max;
    }

    /** The next line, or null at the end. */
    String next() throws IOException, TooLong {
      StringBuilder line = null;
      while (true) {
        if (pos == len) {
          len = in.read(buf, 0, buf.length);
          pos = 0;
          if (len <= 0) {
            len = 0;
            return line == null ? null : line.toString();
          }
        }
        if (skipLf) {
          skipLf = false;
          if (buf[pos] == '\n') {
            pos++;
            continue;
          }
        }
        int start = pos;
        while (pos < len && buf[pos] != '\n' && buf[pos] != '\r') {
          pos++;
        }
        if (line == null) {
          line = new StringBuilder(Math.min(pos - start + 16, 1 << 16));
        }
        if (line.length() + (long) (pos - start) > max) {
          throw new TooLong();
        }
        line.append(buf, start, pos - start);
        if (pos < len) {
          skipLf = buf[pos] == '\r';
          pos++;
          return line.toString();
        }
      }
    }
  }

  /** Builder; each value is checked as it is set. Reusable. */
  public static final class Builder {
    private String textField = "text";
    private String labelField;
    private String idField = "id";
    private Format format = Format.AUTO;
    private MissingTextPolicy missingText = MissingTextPolicy.REJECT;
    private IntConsumer onSkipped;
    private Duration stallTimeout = InputFiles.DEFAULT_STALL_TIMEOUT;
    private long maxRecordChars = DEFAULT_MAX_RECORD_CHARS;
    private long maxInputBytes = DEFAULT_MAX_INPUT_BYTES;

    Builder() {}

    /**
     * The longest record read, in characters (a JSONL line, a CSV field): {@link
     * #DEFAULT_MAX_RECORD_CHARS} by default. A longer one is an {@link InputLimitException} naming
     * this setting, raised as soon as the limit is passed (a line that never ends stops there).
     *
     * @throws IllegalArgumentException unless >= 1
     */
    public Builder maxRecordChars(long chars) {
      if (chars < 1) {
        throw new IllegalArgumentException("maxRecordChars must be >= 1, got maxRecordChars=" + chars);
      }
      this.maxRecordChars = chars;
      return this;
    }

    /**
     * The most bytes read from one input, after decompression: {@link #DEFAULT_MAX_INPUT_BYTES} by
     * default. More is an {@link InputLimitException} naming this setting (an input that never
     * ends, such as {@code /dev/zero}, stops there).
     *
     * @throws IllegalArgumentException unless >= 1
     */
    public Builder maxInputBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxInputBytes must be >= 1, got maxInputBytes=" + bytes);
      }
      this.maxInputBytes = bytes;
      return this;
    }

    /**
     * The longest wait for a file to open and for each read's data ({@link
     * InputFiles#DEFAULT_STALL_TIMEOUT} by default): a FIFO that no process writes to, or a read
     * that hangs, fails with an {@link UncheckedIOException} caused by an {@link
     * InputStalledException} instead of blocking for good. It bounds a stall, not the whole read.
     *
     * @throws IllegalArgumentException unless positive
     */
    public Builder readTimeout(Duration stallTimeout) {
      this.stallTimeout = InputFiles.checkTimeout("readTimeout", stallTimeout);
      return this;
    }

    /** The field holding the text; "text" by default. */
    public Builder textField(String name) {
      this.textField = fieldName("textField", name);
      return this;
    }

    /** The field holding the label; none by default (records are unlabelled). */
    public Builder labelField(String name) {
      this.labelField = fieldName("labelField", name);
      return this;
    }

    /** Records are unlabelled (the default). */
    public Builder noLabel() {
      this.labelField = null;
      return this;
    }

    /** The field holding the record id; "id" by default. */
    public Builder idField(String name) {
      this.idField = fieldName("idField", name);
      return this;
    }

    /** Ignore ids in the file; every record gets id "line-N". */
    public Builder noIdField() {
      this.idField = null;
      return this;
    }

    /** The format; {@link Format#AUTO} by default. */
    public Builder format(Format format) {
      this.format = Objects.requireNonNull(format, "format");
      return this;
    }

    /** What to do with records without text; {@link MissingTextPolicy#REJECT} by default. */
    public Builder missingText(MissingTextPolicy policy) {
      this.missingText = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Called with the line number of each record skipped under {@link MissingTextPolicy#SKIP}. */
    public Builder onSkipped(IntConsumer listener) {
      this.onSkipped = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * The reader.
     *
     * @throws IllegalStateException if two of the text, label and id fields are the same
     */
    public DatasetReader build() {
      if (textField.equals(labelField) || textField.equals(idField)) {
        throw new IllegalStateException(
            "textField '" + textField + "' must differ from labelField and idField");
      }
      if (labelField != null && labelField.equals(idField)) {
        throw new IllegalStateException(
            "labelField '" + labelField + "' must differ from idField");
      }
      return new DatasetReader(this);
    }

    private static String fieldName(String what, String name) {
      Objects.requireNonNull(name, what);
      if (name.isBlank()) {
        throw new IllegalArgumentException(what + " must not be blank");
      }
      return name;
    }
  }
}
