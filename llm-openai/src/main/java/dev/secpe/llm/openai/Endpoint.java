package dev.secpe.llm.openai;

import java.net.URI;
import java.util.Objects;

/**
 * One OpenAI-compatible endpoint: a base URL (e.g. {@code https://api.openai.com/v1}) and the API
 * key sent to it, if any. {@link #toString()} never shows the key.
 *
 * @param baseUrl the base URL, http or https, without the operation path
 * @param apiKey the bearer key, or null for servers that need none (local vLLM, Ollama)
 */
public record Endpoint(URI baseUrl, String apiKey) {

  /** Validates eagerly and strips a trailing slash. */
  public Endpoint {
    Objects.requireNonNull(baseUrl, "baseUrl");
    if (baseUrl.getRawUserInfo() != null || baseUrl.getRawQuery() != null) {
      // Do not echo the URL: it carries credentials or parameters that belong in apiKey.
      throw new IllegalArgumentException(
          "baseUrl must not contain user info or a query (pass keys as apiKey), host=" + baseUrl.getHost());
    }
    String scheme = baseUrl.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme) || baseUrl.getHost() == null) {
      throw new IllegalArgumentException("baseUrl must be an http or https URL, got baseUrl=" + baseUrl);
    }
    String s = baseUrl.toString();
    if (s.endsWith("/")) {
      baseUrl = URI.create(s.substring(0, s.length() - 1));
    }
    if (apiKey != null && apiKey.isBlank()) {
      apiKey = null;
    }
  }

  /** An endpoint without a key. */
  public static Endpoint of(String baseUrl) {
    return new Endpoint(URI.create(baseUrl), null);
  }

  /** An endpoint with a key. */
  public static Endpoint of(String baseUrl, String apiKey) {
    return new Endpoint(URI.create(baseUrl), apiKey);
  }

  URI resolve(String path) {
    return URI.create(baseUrl + path);
  }

  @Override
  public String toString() {
    return baseUrl + (apiKey == null ? "" : " (key ***)");
  }
}
