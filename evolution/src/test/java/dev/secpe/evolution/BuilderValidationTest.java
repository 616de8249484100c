package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.core.secret.PiiDetector;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every invalid value of every builder option is refused when it is set, with a message that
 * names the option and the value; every invalid combination is refused by build() with a message
 * of its own that names what conflicts. One case per line, so a message that goes vague fails its
 * own case.
 */
class BuilderValidationTest {

  private static Arguments value(String what, Runnable set, String... fragments) {
    return Arguments.of(what, set, fragments);
  }

  static Stream<Arguments> invalidValues() {
    return Stream.of(
        // Shared options (EvolutionBuilder), through each method's builder.
        value("syntheticSize 0", () -> SecPE.builder().syntheticSize(0), "syntheticSize", "syntheticSize=0"),
        value("variations 0", () -> AugPE.builder().variations(0), "variations", "variations=0"),
        value("iterations 0", () -> DPGA.builder().iterations(0), "iterations", "iterations=0"),
        value("maskProbability 0", () -> AugPE.builder().maskProbability(0), "maskProbability=0.0"),
        value("maskProbability 1", () -> AugPE.builder().maskProbability(1), "maskProbability=1.0"),
        value("maskProbability NaN", () -> AugPE.builder().maskProbability(Double.NaN), "maskProbability=NaN"),
        value("generationTimeout 0", () -> SecPE.builder().generationTimeout(Duration.ZERO), "generationTimeout=PT0S"),
        value("embeddingTimeout -1s", () -> SecPE.builder().embeddingTimeout(Duration.ofSeconds(-1)), "embeddingTimeout=PT-1S"),
        value("providerRetries -1", () -> CTCL.builder().providerRetries(-1), "providerRetries=-1"),
        value("privateData null", () -> SecPE.builder().privateData(null), "privateData"),
        value("generator null", () -> SecPE.builder().generator(null), "generator"),
        value("embedder null", () -> SecPE.builder().embedder(null), "embedder"),
        value("checkpoint null", () -> SecPE.builder().checkpoint(null), "checkpoint"),
        // SecPE.
        value("clusters 0", () -> SecPE.builder().clusters(0), "clusters=0"),
        value("kmeansRestarts 0", () -> SecPE.builder().kmeansRestarts(0), "kmeansRestarts=0"),
        value("secretCap 0", () -> SecPE.builder().secretCap(0), "secretCap=0"),
        value("reportDelta 1", () -> SecPE.builder().reportDelta(1), "reportDelta=1.0"),
        value("reportDelta NaN", () -> SecPE.builder().reportDelta(Double.NaN), "reportDelta=NaN"),
        value("secrets null", () -> SecPE.builder().secrets(null), "secrets"),
        // Aug-PE.
        value("nearestNeighbours 0", () -> AugPE.builder().nearestNeighbours(0), "nearestNeighbours=0"),
        value("threshold infinite", () -> AugPE.builder().threshold(Double.POSITIVE_INFINITY), "threshold=Infinity"),
        value("budget delta 0", () -> AugPE.builder().budget(new DpBudget(1, 0)), "delta=0.0"),
        // DPGA.
        value("samplingRate 0", () -> DPGA.builder().samplingRate(0), "samplingRate=0.0"),
        value("samplingRate 1.5", () -> DPGA.builder().samplingRate(1.5), "samplingRate=1.5"),
        value("lengthBins 0", () -> DPGA.builder().lengthBins(0), "lengthBins=0"),
        value("keywords 0", () -> DPGA.builder().keywords(0, 3), "candidates=0"),
        value("keywords per prompt 0", () -> DPGA.builder().keywords(5, 0), "perPrompt=0"),
        value("tauSample 1", () -> DPGA.builder().tauSample(1), "tauSample=1"),
        value("split too large", () -> new DPGA.Split(0.5, 0.4, 0.2), "svt + histograms + tau"),
        value("shares all zero", () -> new DPGA.Shares(0, 0, 0, 0), "rewrite=0"),
        value("DPGA budget epsilon 0", () -> DPGA.builder().budget(new DpBudget(0, 1e-5)), "DPGA", "epsilon=0.0"),
        // CTCL.
        value("topics 0", () -> CTCL.builder().topics(0), "topics=0"),
        value("keywordsPerTopic 0", () -> CTCL.builder().keywordsPerTopic(0), "keywordsPerTopic=0"),
        value("unclassifiedQuantile 1", () -> CTCL.builder().unclassifiedQuantile(1), "unclassifiedQuantile=1.0"),
        value("histogramSigma 0", () -> CTCL.builder().histogramSigma(0), "histogramSigma=0.0"),
        value("clipNorm NaN", () -> CTCL.builder().clipNorm(Double.NaN), "clipNorm=NaN"),
        value("steps 0", () -> CTCL.builder().steps(0), "steps=0"),
        value("batchSize 0", () -> CTCL.builder().batchSize(0), "batchSize=0"),
        value("privateWeight infinite", () -> CTCL.builder().privateWeight(Double.POSITIVE_INFINITY), "privateWeight=Infinity"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidValues")
  void eachInvalidValueIsRefusedWhenSetNamingTheOptionAndTheValue(String what, Runnable set, String[] fragments) {
    var thrown = assertThatThrownBy(set::run).isInstanceOfAny(IllegalArgumentException.class, NullPointerException.class);
    for (String f : fragments) {
      thrown.hasMessageContaining(f);
    }
  }

  private static SecPE.Builder secpe() {
    return SecPE.builder()
        .privateData(Fixtures.privateData(30))
        .publicData(Fixtures.publicData(30))
        .labels(Fixtures.released())
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .secrets(PiiDetector.all())
        .budget(SecretBudget.ofRatio(1e-4, 10));
  }

  private static AugPE.Builder augpe() {
    return AugPE.builder()
        .privateData(Fixtures.privateData(30))
        .publicData(Fixtures.publicData(30))
        .labels(Fixtures.released())
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .budget(new GdpMu(1));
  }

  private static Arguments combination(String what, Runnable build, String... fragments) {
    return Arguments.of(what, build, fragments);
  }

  static Stream<Arguments> invalidCombinations() {
    return Stream.of(
        combination("budget and nonPrivate", () -> secpe().nonPrivate().build(), "a budget and nonPrivate() conflict"),
        combination("noise and nonPrivate", () -> AugPE.builder().privateData(Fixtures.privateData(30))
                .publicData(Fixtures.publicData(30)).labels(Fixtures.released()).generator(Fixtures.generator())
                .embedder(Fixtures.embedder()).noise(NoiseSources.reproducibleForTests(1)).nonPrivate().build(),
            "nonPrivate() and noise(...) conflict"),
        combination("secretCap and nonPrivate", () -> SecPE.builder().privateData(Fixtures.privateData(30))
                .publicData(Fixtures.publicData(30)).labels(Fixtures.released()).generator(Fixtures.generator())
                .embedder(Fixtures.embedder()).secretCap(2).nonPrivate().build(),
            "secretCap(2) and nonPrivate() conflict"),
        combination("resume without checkpoint", () -> secpe().resume(true).build(), "resume(true) requires checkpoint(dir)"),
        combination("labelled data without labels", () -> AugPE.builder().privateData(Fixtures.privateData(30))
                .publicData(Fixtures.publicData(30)).generator(Fixtures.generator()).embedder(Fixtures.embedder())
                .budget(new GdpMu(1)).build(),
            "declare the label set with labels(LabelSet)"),
        combination("budget set twice", () -> augpe().budget(new DpBudget(1, 1e-5)), "already set as mu-GDP", "(epsilon, delta)"),
        combination("every missing setting at once", () -> SecPE.builder().build(),
            "required settings missing: privateData, generator, embedder, budget", "secrets", "publicData"),
        combination("SecPE without public data", () -> secpe().publicData(dev.secpe.core.PublicCorpus.of(java.util.List.of())).build(),
            "publicData (SecPE's clusters are built on public data only; secretFreeAsPublic(true)"),
        combination("CTCL iterations", () -> CTCL.builder().privateData(Fixtures.privateData(30)).publicData(Fixtures.publicData(30))
                .labels(Fixtures.released()).generator(Fixtures.generator()).embedder(Fixtures.embedder())
                .budget(new DpBudget(4, 1e-5)).iterations(3).build(),
            "CTCL does not use iterations"),
        combination("CTCL with a generator it cannot fine-tune", () -> CTCL.builder().privateData(Fixtures.privateData(30))
                .publicData(Fixtures.publicData(30)).labels(Fixtures.released()).generator(Fixtures.generator())
                .embedder(Fixtures.embedder()).budget(new DpBudget(4, 1e-5)).build(),
            "is not a FineTunableGenerator"),
        combination("DPGA with one private record", () -> DPGA.builder().privateData(Fixtures.privateData(1))
                .publicData(Fixtures.publicData(30)).labels(Fixtures.released()).generator(Fixtures.generator())
                .embedder(Fixtures.embedder()).budget(new DpBudget(4, 1e-5)).build(),
            "DPGA needs at least 2 private records, got 1"),
        combination("DPGA's budget unreachable", () -> DPGA.builder().privateData(Fixtures.privateData(30))
                .publicData(Fixtures.publicData(30)).labels(Fixtures.released()).generator(Fixtures.generator())
                .embedder(Fixtures.embedder()).budget(new DpBudget(1e-9, 1e-12)).build(),
            "budget unreachable"),
        combination("DPGA given variations", () -> DPGA.builder().privateData(Fixtures.privateData(30))
                .publicData(Fixtures.publicData(30)).labels(Fixtures.released()).generator(Fixtures.generator())
                .embedder(Fixtures.embedder()).variations(3).budget(new DpBudget(4, 1e-5)).build(),
            "DPGA does not use variations"),
        // refused at build(), before any private record is read (before: in run(), after embedding)
        combination("SecPE K larger than the public set", () -> secpe().clusters(100).build(),
            "clusters K=100"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidCombinations")
  void eachInvalidCombinationIsRefusedWithItsOwnMessage(String what, Runnable build, String[] fragments) {
    var thrown = assertThatThrownBy(build::run).isInstanceOfAny(IllegalStateException.class, IllegalArgumentException.class);
    for (String f : fragments) {
      thrown.hasMessageContaining(f);
    }
  }
}
