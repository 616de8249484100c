package dev.secpe.evolution.augpe;

import dev.secpe.core.SyntheticText;
import dev.secpe.evolution.engine.Allocation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Aug-PE's {@link AugPE.SelectionMode#LINEAGE} selection: post-processing of the vote histogram.
 * Candidates are grouped by lineage (a text's parent if it has one that is in the population,
 * else itself), lineages get slots in proportion to the positive part of their summed votes
 * (largest remainder), and each fills its slots with its best-voted members; slots a lineage
 * cannot fill are split again over the others.
 */
public final class Lineages {

  private Lineages() {}

  /** The {@code share} survivors among {@code rows} of {@code population}, by lineage (above). */
  public static int[] select(double[] votes, List<SyntheticText> population, int[] rows, int share) {
    int take = Math.min(share, rows.length);
    Set<String> present = new HashSet<>();
    for (int i : rows) {
      present.add(population.get(i).id());
    }
    Map<String, List<Integer>> lineages = new LinkedHashMap<>();
    for (int i : rows) {
      SyntheticText t = population.get(i);
      List<String> parents = t.provenance().parentIds();
      String key = !parents.isEmpty() && present.contains(parents.get(0)) ? parents.get(0) : t.id();
      lineages.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
    }
    List<List<Integer>> groups = new ArrayList<>(lineages.values());
    double[] mass = new double[groups.size()];
    for (int l = 0; l < groups.size(); l++) {
      List<Integer> members = groups.get(l);
      members.sort((a, b) -> {
        int c = Double.compare(votes[b], votes[a]);
        return c != 0 ? c : Integer.compare(a, b);
      });
      for (int i : members) {
        mass[l] += votes[i];
      }
    }
    return Allocation.fillPools(groups, mass, take, IntStream.range(0, groups.size()).toArray());
  }
}
