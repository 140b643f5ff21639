"""Per-stage metrics of an evaluation run, from what each turn recorded (pure functions, no runs).

Each asked question becomes an `Observed`: its suite's expectations (app/evaluation/suites.Turn) beside what the
turn did: its route flags, what search returned for the question, the evidence grading kept, the blocks of the
final prompt, the answer with its citations, and what memory wrote and whether the answer cache served it.
`stage_metrics(observed)` scores every stage on its own, so a fluent wrong answer cannot hide behind a good
figure elsewhere:

- `route`: accuracy per flag over the turns that state an expected route, also per company;
- `retrieval`: hit@5 and MRR@10 of the first gold passage in the search's ranked hits;
- `reduction`: of the answerable questions with gold passages, how many had their gold (any one passage, or
  every one for a record that `needs_all`: one per company) among the turn's graded evidence (`evidence`), in
  the final prompt (`prompt`) and cited (`cited`); and the trace turns' blocks that must be in the prompt or
  stay out;
- `memory`: did the write trigger fire, did a correction supersede, did the cache serve only when it should;
- `citation_validity`: every citation marker of an answer points at a block of its prompt;
- `grounding`: every figure of a cited sentence stands in one of the blocks it cites;
- `correctness`: the strict scorer's key facts (app/evaluation/scoring.py);
- `insufficient`: the share of unanswerable questions given the declared insufficient answer;
- `constraints`: the answers' first sentences in the unit, rounding or currency asked.

A stage with nothing to score reports `n: 0` and no rate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.evaluation.scoring import answer_parts, first_gold_rank, rank_metrics, score
from app.evaluation.suites import FLAGS, Gold, Turn


@dataclass(frozen=True)
class Passage:
    source_id: str
    text: str
    n: int | None = None  # the block number, for a passage of the prompt


@dataclass
class Observed:
    """One asked question: what its suite expects (`turn`) and what the turn did."""

    suite: str
    turn: Turn
    status: str = ""
    answer: str = ""
    route: dict[str, bool] = field(default_factory=dict)
    hits: list[Passage] = field(default_factory=list)
    evidence: list[Passage] = field(default_factory=list)
    blocks: list[Passage] = field(default_factory=list)
    cited: list[int] = field(default_factory=list)
    written: list[dict[str, Any]] = field(default_factory=list)
    cache_hit: bool = False
    thread: str = ""
    manifest: list[dict[str, Any]] = field(default_factory=list)
    held_out: dict[str, dict[str, bool]] = field(default_factory=dict)  # app/evaluation/held_out.py

    @property
    def kind(self) -> str:
        return self.suite.rsplit("/", 1)[-1]


STAGES = ("route", "retrieval", "reduction", "memory", "citation_validity", "grounding", "correctness",
          "insufficient", "constraints")
K = 5


def stage_metrics(observed: Sequence[Observed]) -> dict[str, dict[str, Any]]:
    """Every stage's figures (module docstring), keyed by stage."""
    return {"route": route_metrics(observed), "retrieval": retrieval_metrics(observed),
            "reduction": reduction_metrics(observed), "memory": memory_metrics(observed),
            "citation_validity": citation_metrics(observed), "grounding": grounding_metrics(observed),
            "correctness": correctness_metrics(observed), "insufficient": insufficient_metrics(observed),
            "constraints": constraint_metrics(observed)}


def headline(stage: str, figures: dict[str, Any]) -> float | None:
    """The one rate a stage is compared by (None when it scored nothing)."""
    key = {"retrieval": "hit@5", "reduction": "prompt_rate"}.get(stage, "rate")
    value = figures.get(key)
    return float(value) if isinstance(value, (int, float)) else None


def _rate(right: int, total: int) -> float | None:
    return round(right / total, 4) if total else None


# --- route -----------------------------------------------------------------------------------------------------


def route_metrics(observed: Sequence[Observed]) -> dict[str, Any]:
    per_flag = {f: [0, 0] for f in FLAGS}
    by_company: dict[str, list[int]] = {}
    whole = [0, 0]
    for o in observed:
        if not o.turn.route:
            continue
        all_right = True
        for flag, wanted in o.turn.route.items():
            right = bool(o.route.get(flag)) == wanted
            per_flag[flag][0] += right
            per_flag[flag][1] += 1
            all_right &= right
        company = o.turn.company or "(none)"
        by_company.setdefault(company, [0, 0])
        by_company[company][0] += all_right
        by_company[company][1] += 1
        whole[0] += all_right
        whole[1] += 1
    out = {"n": whole[1], "rate": _rate(*whole),
           "per_flag": {f: _rate(*v) for f, v in per_flag.items() if v[1]},
           "by_company": {c: _rate(*v) for c, v in sorted(by_company.items())}}
    held = [o for o in observed if o.turn.route and "held_out" in o.held_out]
    if held:
        out["held_out"] = _held_out_metrics(held)
    return out


def _held_out_metrics(observed: Sequence[Observed]) -> dict[str, Any]:
    """Each company's first-turn route questions asked of a router fitted without that company's examples, beside
    the router fitted on all of them (app/evaluation/held_out.py): the whole route right, per flag and company."""
    tallies: dict[str, dict[str, list[int]]] = {"held_out": {}, "in_sample": {}}
    per_flag = {f: [0, 0] for f in FLAGS}
    for o in observed:
        for which, tally in tallies.items():
            flags = o.held_out.get(which) or {}
            right = all(bool(flags.get(f)) == wanted for f, wanted in o.turn.route.items())
            for key in ("(all)", o.turn.company or "(none)"):
                cell = tally.setdefault(key, [0, 0])
                cell[0] += right
                cell[1] += 1
        for flag, wanted in o.turn.route.items():
            per_flag[flag][0] += bool(o.held_out["held_out"].get(flag)) == wanted
            per_flag[flag][1] += 1
    whole, inside = tallies["held_out"].pop("(all)"), tallies["in_sample"].pop("(all)")
    return {"n": whole[1], "rate": _rate(*whole), "in_sample_rate": _rate(*inside),
            "per_flag": {f: _rate(*v) for f, v in per_flag.items() if v[1]},
            "by_company": {c: {"held_out": _rate(*v), "in_sample": _rate(*tallies["in_sample"][c])}
                           for c, v in sorted(tallies["held_out"].items())}}


# --- retrieval and reduction -----------------------------------------------------------------------------------


def _squash(text: str) -> str:
    return " ".join(re.sub(r"[*|#_`]", " ", text).split()).casefold()


def holds(gold: Gold, passage: Passage) -> bool:
    """Whether a passage is the gold one: its source, and the phrase (spacing, case and markdown aside)."""
    if passage.source_id != gold.source_id and not passage.source_id.endswith("/" + gold.source_id):
        return False
    return not gold.contains or _squash(gold.contains) in _squash(passage.text)


def _first_rank(golds: Sequence[Gold], passages: Sequence[Passage]) -> int | None:
    return first_gold_rank(any(holds(g, p) for g in golds) for p in passages)


def _has_gold(turn: Turn, passages: Sequence[Passage]) -> bool:
    """The turn's gold is among the passages: any one of its gold passages, or every one when the turn needs
    all (a two-company question needs both companies' passages)."""
    present = [any(holds(g, p) for p in passages) for g in turn.gold]
    return all(present) if turn.needs_all else any(present)


def retrieval_metrics(observed: Sequence[Observed]) -> dict[str, Any]:
    scored = [o for o in observed if o.turn.gold and o.hits]
    figures = rank_metrics([_first_rank(o.turn.gold, o.hits[:10]) for o in scored], k=K, depth=10)
    hit, mrr = figures[f"hit@{K}"], figures["mrr@10"]
    return {"n": len(scored), "hit@5": round(hit, 4) if hit is not None else None,
            "mrr@10": round(mrr, 4) if mrr is not None else None,
            "missed": [scored[i].turn.id for i in figures["missed"]]}


def reduction_metrics(observed: Sequence[Observed]) -> dict[str, Any]:
    """Of the answerable questions with gold passages, those whose every gold passage the turn's own search
    brought and grading kept (`evidence`), that reached the prompt, and that the answer cited (the graph searches
    each company with its own queries, so this is not conditioned on the plain search of `retrieval`). And the
    traces' blocks that must be in the prompt and those that must stay out."""
    found = [o for o in observed if o.turn.gold and (o.turn.question is None or o.turn.question.expect == "answered")]
    evidence = [o for o in found if _has_gold(o.turn, o.evidence)]
    prompt = [o for o in found if _has_gold(o.turn, o.blocks)]
    cited = [o for o in found if _has_gold(o.turn, [b for b in o.blocks if b.n in o.cited])]
    must_in = must_out = kept_in = kept_out = 0
    wrong: list[str] = []
    for o in observed:
        present = {b.source_id for b in o.blocks}
        for source in o.turn.blocks_in:
            must_in += 1
            ok = any(s == source or s.endswith("/" + source) for s in present)
            kept_in += ok
            wrong += [] if ok else [f"{o.turn.id}: {source} missing"]
        for source in o.turn.blocks_out:
            must_out += 1
            ok = not any(s == source or s.endswith("/" + source) for s in present)
            kept_out += ok
            wrong += [] if ok else [f"{o.turn.id}: {source} admitted"]
    return {"n": len(found), "evidence_rate": _rate(len(evidence), len(found)),
            "prompt_rate": _rate(len(prompt), len(found)), "cited_rate": _rate(len(cited), len(found)),
            "lost": [o.turn.id for o in found if o not in prompt],
            "blocks_in": _rate(kept_in, must_in), "blocks_out": _rate(kept_out, must_out), "block_misses": wrong}


# --- memory ----------------------------------------------------------------------------------------------------


def memory_metrics(observed: Sequence[Observed]) -> dict[str, Any]:
    checks: dict[str, list[int]] = {"write": [0, 0], "supersede": [0, 0], "cache": [0, 0]}
    failed: list[str] = []
    for o in observed:
        want = o.turn.memory
        if "write" in want:
            ok = any(w.get("type") == want["write"] for w in o.written) if want["write"] else not o.written
            _count(checks["write"], ok, failed, f"{o.turn.id}: write {want['write']!r}")
        if "supersede" in want:
            ok = any(w.get("supersedes") for w in o.written) == bool(want["supersede"])
            _count(checks["supersede"], ok, failed, f"{o.turn.id}: supersede {want['supersede']}")
        if "cache_hit" in want:
            _count(checks["cache"], o.cache_hit == bool(want["cache_hit"]), failed,
                   f"{o.turn.id}: cache_hit {want['cache_hit']}")
    right = sum(v[0] for v in checks.values())
    total = sum(v[1] for v in checks.values())
    return {"n": total, "rate": _rate(right, total), **{k: _rate(*v) for k, v in checks.items()}, "failed": failed}


def _count(cell: list[int], ok: bool, failed: list[str], what: str) -> None:
    cell[0] += ok
    cell[1] += 1
    if not ok:
        failed.append(what)


# --- citations and grounding -----------------------------------------------------------------------------------

_MARKER = re.compile(r"\[(\d+)\]")
_NUMBER = re.compile(r"(?:(?<=FY)|(?<![\w.]))\d[\d,]*(?:\.\d+)?")  # 'FY2024' states the year 2024


def _answered(observed: Sequence[Observed]) -> list[Observed]:
    return [o for o in observed if o.status == "answered" and o.answer]


def _declared(o: Observed) -> bool:
    """An answer that rests on no block: one from memory or the answer cache (no prompt was assembled) or the
    declared 'No' of a 'did X mention …' question, which rests on a text search of every passage
    (prompts/answer.NOT_MENTIONED)."""
    return not o.blocks or " reports held here do not mention " in o.answer


def citation_metrics(observed: Sequence[Observed]) -> dict[str, Any]:
    """Answers whose every citation marker names a block of their own prompt (an answer with none is invalid:
    an answered turn must cite), answers that rest on no block aside (`_declared`)."""
    answered = [o for o in _answered(observed) if not _declared(o)]
    bad = []
    for o in answered:
        numbers = {b.n for b in o.blocks if b.n is not None}
        markers = [int(m) for m in _MARKER.findall(o.answer)]
        if not markers or any(m not in numbers for m in markers):
            bad.append(o.turn.id)
    return {"n": len(answered), "rate": _rate(len(answered) - len(bad), len(answered)), "invalid": bad}


def _numbers(text: str) -> set[str]:
    out = set()
    for raw in _NUMBER.findall(text):
        value = raw.replace(",", "").rstrip(".")
        out.add(value.rstrip("0").rstrip(".") if "." in value else value)
    return out


def ungrounded(o: Observed) -> list[str]:
    """The answer's figures (years included) that none of the blocks its sentence cites states; a sentence
    without markers is not checked (citation validity counts an answer without any)."""
    texts = {b.n: f"{b.text}" for b in o.blocks if b.n is not None}
    missing: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z\"'(])", o.answer):
        markers = [int(m) for m in _MARKER.findall(sentence)]
        if not markers:
            continue
        said = _numbers(_MARKER.sub(" ", sentence))
        support = set().union(*(_numbers(texts.get(m, "")) for m in markers))
        missing += sorted(n for n in said - support if not _restated(n, support))
    return missing


def _restated(number: str, support: set[str]) -> bool:
    """A figure the blocks state rounded or in another scale: '£58m' for 58.3, '$0.95bn' for 949.3 (millions),
    '6.70%' for 6.7; rounded to the decimals it is written with."""
    decimals = len(number.split(".")[1]) if "." in number else 0
    value = float(number)
    for raw in support:
        stated = float(raw)
        if any(round(stated * factor, decimals) == value for factor in (1, 0.001, 1000)):
            return True
    return False


def grounding_metrics(observed: Sequence[Observed]) -> dict[str, Any]:
    """Answers with a figure no block their sentence cites states. An answer that rests on no block of its own
    prompt (`_declared`: from memory, or served from the answer cache, whose blocks are the turn's that first gave
    it, checked there) is left out, as citation validity leaves it out."""
    answered = [o for o in _answered(observed) if _MARKER.search(o.answer) and not _declared(o)]
    bad = {o.turn.id: gaps for o in answered if (gaps := ungrounded(o))}
    return {"n": len(answered), "rate": _rate(len(answered) - len(bad), len(answered)), "ungrounded": bad}


# --- answers ---------------------------------------------------------------------------------------------------


def correctness_metrics(observed: Sequence[Observed]) -> dict[str, Any]:
    scored = [(o, score(o.turn.question, o.status, o.answer)) for o in observed
              if o.turn.question is not None and o.turn.question.expect != "insufficient"
              and (o.turn.question.facts or o.turn.question.expect == "clarification")]
    groups: dict[str, list[int]] = {}
    for _, s in scored:
        groups.setdefault(s.group, [0, 0])
        groups[s.group][0] += s.right
        groups[s.group][1] += 1
    right = sum(s.right for _, s in scored)
    return {"n": len(scored), "rate": _rate(right, len(scored)),
            "groups": {g: _rate(*v) for g, v in sorted(groups.items())},
            "wrong_period_or_segment": sum(s.wrong_period_or_segment for _, s in scored),
            "wrong": [o.turn.id for o, s in scored if not s.right]}


def insufficient_metrics(observed: Sequence[Observed]) -> dict[str, Any]:
    asked = [o for o in observed if o.turn.question is not None and o.turn.question.expect == "insufficient"]
    declared = [o for o in asked if o.status == "insufficient"]
    boiler = [o for o in asked if score(o.turn.question, o.status, o.answer).boilerplate]  # type: ignore[arg-type]
    return {"n": len(asked), "rate": _rate(len(declared), len(asked)), "boilerplate": len(boiler),
            "answered": [o.turn.id for o in asked if o not in declared]}


def constraint_metrics(observed: Sequence[Observed]) -> dict[str, Any]:
    asked = [o for o in observed if o.turn.pattern]
    kept = []
    for o in asked:
        first, _ = answer_parts(o.answer)
        ok = o.status == "answered" and re.search(o.turn.pattern, first) is not None
        if ok and o.turn.question is not None and o.turn.question.facts:
            ok = score(o.turn.question, o.status, o.answer).right
        if ok:
            kept.append(o)
    by_kind: dict[str, list[int]] = {}
    for o in asked:
        by_kind.setdefault(o.turn.constraint or "other", [0, 0])
        by_kind[o.turn.constraint or "other"][0] += o in kept
        by_kind[o.turn.constraint or "other"][1] += 1
    return {"n": len(asked), "rate": _rate(len(kept), len(asked)),
            "by_constraint": {k: _rate(*v) for k, v in sorted(by_kind.items())},
            "broken": [o.turn.id for o in asked if o not in kept]}
