#!/usr/bin/env python3
"""Makes data/spamassassin-sample.jsonl.gz from the full SpamAssassin JSONL export.

Deterministic: a fixed seed, sorted inputs, gzip mtime 0. Standard library only.

    python3 data/make_sample.py /path/to/spamassassin.jsonl.gz data/spamassassin-sample.jsonl.gz

Sampling: stratified by label (ham/spam) in the source proportions, SAMPLE_SIZE records in all;
within each label a seeded random sample without replacement. Each text is truncated to
MAX_CHARS characters (cut at the last whitespace before the limit when there is one).
Split: within each label, a seeded PUBLIC_FRACTION of the sampled records is marked
split="public", the rest split="private" (so both parts have the source's label mix).
Output fields: id, group, label, subject, split, text; records sorted by id.
"""
import gzip
import json
import random
import re
import sys

SEED = 20240521
SAMPLE_SIZE = 1500
MAX_CHARS = 2000
PUBLIC_FRACTION = 0.4


def truncate(text):
    if len(text) <= MAX_CHARS:
        return text
    cut = text[:MAX_CHARS]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    return cut[:space] if space > MAX_CHARS // 2 else cut


def main(src, dst):
    with gzip.open(src, "rt", encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    records.sort(key=lambda r: r["id"])
    rng = random.Random(SEED)
    by_label = {}
    for r in records:
        by_label.setdefault(r["label"], []).append(r)
    total = len(records)
    labels = sorted(by_label)
    quotas = {lab: round(SAMPLE_SIZE * len(by_label[lab]) / total) for lab in labels}
    quotas[labels[0]] += SAMPLE_SIZE - sum(quotas.values())
    out = []
    truncated = [0]
    for lab in labels:
        chosen = rng.sample(by_label[lab], quotas[lab])
        n_public = round(PUBLIC_FRACTION * len(chosen))
        for i, r in enumerate(chosen):
            out.append({
                "id": r["id"],
                "group": r["group"],
                "label": r["label"],
                "subject": r["subject"],
                "split": "public" if i < n_public else "private",
                "text": truncate(r["text"]),
            })
            truncated[0] += len(r["text"]) > MAX_CHARS
    out.sort(key=lambda r: r["id"])
    with open(dst, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            for r in out:
                gz.write((json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8"))
    # Summary printed for data/README.md (the same regexes are only a rough census).
    email = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
    counts = {}
    for r in out:
        key = (r["split"], r["label"])
        counts[key] = counts.get(key, 0) + 1
    print("records", len(out))
    for key in sorted(counts):
        print("split=%s label=%s: %d" % (key[0], key[1], counts[key]))
    print("records containing an e-mail address (simple regex):",
          sum(1 for r in out if email.search(r["text"])))
    print("texts truncated to %d characters:" % MAX_CHARS, truncated[0])
    print("records per group:", dict(sorted({g: sum(1 for r in out if r["group"] == g)
                                             for g in {r["group"] for r in out}}.items())))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
