package dev.secpe.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.io.DatasetReader;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/** Private records read into Spark where they lie, without passing through the driver. */
public final class PrivateRows {

  private PrivateRows() {}

  /**
   * The records of a JSON-lines file (or directory of them; {@code .gz} is read as such), one per
   * non-blank line, parsed on the executors with the same rules and errors as {@link
   * DatasetReader} ("line 17: field 'text' missing, null or blank": positions and field names,
   * never content). Record i is the i-th record in file order.
   *
   * @param path anything {@code SparkContext.textFile} reads (a local path, {@code hdfs://}, ...)
   * @param textField the field holding the text
   * @param labelField the field holding the label, or null for unlabelled records
   */
  public static JavaRDD<PrivateRow> jsonLines(JavaSparkContext sc, String path, String textField, String labelField) {
    Objects.requireNonNull(sc, "sc");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(textField, "textField");
    String source = path;
    return sc.textFile(path).zipWithIndex().flatMap(t -> {
      DatasetReader.Builder b = DatasetReader.builder().textField(textField);
      DatasetReader reader = (labelField == null ? b.noLabel() : b.labelField(labelField)).build();
      long lineNo = t._2() + 1;
      Optional<PrivateRecord> r = reader.parsePrivateLine(t._1(), lineNo, source);
      if (r.isEmpty()) {
        return List.<PrivateRow>of().iterator();
      }
      // The reader validated the line; take the text itself from the same JSON object.
      String line = lineNo == 1 && t._1().startsWith("\uFEFF") ? t._1().substring(1) : t._1();
      JsonNode node = Json.MAPPER.readTree(line);
      String text = node.get(textField).asText();
      PrivateRow row = r.get().label().isPresent()
          ? PrivateRow.of(text, r.get().label().get().name())
          : PrivateRow.of(text);
      return List.of(row).iterator();
    });
  }

  /** One mapper per JVM. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }
}
