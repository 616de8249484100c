package dev.secpe.cli.demo;

import dev.secpe.core.*;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.core.report.*;
import dev.secpe.evaluation.*;
import dev.secpe.evolution.*;
import dev.secpe.llm.*;
import dev.secpe.llm.cache.CachingEmbedder;
import dev.secpe.llm.embedded.*;
import dev.secpe.llm.prompt.*;
import java.util.*;
/**
 * Where a PE run's distance to the private data comes from, round by round: FID in the demo's 16
 * public principal components split into the distance of the means and the spread (trace of the
 * covariance), the mean length and the number of distinct lineages among the survivors. A
 * research harness for the README's "Does private evolution work?" section, not a test.
 *
 * <p>Arguments: generator (splice|ngram), method (augpe|secpe), T, L, Aug-PE selection
 * (RANK|PROBABILITY|LINEAGE), Aug-PE k. System properties: {@code scale} and {@code jump} (the
 * splice generator's line mask scale and jump probability), {@code freshChildren} (every
 * variation replaced by a fresh sample: selection alone). Non-private, seed 2026, era split, fp32
 * MiniLM, N_syn = 100.
 */
public final class ConvergenceProbe {
  static double[] mean(double[][] x){ double[] m=new double[x[0].length]; for(double[] r:x) for(int j=0;j<m.length;j++) m[j]+=r[j]/x.length; return m;}
  static double trace(double[][] x){ double[] m=mean(x); double t=0; for(double[] r:x) for(int j=0;j<m.length;j++) t+=(r[j]-m[j])*(r[j]-m[j])/(x.length-1); return t;}
  public static void main(String[] a) throws Exception {
    String gname = a.length > 0 ? a[0] : "splice";
    String method = a.length > 1 ? a[1] : "augpe";
    int T = a.length > 2 ? Integer.parseInt(a[2]) : 5;
    int L = a.length > 3 ? Integer.parseInt(a[3]) : 3;
    DemoRunner.Data d = DemoRunner.data(150, 2026, "era");
    List<String> labs = d.publicData().records().stream().map(r -> r.label().map(Label::name).orElse(null)).toList();
    TextGenerator g = gname.equals("ngram") ? NgramTextGenerator.builder().train(d.publicData().texts(), labs).build()
       : SpliceTextGenerator.builder().train(d.publicData().texts(), labs).lineMaskScale(Double.parseDouble(System.getProperty("scale","0.5"))).jumpProbability(Double.parseDouble(System.getProperty("jump","0.1"))).build();
    if (System.getProperty("freshChildren") != null) {
      TextGenerator inner = g;
      g = new TextGenerator() {
        public String name() { return "fresh"; }
        public Locality locality() { return Locality.LOCAL; }
        public java.util.concurrent.CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> rs) {
          List<GenerationRequest> out = new ArrayList<>();
          for (GenerationRequest r : rs) {
            GenerationTask t = r.task();
            if (t instanceof GenerationTask.FillIn f) t = new GenerationTask.Random(f.label(), List.of(), Math.min(120, f.targetWords()));
            out.add(new GenerationRequest(r.messages(), t, r.params()));
          }
          return inner.generateAsync(out);
        }
      };
    }
    try (TextEmbedder emb = CachingEmbedder.inMemory(MiniLmEmbedder.create(), 200000)) {
      EmbeddingMatrix pub = EmbeddingMatrix.of(emb.embed(d.publicData().texts()));
      PrincipalProjection pp = PrincipalProjection.fit(pub, 16);
      double[][] priv = pp.project(PrivateTexts.embed(emb, d.privateData(), PrivacyGuard.localOnly()));
      double[] mp = mean(priv); double tp = trace(priv);
      System.out.printf("private trace %.4f; public trace %.4f%n", tp, trace(pp.project(pub)));
      RunListener l = e -> { if (e instanceof RunEvent.SurvivorsSelected s) {
        double[][] x = pp.project(EmbeddingMatrix.of(emb.embed(s.survivors().stream().map(SyntheticText::text).toList())));
        double[] m = mean(x); double dm=0; for(int j=0;j<m.length;j++) dm+=(m[j]-mp[j])*(m[j]-mp[j]);
        double words = s.survivors().stream().mapToInt(t -> t.text().split("\\s+").length).average().orElse(0);
        long fam = s.survivors().stream().map(t -> t.provenance().parentIds().isEmpty() ? t.id() : t.provenance().parentIds().get(0)).distinct().count();
        System.out.printf("round %d: FID %.4f  mean term %.4f  trace %.4f  words %.1f  distinct parents %d%n", s.round(),
          FrechetDistance.between(x, priv), dm, trace(x), words, fam);
      }};
      LabelSet labels = new LabelSet.ToBeReleased(new TreeSet<>(List.of(BundledCorpus.HAM, BundledCorpus.SPAM)));
      EvolutionBuilder<?> b = method.equals("secpe") ? SecPE.builder().clusters(100) : (a.length > 4 ? AugPE.builder().selection(AugPE.SelectionMode.valueOf(a[4])).nearestNeighbours(a.length > 5 ? Integer.parseInt(a[5]) : 1) : AugPE.builder());
      b.privateData(d.privateData()).publicData(d.publicData()).labels(labels).generator(g).embedder(emb)
        .syntheticSize(100).iterations(T).variations(L).seed(2026).templates(PromptTemplates.defaults(Domain.EMAIL))
        .generation(new GenerationParams(1.0, 1.0, 160, List.of(), OptionalLong.empty())).listener(l).nonPrivate();
      if (b instanceof SecPE.Builder s) s.build().run(); else ((AugPE.Builder) b).build().run();
    }
  }
}
