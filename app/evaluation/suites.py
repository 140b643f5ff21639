"""Evaluation suites as data: `evals/<corpus>/<suite>.jsonl`, read and checked here.

A folder under `evals/` is one corpus's suites; its `suite.json` names the corpus (`{"corpus":
"examples/corpus"}`, relative to the repository). Each JSONL file is one suite, and its name says what its records
hold and which stages they score (evals/README.md has the formats):

- `routing`: a question and the route flags it must get, with the company it is about;
- `retrieval`: a question and its gold passages (`source_id` and a phrase the passage `contains`): any one of
  them answers, unless the record says `"needs_all": true` (a two-company question needs each company's);
- `answers`: the strict scorer's key-fact records (app/evaluation/scoring.py), with their gold passages;
- `unanswerable`: questions about an absent company, an absent period or an unstated metric;
- `constraints`: a question that asks for a unit, a rounding or a currency, and the `pattern` its answer's first
  sentence must match;
- `traces`: conversations, each turn with its expected route, the sources that must be in its prompt and those
  that must stay out, the facts it must state and what memory must write or supersede.

A record may also say who asks it and how a clarification question is answered: `"user"` (its turns asked as a
user of their own, so no other case's memory records can flatter or spoil it) and `"reply"` (what the user says
when Prov asks for a clarification the record does not expect: "MRO, 2007" for a page's reader). A turn's gold may
be a bare number, `"bare": 60.94` (ConvFinQA's executed answers: no unit, no stated rounding): it is scored as
app/evaluation/scoring.py `first_sentence_states` reads it (`with_bare_reading`).

`load_suites(names)` reads them; a record that does not fit its suite's format is a `BadInput` naming its file
and line. `suite_from_records` checks records made at run time (app/evaluation/shared_data.py) the same way.
Pure reading, no runs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.errors import BadInput
from app.evaluation.scoring import (NameFact, Question, answer_parts, bare_figure_facts, names, question_from_record,
                                    stated_figures, states)

REPO = Path(__file__).resolve().parents[2]
EVALS = REPO / "evals"
KINDS = ("routing", "retrieval", "answers", "unanswerable", "constraints", "traces")
FLAGS = ("is_out_of_scope", "needs_retrieval", "needs_news", "needs_clarification", "needs_calculation")


@dataclass(frozen=True)
class Gold:
    """A gold passage: the source it is in and a phrase it contains (blank: any passage of the source)."""

    source_id: str
    contains: str = ""


@dataclass(frozen=True)
class Turn:
    """One question asked in a suite, with everything a stage may check about its turn."""

    id: str
    ask: str
    route: dict[str, bool] = field(default_factory=dict)
    company: str | None = None
    gold: tuple[Gold, ...] = ()
    needs_all: bool = False  # every gold passage is needed (one per company), not any one of them
    question: Question | None = None  # the strict scorer's record: expect, kind and key facts
    pattern: str = ""
    constraint: str = ""
    blocks_in: tuple[str, ...] = ()
    blocks_out: tuple[str, ...] = ()
    memory: dict[str, Any] = field(default_factory=dict)
    bare: str = ""  # a gold given as a bare number: `question` holds the reading the answer states (with_bare_reading)


@dataclass(frozen=True)
class Case:
    """A suite's record: one question, or a conversation's turns asked on one thread."""

    id: str
    suite: str
    turns: tuple[Turn, ...]
    reply: str = ""  # said when Prov asks a clarification question no turn expects (the reader's company and year)
    user: str | None = None  # the user the turns are asked as (None: the run's)


@dataclass(frozen=True)
class Suite:
    name: str  # 'sample/answers'
    kind: str  # 'answers'
    corpus: Path
    cases: tuple[Case, ...]


def suite_files(root: Path = EVALS) -> list[tuple[str, list[Path], Path]]:
    """(name, its JSONL files, its folder) of every suite under the root: a folder's `<suite>.jsonl`, and the
    files its suite.json maps to a suite (`"files": {"answers": ["examples/analyst/questions/*.jsonl"]}`, globs
    beside the suites or from the repository root), so a corpus's own question files are not copied here."""
    out: dict[str, tuple[list[Path], Path]] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
        for f in sorted(folder.glob("*.jsonl")):
            if f.stem in KINDS:
                out.setdefault(f"{folder.name}/{f.stem}", ([], folder))[0].append(f)
        meta = folder / "suite.json"
        try:
            mapped = json.loads(meta.read_text(encoding="utf-8")).get("files") or {} if meta.exists() else {}
        except ValueError as error:
            raise BadInput(f"{meta}: {error}") from error
        for kind, patterns in mapped.items():
            if kind not in KINDS:
                raise BadInput(f"{meta}: unknown suite {kind!r} (one of {', '.join(KINDS)})")
            for pattern in patterns:
                found = sorted(folder.glob(pattern)) or sorted(REPO.glob(pattern))
                if not found:
                    raise BadInput(f"{meta}: no file matches {pattern!r}")
                out.setdefault(f"{folder.name}/{kind}", ([], folder))[0].extend(found)
    return [(name, files, folder) for name, (files, folder) in sorted(out.items())]


def suite_names(root: Path = EVALS) -> list[str]:
    """Every suite under the root (evals/), as 'corpus/suite'."""
    _check_root(root)
    return [name for name, _, _ in suite_files(root)]


def _check_root(root: Path) -> None:
    import os

    if not root.is_dir():
        raise BadInput(f"no suites folder {root}")
    if not os.access(root, os.R_OK | os.X_OK):
        raise BadInput(f"suites folder {root} cannot be read: permission denied")


def load_suites(names: list[str] | None = None, root: Path = EVALS) -> list[Suite]:
    """The suites named ('sample' for all of a corpus's, 'sample/answers' for one; none: all of them)."""
    _check_root(root)
    suites = suite_files(root)
    if not suites:
        raise BadInput(f"no suites under {root} (a folder per corpus, with suite.json and <suite>.jsonl files)")
    if names:
        wanted: list[tuple[str, list[Path], Path]] = []
        for name in names:
            picked = [x for x in suites if name in (x[0].split("/")[0], x[0])]
            if not picked:
                known = ", ".join(sorted({x[0].split("/")[0] for x in suites} | {x[0] for x in suites}))
                raise BadInput(f"no suite named {name!r}; known: {known}")
            wanted += [x for x in picked if x not in wanted]
        suites = wanted
    return [_load_suite(name, files, folder) for name, files, folder in suites]


def suite_from_records(name: str, corpus: Path, records: list[dict[str, Any]]) -> Suite:
    """A suite ('shared/convfinqa/traces': its kind is the last part) from records made at run time, in the
    formats of the suites' files and checked as they are (a bad record is a `BadInput` naming it)."""
    kind = name.rsplit("/", 1)[-1]
    if kind not in KINDS:
        raise BadInput(f"{name}: unknown suite kind {kind!r} (one of {', '.join(KINDS)})")
    located = ((f"{name}, record {n}", lambda record=record: record) for n, record in enumerate(records, start=1))
    return Suite(name=name, kind=kind, corpus=corpus, cases=_cases(kind, name, located))


def with_bare_reading(turn: Turn, answer: str) -> Turn:
    """A turn whose gold is a bare number, its question's one fact made the reading of that number
    (`bare_figure_facts`, or the year as a word) that the answer's first sentence states, else the plain number:
    the strict scorer then holds the answer to exactly `first_sentence_states` (any one reading, not all)."""
    if not turn.bare or turn.question is None:
        return turn
    first = answer_parts(answer)[0]
    figures = stated_figures(first)
    readings = bare_figure_facts(turn.bare)
    chosen: Any = next((fact for fact in readings if states(fact, figures)), None)
    gold = float(turn.bare.replace(",", ""))
    if chosen is None and gold.is_integer() and 1900 <= gold <= 2099:
        year = NameFact((str(int(gold)),), lead=True)
        chosen = year if names(year, first) else None
    return replace(turn, question=replace(turn.question, facts=(chosen or readings[0],)))


def _corpus_of(folder: Path) -> Path:
    meta = folder / "suite.json"
    try:
        corpus = json.loads(meta.read_text(encoding="utf-8"))["corpus"]
    except (OSError, ValueError, KeyError) as error:
        raise BadInput(f"{meta}: needs {{\"corpus\": \"path/to/corpus\"}} ({error})") from error
    # beside the suites (a user's own suites and corpus), else from the repository root (evals/sample's
    # 'examples/corpus')
    path = next((p.resolve() for p in (folder / corpus, REPO / corpus) if p.is_dir()), (folder / corpus).resolve())
    if not path.is_dir():
        raise BadInput(f"{meta}: corpus folder {path} does not exist")
    return path


def _load_suite(name: str, files: list[Path], folder: Path) -> Suite:
    kind = name.split("/")[1]
    located = ((f"{path}:{n}", lambda line=line: json.loads(line)) for path in files
               for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if line.strip())
    return Suite(name=name, kind=kind, corpus=_corpus_of(folder), cases=_cases(kind, name, located))


def _cases(kind: str, suite: str, located: Iterable[tuple[str, Callable[[], dict[str, Any]]]]) -> tuple[Case, ...]:
    """Each record (where it stands, how to read it) made a case, in order: one that does not read or fit its
    suite's format, or that uses an id twice, is a `BadInput` naming where it stands."""
    cases: list[Case] = []
    seen: set[str] = set()
    for where, read in located:
        try:
            case = _case(kind, suite, read())
        except (ValueError, KeyError, TypeError) as error:
            raise BadInput(f"{where}: {error}") from error
        if case.id in seen:
            raise BadInput(f"{where}: id {case.id!r} used twice")
        seen.add(case.id)
        cases.append(case)
    return tuple(cases)


def _case(kind: str, suite: str, record: dict[str, Any]) -> Case:
    rid = str(record["id"])
    if kind == "traces":
        turns = tuple(_turn(f"{rid}.{i}", t, kind) for i, t in enumerate(record["turns"], start=1))
        if not turns:
            raise ValueError(f"{rid}: a trace needs turns")
        return Case(id=rid, suite=suite, turns=turns, reply=str(record.get("reply") or ""),
                    user=record.get("user") or None)
    return Case(id=rid, suite=suite, turns=(_turn(rid, record, kind),), reply=str(record.get("reply") or ""),
                user=record.get("user") or None)


def _turn(tid: str, record: dict[str, Any], kind: str) -> Turn:
    ask = str(record.get("ask") or record.get("question") or "").strip()
    if not ask:
        raise ValueError(f"{tid}: no question")
    route = {str(k): bool(v) for k, v in (record.get("route") or {}).items()}
    unknown = set(route) - set(FLAGS)
    if unknown:
        raise ValueError(f"{tid}: unknown route flags {sorted(unknown)}")
    gold = tuple(Gold(str(g["source_id"]), str(g.get("contains", ""))) for g in
                 record.get("gold") or record.get("evidence") or [])
    if kind == "retrieval" and not gold:
        raise ValueError(f"{tid}: a retrieval question needs gold passages")
    question = None
    if kind in ("answers", "unanswerable", "constraints", "traces") and (
            record.get("facts") or record.get("expect") or kind in ("answers", "unanswerable")):
        scored = {k: v for k, v in record.items() if k not in ("evidence", "gold")}
        scored.setdefault("expect", "insufficient" if kind == "unanswerable" else "answered")
        question = question_from_record({**scored, "id": tid, "question": ask})
    bare = record.get("bare")
    if bare is not None:
        if question is None:
            raise ValueError(f"{tid}: a bare gold needs an expected answer (\"expect\": \"answered\")")
        question = replace(question, facts=bare_figure_facts(bare)[:1])  # the plain reading until answered
    if kind == "constraints" and not record.get("pattern"):
        raise ValueError(f"{tid}: a constraint question needs the pattern its answer must match")
    try:
        re.compile(str(record.get("pattern", "")))
    except re.error as error:
        raise ValueError(f"{tid}: pattern {record.get('pattern')!r} is no regular expression ({error})") from error
    return Turn(id=tid, ask=ask, route=route, company=record.get("company"), gold=gold,
                needs_all=bool(record.get("needs_all", False)), question=question,
                pattern=str(record.get("pattern", "")), constraint=str(record.get("constraint", "")),
                blocks_in=tuple(record.get("blocks_in") or ()), blocks_out=tuple(record.get("blocks_out") or ()),
                memory=dict(record.get("memory") or {}), bare="" if bare is None else str(bare))
