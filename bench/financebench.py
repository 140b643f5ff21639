"""Prov's answers on whole filings, scored strictly, on two dev corpora, offline:

- **financebench**: FinanceBench's 30 dev filings (3,169 pages, 14 companies; ../shared/data, not part of the
  repo: without it this part prints so and is skipped), its 63 questions, the 24 dev questions about companies
  with no filing there, and our 20 questions about metrics those filings do not state;
- **analyst**: our second dev corpus (examples/analyst: annual reports, half-year reports and news of fictional
  Australian, British, German, Canadian and Japanese companies) and its questions of every kind.

    python bench/financebench.py [--corpora financebench,analyst] [--modes plain,given] [--no-answers]
                                 [--limit N] [--keep DIR] [--cache PATH] [--rescore RUN.json]

FinanceBench's pages are ingested as a user who converts pages to records would, one JSONL line a page:
  plain: {"source_id": "BESTBUY_2019_10K:p12", "title": "BESTBUY_2019_10K", "page": 12, "company": "BESTBUY",
          "doc_type": "report", "text": ...}      (no fiscal year: Prov must read it)
  given: the same, with the question set's company name and the fiscal year of the filing.
Page numbers are 1-based here (FinanceBench's are 0-based: its page 11 is our p12). The analyst corpus is ingested
as its files are.

Printed side by side, in one run, per corpus (and mode):
- retrieval: page hit@5 and MRR@10 over distinct pages for a naive dense baseline (1,000-character chunks with 200
  overlap, MiniLM, cosine over everything, no metadata) and for Prov's search (`KnowledgeBase.search`); every
  other page and filing is a distractor;
- answers, whole offline turns through the supervisor graph (one thread per question; a clarification is
  answered with the company and year, as the reader knows which filing they mean, except for the questions that
  expect one), scored by app/evaluation/scoring.py: strictly, on the answer's first sentence (sign, scale,
  rounding; inputs and "stated as" figures do not count), by key facts for comparisons, changes, judgements,
  lists and yes/no questions (bench/data/financebench_keyfacts.jsonl; the analyst questions carry their own), and
  the declared insufficient answer where the filings do not state what is asked. Beside the strict figure, the
  old lenient scorer (the gold figure anywhere in the answer) for comparison;
- a stage-loss table per question kind: gold page in the search's top 5, gold page in the final prompt, gold page
  cited, answer right: what an LLM provider could at best do with what reached the prompt.

`--rescore RUN.json` scores the turns a previous run saved (its answers as they were) with today's scorer.
Embeddings are cached by text under --cache (default ~/.cache/prov-bench), so later runs embed nothing new; the
first FinanceBench run embeds about 30,000 texts (roughly 25 minutes on two cores).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.evaluation.scoring import (GROUPS, Question, load_questions, rank_metrics,  # noqa: E402
                                    question_from_record, score, summarise)

UNSTATED = REPO / "bench" / "data" / "financebench_unstated.jsonl"
KEYFACTS = REPO / "bench" / "data" / "financebench_keyfacts.jsonl"
ANALYST = REPO / "examples" / "analyst"
DATA = REPO.parent / "shared" / "data"
_DOC_COMPANY = re.compile(r"^(.*?)_(?:19|20)\d{2}")
_DOC_YEAR = re.compile(r"_((?:19|20)\d{2})")
_PAGE_SUFFIX = re.compile(r":p(\d+)$")
PageKey = tuple[str, "int | None"]


# --- suites -------------------------------------------------------------------------------------------------------


@dataclass
class Suite:
    """A corpus to ingest and the questions to ask of it: the main set (scored by kind) and extra sets scored
    only as insufficient or not (absent companies, unstated metrics)."""

    name: str
    questions: list[Question]
    reply: Callable[[Question], str]
    records: Callable[[Path, str], Path] | None = None  # (home, mode) -> what to ingest
    folder: Path | None = None
    extra: dict[str, list[Question]] = field(default_factory=dict)
    naive_pages: list[dict] = field(default_factory=list)  # {doc_name, page_num (1-based), text}
    modes: tuple[str, ...] = ("plain",)


def page_key(source_id: str, page: int | None) -> tuple[str, int | None]:
    """A page as both the gold and Prov name it: ('BESTBUY_2019_10K', 12) for 'BESTBUY_2019_10K:p12'."""
    m = _PAGE_SUFFIX.search(source_id or "")
    if m:
        return source_id[:m.start()], int(m.group(1))
    return source_id or "", page


def gold_pages(q: Question) -> set[tuple[str, int | None]]:
    return {page_key(source, page) for source, page in q.evidence}


def _doc_company(doc_name: str) -> str:
    m = _DOC_COMPANY.match(doc_name)
    return m.group(1) if m else doc_name.split("_")[0]


def financebench_suite(data: Path, modes: Sequence[str]) -> Suite | None:
    folder = data / "financebench"
    if not (folder / "dev_corpus_pages.jsonl.gz").exists():
        return None
    pages = [json.loads(x) for x in gzip.open(folder / "dev_corpus_pages.jsonl.gz", "rt")]
    raw = [json.loads(x) for x in (folder / "dev_corpus_questions.jsonl").open()]
    dev = [json.loads(x) for x in (folder / "dev_questions.jsonl").open()]
    keyfacts = {r["id"]: r for r in map(json.loads, KEYFACTS.open())} if KEYFACTS.exists() else {}
    held = {_doc_company(p["doc_name"]) for p in pages}
    held_names = {q["company"] for q in raw}
    absent = [q for q in dev if q["company"] not in held_names and _doc_company(q["doc_name"]) not in held]
    unstated = [json.loads(x) for x in UNSTATED.open()] if UNSTATED.exists() else []
    names = {q["doc_name"]: q["company"] for q in raw}

    def records(home: Path, mode: str) -> Path:
        path = home / "filings.jsonl"
        with path.open("w") as fh:
            for p in pages:
                doc, n = p["doc_name"], p["page_num"] + 1
                record = {"source_id": f"{doc}:p{n}", "title": doc, "page": n, "company": _doc_company(doc),
                          "doc_type": "report", "text": p["text"]}
                if mode == "given":
                    record["company"] = names.get(doc) or next(
                        (c for d, c in names.items() if _doc_company(d) == _doc_company(doc)), record["company"])
                    year = _DOC_YEAR.search(doc)
                    record["fiscal_year"] = int(year.group(1)) if year else None
                if p["text"].strip():
                    fh.write(json.dumps(record) + "\n")
        return path

    def reply(q: Question) -> str:
        year = _DOC_YEAR.search(q.evidence[0][0]) if q.evidence else None
        return f"{q.company}, {year.group(1)}" if year else str(q.company or "")

    return Suite(
        name="financebench", questions=[financebench_question(q, keyfacts.get(q["financebench_id"])) for q in raw],
        reply=reply, records=records,
        extra={"absent companies": [question_from_record({"id": q["financebench_id"], "question": q["question"],
                                                          "company": q["company"], "kind": "unstated",
                                                          "expect": "insufficient"}) for q in absent],
               "unstated metrics (ours)": [question_from_record({**q, "kind": "unstated", "expect": "insufficient",
                                                                 "evidence": []}) for q in unstated]},
        naive_pages=[{"doc_name": p["doc_name"], "page_num": p["page_num"] + 1, "text": p["text"]} for p in pages],
        modes=tuple(modes))


_METRIC_WORDS = re.compile(r"(?i)margin|ratio|turnover|average|growth|rate|%|percent|per share|days|cagr|change")


def financebench_question(q: dict, facts: dict | None) -> Question:
    """A FinanceBench question with our key facts (bench/data/financebench_keyfacts.jsonl); a metrics question
    without them is scored by its gold figure, in the scale the question asks."""
    record = {"id": q["financebench_id"], "question": q["question"], "company": q["company"],
              "answer": q["answer"],
              "evidence": [{"source_id": e["doc_name"], "page": e["evidence_page_num"] + 1} for e in q["evidence"]]}
    if facts:
        return question_from_record(record, facts)
    gold = gold_figure(q["answer"])
    kind = ("metric" if _METRIC_WORDS.search(q["question"]) else "statement_figure") \
        if q["question_type"] == "metrics-generated" else "explain"
    fact = []
    if gold is not None:
        asked = _ASKED_SCALE.search(q["question"])
        scale = {"thousands": "k", "millions": "m", "billions": "bn"}[
            (asked.group(1) or asked.group(2)).lower()] if asked else "m"
        value, decimals, pct = gold
        fact = [{"figure": f"{value:.{decimals}f}", "unit": "%" if pct else f"${scale}", "lead": True}]
    return question_from_record({**record, "kind": kind, "facts": fact})


def analyst_suite(folder: Path = ANALYST) -> Suite | None:
    corpus, questions = folder / "corpus", folder / "questions"
    if not corpus.is_dir() or not questions.is_dir():
        return None
    loaded = load_questions([questions])
    years = _report_years(corpus)

    def reply(q: Question) -> str:
        year = next((years[page_key(s, p)[0]] for s, p in q.evidence if page_key(s, p)[0] in years), None)
        return ", ".join(x for x in (q.company or "", f"FY{year}" if year else "") if x)

    pages = []
    for path in sorted((corpus / "reports").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                pages.append({"doc_name": page_key(r["source_id"], r.get("page"))[0], "page_num": r.get("page"),
                              "text": r["text"]})
    return Suite(name="analyst", questions=loaded, reply=reply, folder=corpus, naive_pages=pages)


def _report_years(corpus: Path) -> dict[str, int]:
    """The fiscal year each report's title names ('PELLBURY_2025_AR' → 2025)."""
    out = {}
    for path in (corpus / "reports").glob("*.jsonl"):
        m = _DOC_YEAR.search(path.stem)
        if m:
            out[path.stem] = int(m.group(1))
    return out


# --- the old, lenient scorer (kept only to print beside the strict one) -----------------------------------------
_GOLD_FIGURE = re.compile(r"^\s*(?P<neg>-|\()?\s*\$?\s*(?P<num>-?\d[\d,]*(?:\.\d+)?)\s*(?P<pct>%)?\)?\s*"
                          r"(?P<scale>million|billion|thousand)?\s*$", re.I)
_ANSWER_FIGURE = re.compile(r"(?P<neg>[-−(])?\s*[$£€]?\s*(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<pct>%|percent)?"
                            r"\s*(?P<scale>million|billion|thousand|bn|m\b)?", re.I)
_SCALE = {"thousand": 1e-3, "million": 1.0, "m": 1.0, "billion": 1e3, "bn": 1e3}
_ASKED_SCALE = re.compile(r"(?i)\bin (?:usd |us\$ |\$ ?)?(thousands|millions|billions)\b|\bUSD (thousands|millions|billions)\b")


def gold_figure(answer: str) -> tuple[float, int, bool] | None:
    """(value, decimals, is_percent) when the gold answer is a bare figure, else None."""
    m = _GOLD_FIGURE.match(answer.replace("USD", ""))
    if not m:
        return None
    num = m.group("num").replace(",", "")
    value = float(num) * (-1 if m.group("neg") else 1)
    decimals = len(num.split(".")[1]) if "." in num else 0
    return value, decimals, bool(m.group("pct"))


def lenient_states_figure(answer: str, gold: tuple[float, int, bool], question: str = "") -> bool:
    """The scorer this bench used until issue 16: the gold figure anywhere in the answer, its inputs and "stated
    as" figures included. It counted 16/16 on the dev set; printed beside the strict figure so the gap shows."""
    value, decimals, is_pct = gold
    asked = _ASKED_SCALE.search(question)
    unit = _SCALE[(asked.group(1) or asked.group(2)).lower().rstrip("s")] if asked else 1.0
    for m in _ANSWER_FIGURE.finditer(answer):
        if bool(m.group("pct")) != is_pct:
            continue
        num = float(m.group("num").replace(",", ""))
        sign = -1 if m.group("neg") else 1
        word = (m.group("scale") or "").lower()
        scale = _SCALE[word] / unit if word else 1.0
        if round(sign * num * scale, decimals) == round(value, decimals):
            return True
    return False


# --- an embedding cache shared by every index this run builds --------------------------------------------------
class CachedEmbedder:
    """Wraps an embedder; vectors are kept in SQLite by the text's hash (and the model's name)."""

    def __init__(self, inner: Any, path: Path) -> None:
        self.inner, self.name = inner, getattr(inner, "name", "embedder")
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.execute("create table if not exists v (k text primary key, vec blob)")
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        import numpy as np

        # keyed by the words alone: the encoder reads a line break as a space, so a re-chunk that only keeps a
        # table's lines needs no new vectors
        keys = [hashlib.sha1(f"{self.name}\n{' '.join(t.split())}".encode()).hexdigest() for t in texts]
        found = self._get(keys)
        missing = [i for i, k in enumerate(keys) if k not in found]
        for start in range(0, len(missing), 256):
            idx = missing[start:start + 256]
            vecs = self.inner.embed([texts[i] for i in idx])
            with self._lock:
                self._db.executemany("insert or replace into v values (?, ?)",
                                     [(keys[i], np.asarray(v, dtype=np.float32).tobytes()) for i, v in zip(idx, vecs)])
                self._db.commit()
            found.update({keys[i]: list(map(float, v)) for i, v in zip(idx, vecs)})
        return [found[k] for k in keys]

    def _get(self, keys: list[str]) -> dict[str, list[float]]:
        import numpy as np

        out: dict[str, list[float]] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = keys[start:start + 500]
                rows = self._db.execute(f"select k, vec from v where k in ({','.join('?' * len(part))})", part)
                out.update({k: np.frombuffer(b, dtype=np.float32).astype(float).tolist() for k, b in rows})
        return out


def install_cache(cache: Path) -> CachedEmbedder:
    from app.knowledge import embeddings
    from app.settings import Settings

    cached = CachedEmbedder(embeddings.get_embedder(Settings()), cache)
    embeddings.get_embedder = lambda settings: cached  # type: ignore[assignment]
    return cached


# --- retrieval ---------------------------------------------------------------------------------------------
def page_ranks(ranked_pages: Sequence[tuple[str, int | None]], gold: set[tuple[str, int | None]]) -> int | None:
    for rank, page in enumerate(ranked_pages, start=1):
        if page in gold:
            return rank
    return None


def retrieval_score(ranks: Sequence[int | None]) -> dict[str, float]:
    """hit@5 and MRR@10 through the shared scorer's rank metrics (the ones `prov eval` reports); 0 over none."""
    figures = rank_metrics(ranks, k=5, depth=10)
    return {"hit@5": figures["hit@5"] or 0.0, "mrr@10": figures["mrr@10"] or 0.0}


def distinct_pages(items: Iterable[tuple[str, int | None]], limit: int = 10) -> list[tuple[str, int | None]]:
    out: list[tuple[str, int | None]] = []
    for page in items:
        if page not in out:
            out.append(page)
        if len(out) == limit:
            break
    return out


def naive_dense(pages: Sequence[dict], questions: Sequence[Question], embedder: CachedEmbedder) -> list[int | None]:
    """1,000-character chunks with 200 overlap, MiniLM, cosine over everything, no metadata."""
    import numpy as np

    texts, where = [], []
    for p in pages:
        t = p["text"]
        for start in range(0, max(len(t) - 200, 1), 800):
            if t[start:start + 1000].strip():
                texts.append(t[start:start + 1000])
                where.append((p["doc_name"], p["page_num"]))
    matrix = np.asarray(embedder.embed(texts), dtype=np.float32)
    qvecs = np.asarray(embedder.embed([q.question for q in questions]), dtype=np.float32)
    ranks = []
    for q, qv in zip(questions, qvecs):
        order = np.argsort(-(matrix @ qv))[:200]
        ranks.append(page_ranks(distinct_pages(where[i] for i in order), gold_pages(q)))
    return ranks


def prov_search(kb: Any, questions: Sequence[Question]) -> list[int | None]:
    ranks = []
    for q in questions:
        res = kb.search(q.question, k=10)
        ranks.append(page_ranks(distinct_pages(page_key(h.source_id, h.page) for h in res.hits), gold_pages(q)))
    return ranks


# --- answers -----------------------------------------------------------------------------------------------
def run_turn(runtime: Any, q: Question, reply: Callable[[Question], str]) -> dict[str, Any]:
    """One question on a new thread; a clarification answered as the reader would (unless one is expected)."""
    result = runtime.run(q.question)
    asked = 0
    while result.status == "clarification" and q.expect != "clarification" and asked < 2:
        asked += 1
        result = runtime.resume(result.thread_id, reply(q))
    values = runtime.graph.get_state(runtime.config(result.thread_id)).values or {}
    blocks = [page_key(b.source_id, b.page) for b in values.get("blocks") or [] if b.kind in ("report", "news")]
    cited = [page_key(c["source_id"], c.get("page")) for c in result.citations]
    return {"id": q.id, "status": result.status, "asked": asked, "answer": result.answer, "question": q.question,
            "thread": result.thread_id, "prompt_pages": blocks, "cited_pages": cited}


def run_turns(runtime: Any, questions: Sequence[Question], reply: Callable[[Question], str]) -> list[dict]:
    return [run_turn(runtime, q, reply) for q in questions]


def stage_loss(questions: Sequence[Question], turns: Sequence[dict], ranks: Sequence[int | None],
               scores: Sequence[Any]) -> dict[str, list[int]]:
    """Per kind, of the answerable questions with gold pages: [n, gold in top 5, gold in prompt, gold cited,
    right]."""
    table: dict[str, list[int]] = {}
    for q, turn, rank, s in zip(questions, turns, ranks, scores):
        gold = gold_pages(q)
        if q.expect != "answered" or not gold:
            continue
        row = table.setdefault(q.kind, [0, 0, 0, 0, 0])
        row[0] += 1
        row[1] += bool(rank and rank <= 5)
        row[2] += bool(gold & {tuple(p) for p in turn.get("prompt_pages", [])})
        row[3] += bool(gold & {tuple(p) for p in turn.get("cited_pages", [])})
        row[4] += s.right
    return table


def score_run(suite: Suite, turns: list[dict], extra: dict[str, list[dict]],
              ranks: Sequence[int | None] | None = None) -> dict[str, Any]:
    by_id = {t["id"]: t for t in turns}
    questions = [q for q in suite.questions if q.id in by_id]
    scores = [score(q, by_id[q.id]["status"], by_id[q.id]["answer"]) for q in questions]
    out: dict[str, Any] = {"summary": summarise(scores), "scores": [s.as_dict() for s in scores],
                           "clarifications": sum(t.get("asked", 0) for t in turns),
                           "statuses": dict(Counter(t["status"] for t in turns))}
    lenient = [lenient_states_figure(by_id[q.id]["answer"], g, q.question) and by_id[q.id]["status"] == "answered"
               for q in questions if q.group == "statement figures" and (g := gold_figure(q.answer)) is not None]
    out["lenient_statement_figures"] = [sum(lenient), len(lenient)]
    for label, questions_extra in suite.extra.items():
        got = {t["id"]: t for t in extra.get(label, [])}
        extra_scores = [score(q, got[q.id]["status"], got[q.id]["answer"]) for q in questions_extra if q.id in got]
        out.setdefault("extra", {})[label] = [sum(s.right for s in extra_scores), len(extra_scores),
                                              sum(s.boilerplate for s in extra_scores)]
    if ranks is not None:
        out["stage_loss"] = stage_loss(questions, [by_id[q.id] for q in questions], ranks, scores)
    return out


# --- one corpus in one mode --------------------------------------------------------------------------------------
def ingest_suite(suite: Suite, mode: str, home: Path) -> tuple[Any, dict[str, Any]]:
    """The suite's corpus ingested into `home` (what is there already and unchanged is kept): its knowledge base,
    and what the ingest did."""
    from app.knowledge.base import KnowledgeBase
    from app.settings import Settings, get_settings

    home.mkdir(parents=True, exist_ok=True)
    target = suite.records(home, mode) if suite.records else suite.folder
    os.environ["PROV_HOME"] = str(home)
    get_settings.cache_clear()
    kb = KnowledgeBase(Settings())
    started = time.perf_counter()
    last = [0.0]

    def progress(stage: str, done: int, total: int) -> None:
        if stage == "index" and time.perf_counter() - last[0] > 30:
            last[0] = time.perf_counter()
            print(f"  [{suite.name} {mode}] indexed {done}/{total} sources", file=sys.stderr, flush=True)

    summary = kb.ingest([target], on_progress=progress)
    return kb, {"sources": len(summary.added) + len(summary.updated) + len(summary.unchanged),
                "chunks": kb.catalog.count_chunks(), "failed": len(summary.failed),
                "seconds": round(time.perf_counter() - started, 1)}


def run_suite(suite: Suite, mode: str, home: Path, answers: bool) -> dict[str, Any]:
    from app.settings import Settings

    kb, ingested = ingest_suite(suite, mode, home)
    out: dict[str, Any] = {"ingest": ingested}
    searchable = [q for q in suite.questions if gold_pages(q)]
    ranks = prov_search(kb, suite.questions)
    out["prov"] = retrieval_score([r for r, q in zip(ranks, suite.questions) if gold_pages(q)])
    out["searched"] = len(searchable)
    out["ranks"] = {q.id: r for r, q in zip(ranks, suite.questions) if gold_pages(q)}  # first gold page's rank
    if answers:
        from app.runtime import Runtime

        runtime = Runtime(Settings())
        t0 = time.perf_counter()
        turns = run_turns(runtime, suite.questions, suite.reply)
        extra = {label: run_turns(runtime, qs, suite.reply) for label, qs in suite.extra.items()}
        n = len(turns) + sum(len(v) for v in extra.values())
        out["seconds_per_turn"] = round((time.perf_counter() - t0) / max(n, 1), 2)
        out.update(score_run(suite, turns, extra, ranks))
        out["turns"], out["extra_turns"] = turns, extra
        runtime.close()
    return out


# --- printing ------------------------------------------------------------------------------------------------
def print_retrieval(suite: Suite, naive: dict | None, results: dict[str, dict]) -> None:
    n = next(iter(results.values()))["searched"]
    print(f"\n== {suite.name}: retrieval over every page ({n} questions with gold pages)")
    print(f"{'retriever':<36}{'page hit@5':>11}{'MRR@10':>9}{'vs naive':>10}")
    if naive:
        print(f"{'naive dense (1,000 chars, MiniLM)':<36}{naive['hit@5']:>11.3f}{naive['mrr@10']:>9.3f}{'1.00x':>10}")
    for mode, r in results.items():
        ratio = f"{r['prov']['hit@5'] / naive['hit@5']:.2f}x" if naive and naive["hit@5"] else "–"
        print(f"{'Prov search, ' + mode + ' ingest':<36}{r['prov']['hit@5']:>11.3f}{r['prov']['mrr@10']:>9.3f}"
              f"{ratio:>10}")


def print_answers(suite: Suite, mode: str, r: dict[str, Any]) -> None:
    ing = r.get("ingest", {})
    print(f"\n[{suite.name}, {mode} ingest] {ing.get('sources', '?')} sources, {ing.get('chunks', '?')} chunks, "
          f"{ing.get('seconds', '?')} s")
    s = r["summary"]
    groups = s["groups"]
    print("  strict scoring: the first sentence states the gold (sign, scale, rounding); key facts for the rest")
    for group in [*GROUPS, "unstated", "vague"]:
        if group in groups:
            ok, n = groups[group]
            lenient = (f"   (old lenient scorer: {r['lenient_statement_figures'][0]}/{r['lenient_statement_figures'][1]})"
                       if group == "statement figures" and r.get("lenient_statement_figures", [0, 0])[1] else "")
            print(f"    {group:<20} {ok:>3}/{n:<3} = {ok / max(n, 1):6.1%}{lenient}")
    for label, (ok, n, boiler) in (r.get("extra") or {}).items():
        print(f"    insufficient on {label}: {ok}/{n} = {ok / max(n, 1):.1%}; answered with boilerplate: {boiler}")
    print("  by kind: " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(s["kinds"].items())))
    print(f"  another period's or segment's figure stated: {s['wrong_period_or_segment']}; boilerplate on "
          f"unstated: {s['boilerplate_on_unstated']}; answers with a duplicated sentence: "
          f"{s['answers_with_duplicates']}; with a fragment: {s['answers_with_fragments']} (of {s['answered']} "
          f"answered)")
    print(f"  clarification questions asked: {r.get('clarifications', 0)}; statuses: "
          + ", ".join(f"{k} {v}" for k, v in sorted(r.get("statuses", {}).items())))
    if r.get("stage_loss"):
        print(f"  stage loss (answerable questions with gold pages){'':<10}n   top-5  in prompt  cited  right")
        total = [0, 0, 0, 0, 0]
        for kind, row in sorted(r["stage_loss"].items()):
            total = [a + b for a, b in zip(total, row)]
            print(f"    {kind:<52}{row[0]:>3}{row[1]:>7}{row[2]:>11}{row[3]:>7}{row[4]:>7}")
        print(f"    {'all':<52}{total[0]:>3}{total[1]:>7}{total[2]:>11}{total[3]:>7}{total[4]:>7}")
    if "seconds_per_turn" in r:
        print(f"  {r['seconds_per_turn']} s per turn (offline)")


def rescore(path: Path, suites: dict[str, Suite]) -> None:
    """Score the turns a previous run saved, with today's scorer (no stage loss: old runs did not save pages)."""
    saved = json.loads(path.read_text())
    runs = saved.get("runs") or {f"financebench/{m}": r for m, r in (saved.get("modes") or {}).items()}
    for key, r in runs.items():
        name, _, mode = key.partition("/")
        suite = suites.get(name)
        if suite is None or "turns" not in r:
            continue
        extra = r.get("extra_turns") or {}
        if not extra and "absent" in r:
            print(f"  (the saved run kept only counts for the extra sets: absent {r['absent']}, "
                  f"unstated {r.get('unstated')})")
        scored = score_run(suite, r["turns"], extra)
        print_answers(suite, f"{mode}, rescored from {path.name}", {**scored, "ingest": r.get("ingest", {})})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", default="financebench,analyst")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--modes", default="plain,given", help="FinanceBench ingest modes")
    parser.add_argument("--no-answers", action="store_true", help="retrieval only")
    parser.add_argument("--limit", type=int, default=0, help="first N questions only (a quick look)")
    parser.add_argument("--only", default="", help="comma-separated question ids (a quick look)")
    parser.add_argument("--skip-naive", action="store_true", help="a quick look: no naive baseline (no ratio)")
    parser.add_argument("--keep", type=Path, help="build the knowledge bases under this folder and keep them")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "prov-bench" / "embeddings.sqlite")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "financebench.json")
    parser.add_argument("--rescore", type=Path, help="score a previous run's saved turns and exit")
    args = parser.parse_args()
    wanted = [c.strip() for c in args.corpora.split(",") if c.strip()]
    suites: dict[str, Suite] = {}
    if "financebench" in wanted:
        fb = financebench_suite(args.data, args.modes.split(","))
        if fb is None:
            print(f"no FinanceBench corpus under {args.data}: that part is skipped")
        else:
            suites["financebench"] = fb
    if "analyst" in wanted:
        an = analyst_suite()
        if an is None:
            print(f"no analyst corpus under {ANALYST}: that part is skipped")
        else:
            suites["analyst"] = an
    if args.rescore:
        rescore(args.rescore, suites)
        return
    for suite in suites.values():
        if args.only:
            ids = set(args.only.split(","))
            suite.questions = [q for q in suite.questions if q.id in ids]
            suite.extra = {k: [q for q in v if q.id in ids] for k, v in suite.extra.items()}
        if args.limit:
            suite.questions = suite.questions[:args.limit]
    os.environ.update(HF_HUB_OFFLINE="1", PROV_ANSWER_CACHE="false")
    work = args.keep or Path(tempfile.mkdtemp(prefix="prov-bench-answers-"))
    os.environ["PROV_HOME"] = str(work / "boot")
    cached = install_cache(args.cache)
    runs: dict[str, dict] = {}
    for suite in suites.values():
        results = {mode: run_suite(suite, mode, work / f"{suite.name}-{mode}", not args.no_answers)
                   for mode in suite.modes}
        naive = (retrieval_score([r for r, q in zip(naive_dense(suite.naive_pages, suite.questions, cached),
                                                     suite.questions) if gold_pages(q)])
                 if not args.skip_naive else None)
        print_retrieval(suite, naive, results)
        for mode, r in results.items():
            if "summary" in r:
                print_answers(suite, mode, r)
            runs[f"{suite.name}/{mode}"] = {**r, "naive": naive}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"runs": runs}, indent=1, default=str))
    print(f"\ndetails: {args.out}")


if __name__ == "__main__":
    main()
