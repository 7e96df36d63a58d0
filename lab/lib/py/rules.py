# SPDX-License-Identifier: GPL-2.0
"""The lab's rules (lab/lib/rules.tsv): every gate, threshold and region
of a claim, read into an immutable mapping with the file's version and
hash.  The analysis takes every number it judges by from here."""

import hashlib
import math
from dataclasses import dataclass, field


class RulesError(Exception):
    pass


@dataclass(frozen=True)
class Rules:
    values: dict = field(hash=False)
    version: str
    sha: str                    # sha256 of the file, its first 12 digits
    source: str                 # where it was read from

    def __getitem__(self, name):
        try:
            return self.values[name]
        except KeyError:
            raise RulesError(f"no rule '{name}' in {self.source}") from None

    def get(self, name, default=None):
        return self.values.get(name, default)

    def region(self, claim):
        """The not-reproduced region [lo, hi] of a claim, or None when the
        rules (version 1) declare none."""
        lo = self.values.get(claim + ".nr_lo")
        hi = self.values.get(claim + ".nr_hi")
        if lo is None or hi is None:
            return None
        return (lo, hi)


def parse_value(text, name, source):
    if text == "inf":
        return math.inf
    try:
        return float(text)
    except ValueError:
        raise RulesError(f"{source}: rule '{name}' has no number: '{text}'") from None


def parse_rules(text, source):
    """Rules from the text of a rules.tsv."""
    values = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) <= 1:
            raise RulesError(f"{source}:{n}: not 'name<TAB>value<TAB>text'")
        if cols[0] in values:
            raise RulesError(f"{source}:{n}: rule '{cols[0]}' given twice")
        values[cols[0]] = parse_value(cols[1], cols[0], source)
    version = values.pop("rules.version", None)
    sha = hashlib.sha256(text.encode()).hexdigest()[:12]
    return Rules(values, "1" if version is None else f"{version:g}", sha, source)


def read_rules(path):
    try:
        with open(path, encoding="utf-8") as f:
            return parse_rules(f.read(), path)
    except OSError as e:
        raise RulesError(f"cannot read the rules {path}: {e.strerror}") from None
