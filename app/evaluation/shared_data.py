"""Suites made at run time from the third-party data in ../shared/data: never copied into the repository.

`prov eval --suite shared/convfinqa` (or `shared` for every dataset that is there) reads a dataset from the data
folder ($PROV_SHARED_DATA, else `shared/data` beside the repository: ../shared/data), turns it into suites in the
formats of evals/ (app/evaluation/suites.py), and writes its documents as a corpus folder under
`<home>/eval/shared/`; the knowledge base of that corpus is then built once and kept as any eval corpus's is
(`<home>/eval/<corpus>-<hash>`, app/evaluation/runner.py). The datasets are read through the bench scripts'
own readers (bench/convfinqa.py, bench/financebench.py, bench/goodai_memory.py), so a suite holds the same pages
and questions as its bench. A dataset whose files are missing is reported as "data not present" and skipped;
plain `prov eval` never runs these.

- `shared/financebench/answers` and `/unanswerable`: FinanceBench's 30 dev filings (3,169 pages, one record per
  page, as bench/financebench.py's plain ingest writes them) are the corpus. `answers`: the 63 dev questions
  whose evidence lies in them, with our key facts (bench/data/financebench_keyfacts.jsonl) for correctness and
  their gold evidence pages (`<doc>:p<page>`, 1-based) for retrieval and reduction. `unanswerable`: the 24 dev
  questions about companies with no filing there and our 20 about metrics the filings do not state, for the
  insufficient stage. A clarification is answered with the filing's company and year. `--size N`: the first N
  of each. Building the knowledge base embeds every page once (about 25 minutes on two cores);
  $PROV_EVAL_FINANCEBENCH_KB names a home built from the same records (bench/financebench.py --keep DIR gives
  DIR/financebench-plain) to copy instead.
- `shared/convfinqa/traces`: ConvFinQA dev. Each conversation is one trace on its own page (a markdown source
  as bench/convfinqa.py writes it, pages shared by conversations written once); each turn's executed answer is
  its bare-number gold for correctness (scoring.py `first_sentence_states`, through suites.with_bare_reading;
  'yes'/'no' as a yes/no fact), its page must reach every turn's prompt (reduction's blocks_in) and is the first
  turn's gold passage (retrieval). A clarification is answered with the page's company and year. `--size N`:
  the first N conversations (default 20).
- `shared/goodai-ltm/traces`: GoodAI LTM's update cases (Colours, NameList, Shopping; bench/goodai_memory.py's
  tasks), each script one trace asked as a user of its own, through the whole graph: every statement must be
  written to memory (a name or a favourite as a profile record, a list change as the list's task_state record)
  and every one after the first must supersede the record before it (the latest statement wins: the memory
  stage); the question's answer must name the expected colour, every expected name, each expected item with
  its quantity, and no colour or item the script superseded (correctness; the sample corpus is the documents,
  never asked about). `--size N`: N scripts,
  taken in turn from each task (default all 27).
- `shared/mtrag-un/traces`: MT-RAG-UN. Every reference passage of the 507 tasks is the corpus (1,152 passages);
  each task is one trace: its earlier user turns asked in order, then its last one, which carries the checks:
  the route (`is_out_of_scope` false: it asks about the knowledge base's own passages; `needs_clarification`
  true only for an underspecified turn, whose gold reply is a clarifying question: a clarification is then
  expected), the declared insufficient answer for an unanswerable turn, and
  the task's reference passages as the gold of an answerable or partial one (retrieval, reduction). `--size N`:
  N tasks, taken in turn from each answerability (default 40).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import re
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from app.errors import BadInput
from app.evaluation.suites import REPO, Case, Gold, Suite, Turn, suite_from_records

PREFIX = "shared"
SAMPLE_CORPUS = REPO / "examples" / "corpus"
SEED_FINANCEBENCH = "PROV_EVAL_FINANCEBENCH_KB"
Progress = Callable[[str], None]


def data_root() -> Path:
    """$PROV_SHARED_DATA when set, else shared/data beside the repository (../shared/data)."""
    shared = os.environ.get("PROV_SHARED_DATA")
    return Path(shared) if shared else REPO.parent / "shared" / "data"


@dataclass(frozen=True)
class Dataset:
    name: str  # 'convfinqa': its suites are shared/convfinqa/<kind>
    files: tuple[str, ...]  # what it needs, under the data folder
    kinds: tuple[str, ...]
    size: int | None  # how many records a run takes by default (None: all)
    counts: str  # what --size counts
    build: Callable[[Path, Path, int | None, Progress], list[Suite]]  # (data folder, home, size, progress)


def is_shared(name: str) -> bool:
    return name == PREFIX or name.startswith(PREFIX + "/")


def present(dataset: Dataset, root: Path | None = None) -> bool:
    root = root or data_root()
    return all((root / f).is_file() for f in dataset.files)


def listing(root: Path | None = None) -> list[str]:
    """Every generated suite's name, '(data not present)' after those whose dataset is missing."""
    return [f"{PREFIX}/{d.name}/{kind}" + ("" if present(d, root) else " (data not present)")
            for d in DATASETS.values() for kind in d.kinds]


def load_shared(names: Sequence[str], home: Path, *, size: int | None = None, root: Path | None = None,
                progress: Progress = lambda _: None) -> tuple[list[Suite], list[str]]:
    """The suites named ('shared' for every dataset, 'shared/convfinqa' for one dataset's, 'shared/convfinqa/traces'
    for one), built from the data folder, and a line for each dataset skipped because its data is not present."""
    root = root or data_root()
    wanted: dict[str, set[str]] = {}
    for name in names:
        parts = name.strip("/").split("/")
        if parts[0] != PREFIX or len(parts) > 3:
            raise BadInput(f"not a shared-data suite: {name!r}")
        datasets = [DATASETS.get(parts[1])] if len(parts) > 1 else list(DATASETS.values())
        if None in datasets or (len(parts) == 3 and parts[2] not in datasets[0].kinds):  # type: ignore[union-attr]
            known = ", ".join([PREFIX] + [f"{PREFIX}/{d.name} (/{', /'.join(d.kinds)})" for d in DATASETS.values()])
            raise BadInput(f"no suite named {name!r}; made from ../shared/data: {known}")
        for dataset in datasets:
            assert dataset is not None
            wanted.setdefault(dataset.name, set()).update(parts[2:] or dataset.kinds)
    suites: list[Suite] = []
    skipped: list[str] = []
    for name, kinds in wanted.items():
        dataset = DATASETS[name]
        if not present(dataset, root):
            missing = ", ".join(str(root / f) for f in dataset.files if not (root / f).is_file())
            skipped.append(f"{PREFIX}/{name}: data not present (no {missing}); nothing to run")
            continue
        built = dataset.build(root, home, size if size is not None else dataset.size, progress)
        suites += [s for s in built if s.kind in kinds]
    return suites, skipped


# --- shared helpers -------------------------------------------------------------------------------------------


def _bench(name: str) -> ModuleType:
    """A bench script (bench/<name>.py) as a module, for its data readers."""
    module_name = f"_prov_bench_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    path = REPO / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if not path.is_file() or spec is None or spec.loader is None:
        raise BadInput(f"{path} is missing: the shared-data suites read their data through it")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    except Exception:
        sys.modules.pop(module_name, None)
        raise
    return module


def _jsonl(path: Path) -> list[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:  # type: ignore[operator]
        return [json.loads(line) for line in fh if line.strip()]


def in_turn(rows: Iterable[dict[str, Any]], key: Callable[[dict[str, Any]], str],
            n: int | None) -> list[dict[str, Any]]:
    """N rows taken in turn from each group (by `key`, groups in the order met, rows in file order); all when N is
    None."""
    rows = list(rows)
    if n is None:
        return rows
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    out: list[dict[str, Any]] = []
    depth = 0
    while len(out) < n and any(len(g) > depth for g in groups.values()):
        out += [g[depth] for g in groups.values() if len(g) > depth][:n - len(out)]
        depth += 1
    return out


def write_corpus(folder: Path, files: dict[str, str]) -> Path:
    """The folder holding exactly these files (name -> text): others removed, changed ones replaced whole."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        if old.name not in files:
            shutil.rmtree(old) if old.is_dir() else old.unlink()
    for name, text in files.items():
        path = folder / name
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        partial = folder / f".{name}.partial"
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    return folder


def _work(home: Path) -> Path:
    return home / "eval" / PREFIX


# --- ConvFinQA ------------------------------------------------------------------------------------------------

CONVFINQA = "convfinqa/convfinqa_dev.jsonl"


def _page_name(record_id: str) -> str:
    """'Single_MRO/2007/page_134.pdf-1' -> 'MRO-2007-page_134': the page, whichever conversation is on it."""
    page = record_id.split("_", 1)[-1] if record_id.startswith(("Single_", "Double_")) else record_id
    page = page.split(".pdf")[0]
    return "".join(c if c.isalnum() or c in "_-" else "-" for c in page) or "page"


def convfinqa(root: Path, home: Path, size: int | None, progress: Progress = lambda _: None) -> list[Suite]:
    page_markdown = _bench("convfinqa").page_markdown
    records = _jsonl(root / CONVFINQA)[:size]
    folder = _work(home) / f"convfinqa-{len(records)}"
    pages: dict[str, str] = {}
    cases = []
    for i, record in enumerate(records):
        company, year, text = page_markdown(record)
        base = name = _page_name(str(record["id"]))
        n = 1
        while f"{name}.md" in pages and pages[f"{name}.md"] != text:  # another page under the same name
            n += 1
            name = f"{base}-{n}"
        pages[f"{name}.md"] = text
        source = f"{folder.name}/{name}.md"
        dialogue = record["dialogue"]
        turns = []
        for j, (ask, gold) in enumerate(zip(dialogue["conv_questions"], dialogue["executed_answers"])):
            turn: dict[str, Any] = {"ask": ask, "expect": "answered", "blocks_in": [source]}
            if isinstance(gold, str) and gold.strip().lower() in ("yes", "no"):
                turn["facts"] = [{"yes_no": gold.strip().lower()}]
            else:
                turn["bare"] = gold
            if j == 0:
                turn["gold"] = [{"source_id": source}]
            turns.append(turn)
        cases.append({"id": f"cfq-{i:03d}-{_page_name(str(record['id']))}", "turns": turns,
                      "reply": f"{company}, {year}"})
    write_corpus(folder, pages)
    return [suite_from_records(f"{PREFIX}/convfinqa/traces", folder, cases)]


# --- FinanceBench ---------------------------------------------------------------------------------------------

FINANCEBENCH = ("financebench/dev_corpus_pages.jsonl.gz", "financebench/dev_corpus_questions.jsonl",
                "financebench/dev_questions.jsonl")


def financebench(root: Path, home: Path, size: int | None, progress: Progress = lambda _: None) -> list[Suite]:
    bench = _bench("financebench")
    fb = bench.financebench_suite(root, ["plain"])
    if fb is None:
        return []
    folder = _work(home) / "financebench"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        if old.name != "filings.jsonl":
            shutil.rmtree(old) if old.is_dir() else old.unlink()
    written = fb.records(folder, "plain")  # folder/filings.jsonl: one record a page, as the bench ingests them
    if written.parent != folder:
        raise BadInput(f"bench/financebench.py wrote its records to {written}, not under {folder}")
    _seed_financebench(home, folder, progress)

    def turn(q: Any) -> Turn:
        gold = tuple(Gold(f"{doc}:p{page}") for doc, page in sorted(bench.gold_pages(q), key=str) if page is not None)
        return Turn(id=q.id, ask=q.question, company=q.company, gold=gold, question=q)

    def cases(suite: str, questions: Sequence[Any]) -> tuple[Case, ...]:
        return tuple(Case(id=q.id, suite=suite, turns=(turn(q),), reply=fb.reply(q)) for q in questions[:size])

    unanswerable = [q for questions in fb.extra.values() for q in questions]
    return [Suite(name=f"{PREFIX}/financebench/answers", kind="answers", corpus=folder,
                  cases=cases(f"{PREFIX}/financebench/answers", fb.questions)),
            Suite(name=f"{PREFIX}/financebench/unanswerable", kind="unanswerable", corpus=folder,
                  cases=cases(f"{PREFIX}/financebench/unanswerable", unanswerable))]


def _seed_financebench(home: Path, corpus: Path, progress: Progress) -> None:
    """With $PROV_EVAL_FINANCEBENCH_KB: the kept knowledge base of the corpus copied from that home when it is not
    built yet, after checking that it holds exactly the corpus's pages; else a word on what the first run costs."""
    from app.evaluation.runner import _copy_knowledge, corpus_key

    target = home / "eval" / corpus_key(corpus)
    if (target / "catalog.sqlite").exists():
        return
    seed = os.environ.get(SEED_FINANCEBENCH)
    if not seed:
        progress("shared/financebench: the first run embeds the 3,169 pages of the 30 filings (about 25 minutes on "
                 f"two cores), kept afterwards; {SEED_FINANCEBENCH}=HOME copies a knowledge base built from the same "
                 "records instead (bench/financebench.py --keep DIR: DIR/financebench-plain)")
        return
    source = Path(seed)
    ids = {json.loads(line)["source_id"] for line in (corpus / "filings.jsonl").open(encoding="utf-8")}
    try:
        with sqlite3.connect(f"file:{source / 'catalog.sqlite'}?mode=ro", uri=True) as db:
            held = {row[0] for row in db.execute("select source_id from sources")}
    except sqlite3.Error as error:
        raise BadInput(f"{SEED_FINANCEBENCH}={seed}: no knowledge base catalog there ({error})") from error
    if held != ids:
        raise BadInput(f"{SEED_FINANCEBENCH}={seed}: its catalog holds {len(held)} sources, not the corpus's "
                       f"{len(ids)} pages ({len(held - ids)} others, {len(ids - held)} missing)")
    progress(f"shared/financebench: knowledge base copied from {source} into {target}")
    target.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".seeding-", dir=target.parent))
    _copy_knowledge(source, building)
    building.replace(target)


# --- GoodAI LTM -----------------------------------------------------------------------------------------------

GOODAI = "goodai_ltm/goodai_ltm_definitions.jsonl"


# What a script's statements name: a colour is any capitalised word but the sentence's own ('My favourite colour
# is Pink.', 'Tan is my favourite colour.'); an item is the capitalised words after a quantity ('3 Toilet Paper').
_SAID_COLOUR = re.compile(r"\b(?!(?:My|The|I)\b)[A-Z][a-z]+\b")
_SAID_ITEM = re.compile(r"\b\d+\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)")


def _goodai_facts(task: str, expected: list[Any], said: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The answer names the latest colour (first sentence), every name given, each item with its quantity (as
    the JSON list asked for, or '3 Soap' in prose). What the statements `said` that the answer must no longer
    hold is scored too, as names that must be absent: an earlier colour, an item no longer on the list."""
    wanted = {str(e[0] if isinstance(e, list) else e).casefold() for e in expected}
    pattern = _SAID_COLOUR if task == "Colours" else _SAID_ITEM if task == "Shopping" else None
    gone = [] if pattern is None else list(dict.fromkeys(
        m.group(m.lastindex or 0) for text in said for m in pattern.finditer(text)))
    absent = [{"name": name, "absent": True} for name in gone if name.casefold() not in wanted]
    if task == "Colours":
        return [{"name": str(expected[0]), "lead": True}, *absent]
    if task == "NameList":
        return [{"name": str(name)} for name in expected]
    return [*({"name": f'"item": {json.dumps(str(item), ensure_ascii=False)}, "quantity": {int(qty)}',
               "alternatives": [f"{int(qty)} {item}"]} for item, qty in expected), *absent]


def goodai(root: Path, home: Path, size: int | None, progress: Progress = lambda _: None) -> list[Suite]:
    bench = _bench("goodai_memory")
    rows = [r for r in _jsonl(root / GOODAI) if r.get("task") in bench.TASKS]
    counted: dict[str, int] = {}
    for row in rows:  # each script's number within its task, as the bench counts them
        row["_n"] = counted[row["task"]] = counted.get(row["task"], -1) + 1
    cases = []
    for row in in_turn(rows, key=lambda r: str(r["task"]), n=size):
        task, n = str(row["task"]), row["_n"]
        record_type = "task_state" if task == "Shopping" else "profile"
        turns: list[dict[str, Any]] = []
        said: list[str] = []
        for utterance, is_question in zip(row["script"], row["is_question"]):
            if is_question:
                turns.append({"ask": utterance, "expect": "answered",
                              "facts": _goodai_facts(task, row["expected_responses"], said)})
            else:
                turns.append({"ask": utterance, "memory": {"write": record_type, "supersede": bool(said)}})
                said.append(utterance)
        cid = f"goodai-{task.lower()}-{n}"
        cases.append({"id": cid, "turns": turns, "user": f"eval-{cid}"})
    return [suite_from_records(f"{PREFIX}/goodai-ltm/traces", SAMPLE_CORPUS, cases)]


# --- MT-RAG-UN ------------------------------------------------------------------------------------------------

MTRAG = "mtrag/mtragun_reference.jsonl"


def _answerability(row: dict[str, Any]) -> str:
    value = row.get("answerability")
    return str((value[0] if isinstance(value, list) and value else value) or "ANSWERABLE").upper()


def mtrag(root: Path, home: Path, size: int | None, progress: Progress = lambda _: None) -> list[Suite]:
    rows = _jsonl(root / MTRAG)
    passages: dict[str, dict[str, Any]] = {}
    for row in rows:
        for context in row.get("contexts") or []:
            text = str(context.get("text") or "").strip()
            if text and context.get("document_id") and context["document_id"] not in passages:
                passages[context["document_id"]] = {
                    "source_id": context["document_id"], "title": str(context.get("title") or context["document_id"]),
                    "doc_type": "report", "text": text}
    folder = write_corpus(_work(home) / "mtrag-un",
                          {"passages.jsonl": "".join(json.dumps(p, ensure_ascii=False) + "\n"
                                                     for p in passages.values())})
    cases = []
    for row in in_turn(rows, key=_answerability, n=size):
        label = _answerability(row)
        said = [str(t["text"]).strip() for t in row["input"] if t.get("speaker") == "user" and str(t["text"]).strip()]
        if not said:
            continue
        *history, last = said
        # the passages are the knowledge base's documents: a question about them is in scope, and needs a
        # clarification only when the dataset says it is underspecified
        final: dict[str, Any] = {"ask": last, "route": {"is_out_of_scope": False,
                                                        "needs_clarification": label == "UNDERSPECIFIED"}}
        if label == "UNDERSPECIFIED":
            final["expect"] = "clarification"
        elif label == "UNANSWERABLE":
            final["expect"] = "insufficient"
        else:
            gold = [{"source_id": c["document_id"]} for c in row.get("contexts") or [] if c["document_id"] in passages]
            if gold:
                final["gold"] = gold
        cid = f"mtrag-{label.lower()}-{str(row['conversation_id'])[:12]}"
        cases.append({"id": cid, "turns": [*({"ask": h} for h in history), final]})
    return [suite_from_records(f"{PREFIX}/mtrag-un/traces", folder, cases)]


DATASETS: dict[str, Dataset] = {d.name: d for d in (
    Dataset("convfinqa", (CONVFINQA,), ("traces",), 20, "conversations", convfinqa),
    Dataset("financebench", FINANCEBENCH, ("answers", "unanswerable"), None, "questions of each suite",
            financebench),
    Dataset("goodai-ltm", (GOODAI,), ("traces",), None, "scripts, in turn from each task", goodai),
    Dataset("mtrag-un", (MTRAG,), ("traces",), 40, "tasks, in turn from each answerability", mtrag),
)}
