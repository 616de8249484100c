package dev.secpe.evolution;

import dev.secpe.core.SyntheticText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Aug-PE's {@link AugPE.SelectionMode#LINEAGE} selection: post-processing of the vote histogram.
 * Candidates are grouped by lineage (a text's parent if it has one that is in the population,
 * else itself), lineages get slots in proportion to the positive part of their summed votes
 * (largest remainder), and each fills its slots with its best-voted members; slots a lineage
 * cannot fill are split again over the others.
 */
final class Lineages {

  private Lineages() {}

  static int[] select(double[] votes, List<SyntheticText> population, int[] rows, int share) {
    int take = Math.min(share, rows.length);
    Map<String, Integer> present = new java.util.HashMap<>();
    for (int i : rows) {
      present.put(population.get(i).id(), i);
    }
    Map<String, List<Integer>> lineages = new LinkedHashMap<>();
    for (int i : rows) {
      SyntheticText t = population.get(i);
      List<String> parents = t.provenance().parentIds();
      String key = !parents.isEmpty() && present.containsKey(parents.get(0)) ? parents.get(0) : t.id();
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
      mass[l] = Math.max(0, mass[l]);
    }
    int[] used = new int[groups.size()];
    int[] out = new int[take];
    int chosen = 0;
    while (chosen < take) {
      double[] open = new double[groups.size()];
      boolean positive = false;
      for (int l = 0; l < open.length; l++) {
        if (used[l] < groups.get(l).size()) {
          open[l] = mass[l];
          positive |= mass[l] > 0;
        }
      }
      if (!positive) {
        for (int l = 0; l < open.length; l++) {
          open[l] = used[l] < groups.get(l).size() ? 1 : 0;
        }
      }
      int[] slots = Allocation.largestRemainder(open, take - chosen);
      int before = chosen;
      for (int l = 0; l < slots.length && chosen < take; l++) {
        int s = Math.min(slots[l], groups.get(l).size() - used[l]);
        for (int q = 0; q < s; q++) {
          out[chosen++] = groups.get(l).get(used[l]++);
        }
      }
      if (chosen == before) {
        break;
      }
    }
    return chosen == take ? out : java.util.Arrays.copyOf(out, chosen);
  }
}
