#!/usr/bin/env python3
"""Reference for RandomWordSecretsTest: SecPE §4.2 random-word secrets on the bundled sample.

Independent of the Java code: tokenises with Python's `re` (a word is a maximal run of letters,
i.e. [^\\W\\d_]+ in Unicode mode, lower-cased with str.lower), counts words of >= 2 letters over
the PUBLIC split only, sorts by count descending then word ascending, centres the window at rank
round(q * (V - 1)) and takes `count` consecutive ranks starting floor(count / 2) before it.

    python3 core/src/test/python/random_words_reference.py data/spamassassin-sample.jsonl.gz \
        > core/src/test/resources/dev/secpe/core/secret/random-words-reference.txt
"""
import collections
import gzip
import json
import re
import sys

WORD = re.compile(r"[^\W\d_]+")


def main(path):
    freq = collections.Counter()
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r["split"] != "public":
                continue
            for w in WORD.findall(r["text"]):
                w = w.lower()
                if len(w) >= 2:
                    freq[w] += 1
    vocab = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))
    v = len(vocab)
    print("# vocabulary %d" % v)
    for q, count in [(0.2, 10), (0.5, 7), (0.0, 3), (1.0, 4)]:
        centre = int(q * (v - 1) + 0.5)  # round half up, as Java's Math.round for positives
        start = max(0, min(centre - count // 2, v - count))
        words = [w for w, _ in vocab[start:start + count]]
        counts = [c for _, c in vocab[start:start + count]]
        print("%s %d %s # counts %s" % (q, count, ",".join(words), counts))


if __name__ == "__main__":
    main(sys.argv[1])
