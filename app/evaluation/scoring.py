"""The strict scorer: does an answer state what the gold answer's key facts say, where a reader looks for it?

A question record (JSONL; examples/analyst/questions/, bench/data/financebench_keyfacts.jsonl) carries its
`kind`, what it `expect`s (`answered`, `insufficient` or `clarification`) and its key `facts`:

- a figure, `{"figure": "-1,284.6", "unit": "A$m", "lead": true}`: the number as the gold rounds it, sign
  included; its decimals are the rounding demanded. An answer states it when one of its figures, with its sign
  (a minus, brackets, or a falling verb right before it: "fell 3.1%"), converted to the fact's scale (a scale
  word or suffix after it: "$1.2 billion", "£45m"; none: taken as written), rounded to the fact's decimals,
  equals it. A percentage matches only a percentage, percentage points only points, a currency only its own
  ("$" is read as any dollar: Australian and Canadian reports write it so). 0.447 is not "0.45%" nor "0.5%".
- a yes/no, `{"yes_no": "no"}`: the answer opens with that word.
- a name, `{"name": "Las Vegas", "alternatives": [...]}`: the phrase or an alternative, as whole words. With
  `"absent": true` the answer must name none of them anywhere (an earlier favourite colour, an item taken off a
  list): what an answer adds is scored too, so listing every value ever said does not pass.

`lead: true` facts must be stated in the answer's first sentence; the others anywhere in it. Figures inside a
"(stated as …)" or "(computed as …)" aside and sentences that show a computation ("(a - b) / b = c", "a: Company
FY2024 Revenue …") do not count: an answer's inputs are not its answer. A record's `distractors` (figures of
another period, segment or entity, same shape as figure facts) count as a wrong-period or wrong-segment answer
when the first sentence states one and not the lead fact.

Golds of other shapes, for the bench scripts that score through this module:
- a bare number (ConvFinQA's executed answers: no unit, no stated rounding), `bare_figure_facts`: the figure facts
  it may be read as, each with the rounding demanded: one decimal below 100, whole units from 100 up, never more
  decimals than the gold writes (35.8 -> 35.8, 60.94 -> 60.9, 6955.22388 -> 6955, 4.0 -> 4); any scale word
  (the page's unit is not in the gold) and any currency; a percentage (or percentage points) only as a ratio
  times 100, and only when |gold| < 1.5 (0.0814 -> 8.1%, or 0.081 as written; 24.69 is not "24.69%", 4.0 not
  "400%"). `states_bare` (a year-valued gold, 2012, is stated by the year as a word) and
  `first_sentence_states` (the answer's first sentence as `answer_parts` counts it) read them;
- names as wholes, `same_name` and `same_names`: a text that is one of the names (case, spacing, hyphens aside),
  and a list that is exactly the expected names (GoodAI LTM's memory answers);
- ranks, `first_gold_rank` and `rank_metrics`: hit@k and MRR over each question's first gold rank.

Pure functions, no I/O: `load_questions`, `score`, and the readers they use.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

KINDS = ("statement_figure", "metric", "prose_figure", "segment_figure", "change", "yes_no_change", "judgement",
         "extreme", "list", "yes_no_property", "explain", "unstated", "vague")
GROUPS = {
    "statement figures": ("statement_figure", "metric"),
    "prose facts": ("prose_figure", "segment_figure"),
    "key facts": ("change", "yes_no_change", "judgement", "extreme", "list", "yes_no_property"),
    "explanations": ("explain",),
}
"""How the goals group the kinds: a question scores in the group of its kind when it expects an answer."""

INSUFFICIENT_PREFIX = "Insufficient evidence"


# --- question records ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FigureFact:
    value: float
    decimals: int
    currency: str  # '$', 'A$', '£', ... or ''
    scale: str  # 'k', 'm', 'bn' or ''
    kind: str  # 'money', 'percent', 'points', 'ratio', 'pence', 'count'
    lead: bool = False
    text: str = ""

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True)
class YesNoFact:
    yes: bool
    lead: bool = True

    def describe(self) -> str:
        return "Yes" if self.yes else "No"


@dataclass(frozen=True)
class NameFact:
    names: tuple[str, ...]
    lead: bool = False
    absent: bool = False  # the answer must name none of them (a superseded value, an item taken off a list)

    def describe(self) -> str:
        return ("not " if self.absent else "") + " / ".join(self.names)


Fact = FigureFact | YesNoFact | NameFact


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    kind: str
    expect: str
    facts: tuple[Fact, ...]
    distractors: tuple[FigureFact, ...] = ()
    company: str | None = None
    period_named: bool = True
    evidence: tuple[tuple[str, int | None], ...] = ()
    answer: str = ""

    @property
    def group(self) -> str:
        if self.expect == "insufficient":
            return "unstated"
        if self.expect == "clarification":
            return "vague"
        return next((g for g, kinds in GROUPS.items() if self.kind in kinds), "other")


_UNIT = re.compile(r"^(?P<cur>US\$|A\$|AU\$|C\$|HK\$|NZ\$|S\$|CHF|\$|£|€|¥)?\s*(?P<scale>k|m|mn|bn|b)?$")
_SCALE_NAMES = {"k": "k", "m": "m", "mn": "m", "bn": "bn", "b": "bn", "": ""}


def figure_fact(raw: dict[str, Any], lead: bool | None = None) -> FigureFact:
    """A figure fact from its record: the number as written, its unit ('$m', 'A$bn', '%', 'pp', 'x', 'p',
    'employees')."""
    text = str(raw["figure"]).strip().replace("\u2212", "-")
    negative = text.startswith("-") or (text.startswith("(") and text.endswith(")"))
    number = re.sub(r"[^\d.]", "", text)
    if not number or number.count(".") > 1:
        raise ValueError(f"not a figure: {raw['figure']!r}")
    value = float(number) * (-1 if negative else 1)
    decimals = len(number.split(".")[1]) if "." in number else 0
    unit = str(raw.get("unit", "")).strip()
    kind, currency, scale = "count", "", ""
    if unit in ("%", "percent"):
        kind = "percent"
    elif unit in ("pp", "ppt", "percentage points", "points", "bps"):
        kind = "points"
    elif unit in ("x", "times", "ratio"):
        kind = "ratio"
    elif unit in ("p", "pence", "c", "cents"):
        kind = "pence"
    elif (m := _UNIT.match(unit)) and unit:
        kind, currency, scale = "money", _currency(m.group("cur") or ""), _SCALE_NAMES[m.group("scale") or ""]
    return FigureFact(value=value, decimals=decimals, currency=currency, scale=scale, kind=kind,
                      lead=bool(raw.get("lead", False) if lead is None else lead), text=f"{text} {unit}".strip())


def parse_fact(raw: dict[str, Any]) -> Fact:
    if "figure" in raw:
        return figure_fact(raw)
    if "yes_no" in raw:
        value = str(raw["yes_no"]).strip().lower()
        if value not in ("yes", "no"):
            raise ValueError(f"yes_no must be yes or no: {raw!r}")
        return YesNoFact(yes=value == "yes")
    if "name" in raw:
        names = tuple(str(n) for n in [raw["name"], *raw.get("alternatives", [])] if str(n).strip())
        return NameFact(names=names, lead=bool(raw.get("lead", False)), absent=bool(raw.get("absent", False)))
    raise ValueError(f"a fact is a figure, a yes_no or a name: {raw!r}")


def question_from_record(record: dict[str, Any], extra: dict[str, Any] | None = None) -> Question:
    """A Question from a record; `extra` (a key-facts record of the same id) fills what the record lacks."""
    merged = {**(extra or {}), **{k: v for k, v in record.items() if v is not None}}
    kind = merged.get("kind", "other")
    expect = merged.get("expect", "answered")
    if expect not in ("answered", "insufficient", "clarification"):
        raise ValueError(f"{merged.get('id')}: expect must be answered, insufficient or clarification")
    evidence = tuple((e.get("source_id") or e.get("doc_name") or "", e.get("page")) for e in merged.get("evidence", [])
                     if isinstance(e, dict))
    return Question(
        id=str(merged.get("id") or merged.get("financebench_id")), question=str(merged.get("question", "")),
        kind=kind, expect=expect, facts=tuple(parse_fact(f) for f in merged.get("facts", [])),
        distractors=tuple(figure_fact(d, lead=False) for d in merged.get("distractors", [])),
        company=merged.get("company"), period_named=bool(merged.get("period_named", True)), evidence=evidence,
        answer=str(merged.get("answer", "")))


def load_questions(paths: Iterable[Path]) -> list[Question]:
    """Every question record of the given JSONL files (a folder: its *.jsonl), in file order."""
    out: list[Question] = []
    for path in paths:
        files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
        for file in files:
            for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
                if line.strip():
                    try:
                        out.append(question_from_record(json.loads(line)))
                    except (ValueError, KeyError) as error:
                        raise ValueError(f"{file}:{n}: {error}") from error
    return out


# --- reading an answer -----------------------------------------------------------------------------------------

_CITATION = re.compile(r"\s*\[\d+\]")
_ASIDE = re.compile(r"\((?:stated|computed|reported|shown|given|expressed) as\b[^()]*\)", re.I)
_COMPUTATION = re.compile(r"[\d)]\s*[-+*/×÷]\s*[\d(][^=]*=|^\s*(?:growth|change|difference|ratio|"
                          r"cagr|metric|evaluate|inputs?|formula)\s*:", re.I)
_BOUNDARY = re.compile(r"(?<=[.!?])(?:\s*\[\d+\])*\s+(?=[A-Z$£€¥\d(\"'])|(?<=\]\.)\s+|\s*\n+\s*")
_ABBREVIATION = re.compile(r"(?i)(?:\b(?:inc|co|corp|ltd|plc|no|nos|vs|approx|est|dept|fig|e\.g|i\.e|u\.s|u\.k|"
                           r"st|mr|mrs|ms|dr|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|avg|etc|adj|excl|incl|approx)\.|"
                           r"(?<![\w.])[A-Z]\.)$")


def plain(text: str) -> str:
    """Text as a reader sees it: compatibility forms folded (non-breaking and thin spaces, fullwidth digits),
    curly quotes straightened, citation markers removed."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2212", "-")
    return _CITATION.sub("", text)


def sentences(answer: str) -> list[str]:
    """The answer's sentences: split after '.', '!' or '?' (or a citation marker ending one) before a capital,
    a digit, a currency or a bracket, and at line breaks; abbreviations and decimals do not end a sentence."""
    text = unicodedata.normalize("NFKC", answer).strip()
    out: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        piece = text[start:match.end()].strip()
        if "\n" not in match.group(0) and _ABBREVIATION.search(re.sub(r"(?:\s*\[\d+\])+$", "", piece)):
            continue  # 'Inc.', 'No.', 'e.g.' end no sentence
        if piece:
            out.append(piece)
        start = match.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


@dataclass(frozen=True)
class Stated:
    """A figure an answer states: its signed value as written, scale suffix, currency, kind of unit."""

    value: float
    scale: str
    currency: str
    unit: str  # 'percent', 'points', 'ratio', 'pence', ''
    text: str


_NUMBER = re.compile(
    r"(?:(?P<neg>[-(])\s*)?(?:(?P<cur>US\$|A\$|AU\$|C\$|HK\$|NZ\$|S\$|CHF|\$|£|€|¥|USD|AUD|CAD|GBP|EUR|JPY)\s?)?"
    r"(?P<neg2>-)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?!\d|,\d)"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|mn|bn|m|b|k)\b)?"
    r"(?:\s?(?P<unit>%|percentage[\s-]+points?\b|per\s?cent\b|percent\b|pp\b|ppts?\b|points?\b|bps\b|"
    r"basis\s+points?\b|x\b|times\b|pence\b|p\b|cents?\b))?",
    re.I)
_UNIT_KINDS = (("percentagepoint", "points"), ("percent", "percent"), ("%", "percent"), ("pp", "points"),
               ("point", "points"), ("bps", "bps"), ("basispoint", "bps"), ("x", "ratio"), ("times", "ratio"),
               ("pence", "pence"), ("p", "pence"), ("cent", "pence"))
_GROUPED = re.compile(r"(?<=\d)[\u00a0\u202f\u2009](?=\d{3}(?!\d))")
"""A thousands separator some reports print as a non-breaking or thin space: '61 200'."""
_FALLING = re.compile(r"(?i)\b(?:fell|fall(?:en|ing)?|declined?|declining|decreased?|decreasing|dropped|drop|down|"
                      r"lower|loss(?:es)? of|negative|contracted|shrank|shrunk|reduced)\s+(?:by\s+|of\s+|to\s+a\s+)?"
                      r"(?:about\s+|approximately\s+|some\s+)?$")
_CURRENCIES = {"us$": "$", "usd": "$", "$": "$", "a$": "A$", "au$": "A$", "aud": "A$", "c$": "C$", "cad": "C$",
               "hk$": "HK$", "nz$": "NZ$", "s$": "S$", "£": "£", "gbp": "£", "€": "€", "eur": "€", "¥": "¥",
               "jpy": "¥", "chf": "CHF"}
_SCALE_WORDS = {"thousand": "k", "k": "k", "million": "m", "mn": "m", "m": "m", "billion": "bn", "bn": "bn",
                "b": "bn", "trillion": "tn"}
FACTORS = {"": 1.0, "k": 1e3, "m": 1e6, "bn": 1e9, "tn": 1e12}


def _currency(raw: str) -> str:
    return _CURRENCIES.get(raw.strip().lower(), raw.strip())


def stated_figures(text: str) -> list[Stated]:
    """Every figure a text states, with its sign, scale, currency and unit; years standing alone (2024, FY2023)
    are not figures. A range ('€2.30–2.40bn') gives both ends the scale and currency written once; a figure
    joined to a falling one by 'or' ('fell by €175.7m, or 6.5%') falls too."""
    out: list[Stated] = []
    ends: list[int] = []
    text = plain(_GROUPED.sub(",", text))
    for m in _NUMBER.finditer(text):
        raw_num = m.group("num")
        before = text[max(0, m.start() - 3):m.start()]
        if re.fullmatch(r"(?:19|20)\d{2}", raw_num) and not (m.group("cur") or m.group("scale") or m.group("unit")):
            continue  # a year
        if re.search(r"(?i)(?:FY|Q[1-4]|H[12])\s?$", before) or re.search(r"[A-Za-z]$", text[:m.start()]):
            continue  # part of a name or a period ('FY2024', 'Q3', 'B2B')
        value = float(raw_num.replace(",", ""))
        negative = bool(m.group("neg2")) or (m.group("neg") == "-") or (
            m.group("neg") == "(" and text[m.end():m.end() + 1] == ")")
        if not negative and _FALLING.search(text[max(0, m.start() - 40):m.start()]):
            negative = True
        joined = out and re.fullmatch(r",?\s*or\s+", text[ends[-1]:m.start()])
        if not negative and joined and out[-1].value < 0:
            negative = True
        unit_word = re.sub(r"[\s-]", "", (m.group("unit") or "").lower())
        unit = next((kind for prefix, kind in _UNIT_KINDS if unit_word.startswith(prefix)), "")
        if unit == "bps":  # 45 bps is 0.45 percentage points
            unit, value = "points", value / 100
        stated = Stated(value=-value if negative else value,
                        scale=_SCALE_WORDS.get((m.group("scale") or "").lower(), ""),
                        currency=_currency(m.group("cur") or ""), unit=unit, text=m.group(0).strip())
        if out and re.fullmatch(r"\s*(?:–|—|-|to)\s*", text[ends[-1]:m.start()]):
            first = out[-1]
            if not first.scale and not first.unit:
                out[-1] = Stated(first.value, stated.scale, first.currency, stated.unit, first.text)
            if not stated.currency:
                stated = Stated(stated.value, stated.scale, first.currency, stated.unit, stated.text)
        out.append(stated)
        ends.append(m.end())
    return out


def states(fact: FigureFact, figures: Sequence[Stated]) -> bool:
    """Whether any of the figures states the fact strictly (module docstring)."""
    for f in figures:
        if fact.kind == "percent" and f.unit != "percent":
            continue
        if fact.kind == "points" and f.unit not in ("points",):
            continue
        if fact.kind in ("money", "count", "ratio", "pence") and f.unit in ("percent", "points"):
            continue
        if fact.kind == "ratio" and f.unit not in ("", "ratio"):
            continue
        if fact.kind == "pence" and (f.unit not in ("", "pence") or (f.currency and f.unit != "pence")):
            continue  # '£6' is six pounds, not 6.0p
        if fact.kind == "count" and f.currency and re.search(r"[A-Za-z]", fact.text):
            continue  # an amount of money counts no people or stores (a bare gold names no unit: any may state it)
        if fact.currency and f.currency and not _same_currency(fact.currency, f.currency):
            continue
        value = f.value
        if fact.kind in ("money", "count") and f.scale:
            value = value * FACTORS[f.scale] / FACTORS[fact.scale]
        elif fact.kind in ("percent", "points", "ratio", "pence") and f.scale:
            continue
        if math.isclose(round(value, fact.decimals), fact.value, rel_tol=0, abs_tol=0.5 * 10 ** -(fact.decimals + 3)):
            return True
    return False


def _same_currency(a: str, b: str) -> bool:
    if a == b:
        return True
    dollars = {"$", "A$", "C$", "HK$", "NZ$", "S$"}
    return "$" in (a, b) and a in dollars and b in dollars


def names(fact: NameFact, text: str) -> bool:
    folded = _fold(text)
    return any(re.search(rf"(?<!\w){re.escape(_fold(n))}(?!\w)", folded) for n in fact.names)


def _fold(text: str) -> str:
    return re.sub(r"[\s\-‐-―]+", " ", plain(text)).casefold().strip()


def opens_with(answer: str, yes: bool) -> bool:
    first = re.match(r"\W*(\w+)", plain(answer))
    return bool(first) and first.group(1).lower() == ("yes" if yes else "no")


# --- scoring ---------------------------------------------------------------------------------------------------


@dataclass
class Score:
    """How one answer fares against its question."""

    id: str
    kind: str
    group: str
    expect: str
    status: str
    right: bool
    facts: list[tuple[str, bool]] = field(default_factory=list)
    lead_ok: bool = False
    wrong_period_or_segment: bool = False
    boilerplate: bool = False
    duplicated: list[str] = field(default_factory=list)
    fragments: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "group": self.group, "expect": self.expect, "status": self.status,
                "right": self.right, "facts": self.facts, "lead_ok": self.lead_ok,
                "wrong_period_or_segment": self.wrong_period_or_segment, "boilerplate": self.boilerplate,
                "duplicated": self.duplicated, "fragments": self.fragments}


def answer_parts(answer: str) -> tuple[str, str]:
    """(the first sentence, the whole answer) as they count: asides and computation sentences taken out; a
    bare 'Yes.' or 'No.' opening is read with the sentence after it."""
    kept = [_ASIDE.sub("", plain(s)) for s in sentences(answer) if not _COMPUTATION.search(plain(s))]
    if len(kept) > 1 and re.fullmatch(r"\W*(?:yes|no)\W*", kept[0], re.I):
        kept = [f"{kept[0]} {kept[1]}", *kept[2:]]
    return (kept[0] if kept else ""), " ".join(kept)


_BOILERPLATE = re.compile(
    r"(?i)table of contents|\bcertif(?:y|ies|ication)\b|independent (?:registered public accounting firm|auditor)|"
    r"\bin our opinion\b|present fairly|exact name of registrant|securities registered pursuant|"
    r"forward-looking statements|\bItem\s+\d+[A-Z]?\.\s|directors' declaration|responsibility statement")


def score(question: Question, status: str, answer: str) -> Score:
    """Score one turn's (status, answer) against the question (module docstring)."""
    out = Score(id=question.id, kind=question.kind, group=question.group, expect=question.expect, status=status,
                right=False)
    out.duplicated = duplicated_sentences(answer)
    out.fragments = fragments(answer)
    if question.expect != "answered":
        out.right = status == question.expect
        out.boilerplate = question.expect == "insufficient" and status == "answered" and bool(
            _BOILERPLATE.search(answer))
        return out
    if status != "answered":
        out.facts = [(f.describe(), False) for f in question.facts]
        return out
    first, body = answer_parts(answer)
    first_figures, body_figures = stated_figures(first), stated_figures(body)
    results = []
    for fact in question.facts:
        if isinstance(fact, YesNoFact):
            ok = opens_with(answer, fact.yes)
        elif isinstance(fact, FigureFact):
            ok = states(fact, first_figures if fact.lead else body_figures)
        elif fact.absent:
            ok = not names(fact, answer)
        else:
            ok = names(fact, first if fact.lead else body)
        results.append((fact.describe(), ok))
    out.facts = results
    leads = [ok for fact, (_, ok) in zip(question.facts, results) if getattr(fact, "lead", False)]
    stated = [ok for fact, (_, ok) in zip(question.facts, results) if not getattr(fact, "absent", False)]
    out.lead_ok = all(leads) if leads else bool(stated) and stated[0]
    out.right = bool(results) and all(ok for _, ok in results)
    lead_figures = [f for f in question.facts if isinstance(f, FigureFact) and f.lead]
    if question.distractors and not all(states(f, first_figures) for f in lead_figures):
        out.wrong_period_or_segment = any(states(d, first_figures) for d in question.distractors)
    return out


def duplicated_sentences(answer: str) -> list[str]:
    """Sentences that say again what an earlier one said (same words, citations and case aside)."""
    seen: dict[str, str] = {}
    out = []
    for sentence in sentences(answer):
        key = " ".join(re.findall(r"\w+", plain(sentence).casefold()))
        if len(key) < 12:
            continue
        if key in seen:
            out.append(sentence)
        seen.setdefault(key, sentence)
    return out


_LOWER_START = re.compile(r"^[\"'(]?[a-z]")
_ALLOWED_LOWER = re.compile(r"^[\"'(]?(?:e\.g\.|i\.e\.|iPhone|iPad|eBay|x\d|n/a)")


def fragments(answer: str) -> list[str]:
    """Sentences that start mid-word or mid-sentence (a lower-case opening), as a pasted fragment does."""
    return [s for s in sentences(answer) if _LOWER_START.match(plain(s)) and not _ALLOWED_LOWER.match(plain(s))]


# --- reports ---------------------------------------------------------------------------------------------------


def summarise(scores: Sequence[Score]) -> dict[str, Any]:
    """Right / total per group and per kind, plus the answer-quality counts the goals name."""
    by_group: dict[str, list[int]] = {}
    by_kind: dict[str, list[int]] = {}
    for s in scores:
        for table, key in ((by_group, s.group), (by_kind, s.kind)):
            table.setdefault(key, [0, 0])
            table[key][0] += s.right
            table[key][1] += 1
    answered = [s for s in scores if s.status == "answered"]
    return {
        "groups": by_group, "kinds": by_kind,
        "wrong_period_or_segment": sum(s.wrong_period_or_segment for s in scores),
        "boilerplate_on_unstated": sum(s.boilerplate for s in scores),
        "answers_with_duplicates": sum(bool(s.duplicated) for s in answered),
        "answers_with_fragments": sum(bool(s.fragments) for s in answered),
        "answered": len(answered), "total": len(scores),
    }


# --- golds of other shapes: a bare number, names as wholes, ranks ---------------------------------------------


def own_decimals(value: float | str) -> int:
    """The decimals a number is written with, trailing zeros aside: 4.0 -> 0, 1.42403 -> 5, '35.80' -> 1."""
    text = (value if isinstance(value, str) else repr(float(value))).strip().replace(",", "")
    try:
        number = Decimal(text)
    except InvalidOperation as error:
        raise ValueError(f"not a number: {value!r}") from error
    if not number.is_finite():
        raise ValueError(f"not a finite number: {value!r}")
    exponent = number.normalize().as_tuple().exponent
    return max(0, -int(exponent))


def _demanded(value: float, own: int) -> int:
    """The decimals a bare gold is held to: one below 100, none from 100 up, never more than it writes."""
    return min(own, 1 if abs(value) < 100 else 0)


def bare_figure_facts(value: float | str, lead: bool = True) -> tuple[FigureFact, ...]:
    """The figure facts a gold given as a bare number may be read as (module docstring): the number itself, at
    any scale (a scale word is read as the page's unit); and, when |gold| < 1.5, the ratio times 100 as a
    percentage or percentage points, the number itself then held to two more decimals than the percentage
    (1.42403: 142% or 1.42; 0.0814: 8.1% or 0.081)."""
    gold = float(str(value).replace(",", "")) if isinstance(value, str) else float(value)
    own = own_decimals(value)
    decimals = _demanded(gold, own)
    facts: list[FigureFact] = []
    if abs(gold) < 1.5:
        percent = gold * 100
        percent_decimals = _demanded(percent, max(own - 2, 0))
        decimals = min(own, percent_decimals + 2)
        facts += [FigureFact(value=round(percent, percent_decimals), decimals=percent_decimals, currency="",
                             scale="", kind=kind, lead=lead, text=f"{percent:.{percent_decimals}f}{suffix}")
                  for kind, suffix in (("percent", "%"), ("points", " pp"))]
    facts = [FigureFact(value=round(gold, decimals), decimals=decimals, currency="", scale=scale, kind="count",
                        lead=lead, text=f"{gold:.{decimals}f}") for scale in ("", "k", "m", "bn")] + facts
    return tuple(facts)


def states_bare(value: float | str, text: str) -> bool:
    """Whether a text states a gold given as a bare number, strictly, under one of its readings
    (`bare_figure_facts`); a gold that is a year (a whole number from 1900 to 2099) is stated by that year as a
    word, which `stated_figures` does not read as a figure."""
    figures = stated_figures(text)
    if any(states(fact, figures) for fact in bare_figure_facts(value)):
        return True
    gold = float(str(value).replace(",", "")) if isinstance(value, str) else float(value)
    return gold.is_integer() and 1900 <= gold <= 2099 and names(NameFact((str(int(gold)),)), text)


def first_sentence_states(value: float | str, answer: str) -> bool:
    """Whether an answer's first sentence, as it counts (`answer_parts`: "(stated as …)" asides and sentences
    that show a computation taken out), states a bare gold (`states_bare`): the lead-fact rule for a gold with
    no unit."""
    return states_bare(value, answer_parts(answer)[0])


def same_name(fact: NameFact, text: str) -> bool:
    """Whether a text is, as a whole, one of the fact's names: case, spacing and hyphens aside ('purple' is
    'Purple'; 'Purple.' and 'dark purple' are not). `names` finds a name inside a text; this is the text."""
    folded = _fold(text)
    return any(folded == _fold(n) for n in fact.names)


def same_names(expected: Iterable[str], given: Iterable[str]) -> bool:
    """Whether the given names are exactly the expected ones, in any order: every expected name given, no other
    and none twice (each compared as `same_name` does)."""
    want = {_fold(n) for n in expected}
    got = [_fold(n) for n in given]
    return len(got) == len(set(got)) and set(got) == want


def first_gold_rank(golds: Iterable[bool]) -> int | None:
    """The 1-based rank of the first gold item of a ranked list, given whether each item is gold; None when no
    item is."""
    return next((rank for rank, gold in enumerate(golds, start=1) if gold), None)


def rank_metrics(ranks: Sequence[int | None], k: int = 5, depth: int = 10) -> dict[str, Any]:
    """hit@k and MRR@depth over questions' first gold ranks (`first_gold_rank`; None: no gold in the list): the
    share of questions whose gold ranks k or better, and the mean over every question of 1/rank (0 for no gold
    or one ranked past `depth`); both None over no questions. `missed`: the positions in `ranks` of the
    questions without gold in the top k. Unrounded."""
    n = len(ranks)
    hits = sum(1 for r in ranks if r is not None and r <= k)
    reciprocal = sum(1 / r for r in ranks if r is not None and r <= depth)
    return {"n": n, f"hit@{k}": hits / n if n else None, f"mrr@{depth}": reciprocal / n if n else None,
            "missed": [i for i, r in enumerate(ranks) if r is None or r > k]}
