#!/usr/bin/env python3
"""Makes the third corpus of SecPE's own regime (thousands of private records), on which no method
was tuned: data/packages-{public,private}.jsonl.gz (see data/README.md), Debian package long
descriptions from the archive's bookworm main component:

    curl -O http://deb.debian.org/debian/dists/bookworm/main/i18n/Translation-en.xz
    curl -O http://deb.debian.org/debian/dists/bookworm/main/binary-amd64/Packages.xz
    python3 data/make_packages_corpus.py Translation-en.xz Packages.xz data

Translation-en gives each description (Package, Description-md5, Description-en); Packages gives
the Section and the Source of each package, joined on (Package, Description-md5).

Text: the short description (the synopsis) as the first line, a full stop added when it has no
final punctuation, then the long description: its wrapped lines joined by spaces, a new line at
each " ." paragraph separator and at each line Debian shows verbatim (two leading spaces) or that
starts a list item ("* ", "- ", "+ ", "o "). Whitespace inside a line collapsed. MIN_WORDS to
MAX_WORDS words in all.

Boilerplate left out, so that templates do not dominate:
- packages whose name matches EXCLUDED_NAME (libraries, development, documentation, debug and data
  packages, language-ecosystem modules, fonts, dictionaries, ...) or whose section is in
  EXCLUDED_SECTIONS;
- transitional and dummy packages (TRANSITIONAL: they only point to another package);
- a text identical to one kept before it once package and source names are removed and only its
  words are kept (lower case);
- a text that shares a line of its long description of PARAGRAPH_WORDS words or more (words only,
  lower case) with a text kept before it: the binary packages of one source repeat their upstream
  blurb;
- a text near-identical to one kept before it: NEAR_JACCARD or more (Jaccard) of its word
  SHINGLE-grams shared.
Order: by source package, the package named as its source first, then by name.

Private = PRIVATE_SIZE descriptions of the PRIVATE_SECTIONS (label: the section), stratified in the
proportions of the clean texts; public = PUBLIC_SIZE descriptions of every other section
(unlabelled), so that the private text is another part of the same archive.

Deterministic: fixed seed, sorted inputs, gzip mtime 0. Standard library only.
"""
import lzma
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_corpora import regime_split, run, words, write_corpora  # noqa: E402

PUBLIC_SIZE = 3000
PRIVATE_SIZE = 3400
MIN_WORDS = 20
MAX_WORDS = 120
SEED = 20261131
PRIVATE_SECTIONS = ("devel", "games", "net", "science")
# Sections of libraries, documentation, debug symbols, translations, fonts and package lists.
EXCLUDED_SECTIONS = {
    "libs", "libdevel", "oldlibs", "debug", "doc", "localization", "introspection", "fonts",
    "metapackages", "tasks",
}
# Templates: libraries and their bindings, development/documentation/debug/data companions, the
# language ecosystems' module packages, fonts, dictionaries, firmware and kernels.
EXCLUDED_NAME = re.compile(
    r"^(lib|python3?-|pypy3?-|golang-|node-|r-cran-|r-bioc-|r-other-|ruby-|php-|elpa-|cl-|lua-"
    r"|haskell-|ocaml-|octave-|coq-|jupyter-|gir1\.2-|fonts-|xfonts-|ttf-|otf-|texlive-|hunspell-"
    r"|myspell-|aspell-|hyphen-|mythes-|ispell-|wamerican|wbritish|firmware-|linux-|tryton-modules-"
    r"|puppet-module-|trilinos-|sugar-)"
    r"|-(dev|doc|docs|dbg|dbgsym|data|common|examples|l10n|i18n|dkms|locale|tests?)(-|$)")
PARAGRAPH_WORDS = 15
SHINGLE = 3
NEAR_JACCARD = 0.5
TRANSITIONAL = re.compile(r"\btransitional\b|\bdummy package\b", re.IGNORECASE)
WORD = re.compile(r"[a-z0-9]+")
LIST_ITEM = re.compile(r"^([*+o-]) ")


def stanzas(path):
    """The stanzas of a Debian control file (xz), each as {field: value}; continuation lines of a
    field are kept, one each, in a list under (field, 'lines')."""
    with lzma.open(path, "rt", encoding="utf-8") as f:
        fields, key = {}, None
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if fields:
                    yield fields
                fields, key = {}, None
            elif line[0] in " \t":
                fields.setdefault((key, "lines"), []).append(line[1:])
            else:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        if fields:
            yield fields


def text_of(synopsis, lines):
    """The synopsis and the long description as prose lines (see the module's comment)."""
    synopsis = " ".join(synopsis.split())
    out = [synopsis if synopsis[-1:] in ".!?:" else synopsis + "."]
    current = None
    for line in lines:
        if line.strip() == ".":
            current = None
            continue
        starts = current is None or line.startswith(" ") or LIST_ITEM.match(line.strip()) is not None
        line = " ".join(line.split())
        if not line:
            continue
        if starts:
            out.append(line)
            current = len(out) - 1
        else:
            out[current] += " " + line
    return "\n".join(out)


def shingles(text):
    tokens = WORD.findall(text.lower())
    return {tuple(tokens[i:i + SHINGLE]) for i in range(max(1, len(tokens) - SHINGLE + 1))}


def clean(translations, packages):
    """Every description left after the filters, as {'id', 'section', 'text'}, in source order."""
    archive = {}
    for p in stanzas(packages):
        source = p.get("Source", p["Package"]).split(" ")[0]
        archive[(p["Package"], p["Description-md5"])] = (p.get("Section", ""), source)
    candidates = []
    for t in stanzas(translations):
        name = t["Package"]
        joined = archive.get((name, t["Description-md5"]))
        if joined is None or EXCLUDED_NAME.search(name):
            continue
        section, source = joined
        if "/" in section or section in EXCLUDED_SECTIONS:
            continue
        text = text_of(t["Description-en"], t.get(("Description-en", "lines"), []))
        if MIN_WORDS <= words(text) <= MAX_WORDS and not TRANSITIONAL.search(text):
            candidates.append((source, name != source, name, section, text))
    candidates.sort()
    kept, exact, paragraphs, index = [], set(), set(), {}
    for source, _, name, section, text in candidates:
        key = " ".join(WORD.findall(text.lower().replace(name, " ").replace(source, " ")))
        if key in exact:
            continue
        own_paragraphs = {p for p in (" ".join(WORD.findall(line.lower())) for line in text.split("\n")[1:])
                          if len(p.split()) >= PARAGRAPH_WORDS}
        if own_paragraphs & paragraphs:
            continue
        own = shingles(text)
        shared = {}
        for s in own:
            for k in index.get(s, ()):
                shared[k] = shared.get(k, 0) + 1
        if any(n / (len(own) + kept[k][1] - n) >= NEAR_JACCARD for k, n in shared.items()):
            continue
        exact.add(key)
        paragraphs |= own_paragraphs
        for s in own:
            index.setdefault(s, []).append(len(kept))
        kept.append(({"id": name, "section": section, "text": text}, len(own)))
    return [r for r, _ in kept]


def packages_corpus(translations, packages):
    grouped = [(r.pop("section"), r) for r in clean(translations, packages)]
    return regime_split(random.Random(SEED), grouped, PRIVATE_SECTIONS, PUBLIC_SIZE, PRIVATE_SIZE)


def main(translations, packages, out_dir):
    write_corpora(out_dir, (("packages", packages_corpus(translations, packages)),))


if __name__ == "__main__":
    run(main, __doc__)
