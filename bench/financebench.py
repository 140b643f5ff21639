"""Prov on whole real filings: FinanceBench's 30 dev filings (3,169 pages, 14 companies), offline.

    python bench/financebench.py [--data ../shared/data] [--modes plain,given] [--no-answers] [--limit N]

Reads ../shared/data/financebench (not part of the repo; without it this prints so and exits 0). Every page of
every filing is ingested as a user who converts pages to records would, one JSONL line a page:
  plain: {"source_id": "BESTBUY_2019_10K:p12", "title": "BESTBUY_2019_10K", "page": 12, "company": "BESTBUY",
          "doc_type": "report", "text": ...}      (no fiscal year: Prov must read it; the checks from outside do so)
  given: the same, with the question set's company name and the fiscal year of the filing.
Page numbers are 1-based here (FinanceBench's are 0-based: its page 11 is our p12).

Printed side by side, in one run, for each mode:
- retrieval over all 3,169 pages (every other page and filing a distractor): page hit@5 and MRR@10 over distinct
  pages, for a naive dense baseline (1,000-character chunks with 200 overlap, MiniLM, cosine, no fusion, no
  metadata) and for Prov's search (`KnowledgeBase.search`, the hybrid the graph uses);
- answers (whole offline turns through the supervisor graph, one thread per question): of the questions whose
  gold answer is a figure, the share whose answer states it strictly (same sign, same scale, rounded as the gold
  answer is rounded), by question type; clarification questions asked; statuses;
- the declared insufficient answer on the 24 dev questions about companies with no filing in the corpus, and on
  bench/data/financebench_unstated.jsonl (our own questions about metrics these filings do not state).

Embeddings are cached by text under --cache (default ~/.cache/prov-bench), so the second mode and later runs
embed nothing new; the first run embeds about 30,000 texts (roughly 25 minutes on two cores).
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
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Iterable, Sequence

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

UNSTATED = REPO / "bench" / "data" / "financebench_unstated.jsonl"
_DOC_COMPANY = re.compile(r"^(.*?)_(?:19|20)\d{2}")
_DOC_YEAR = re.compile(r"_((?:19|20)\d{2})")


# --- data -------------------------------------------------------------------------------------------------
def load(data: Path) -> dict[str, Any] | None:
    folder = data / "financebench"
    if not (folder / "dev_corpus_pages.jsonl.gz").exists():
        return None
    pages = [json.loads(x) for x in gzip.open(folder / "dev_corpus_pages.jsonl.gz", "rt")]
    corpus_q = [json.loads(x) for x in (folder / "dev_corpus_questions.jsonl").open()]
    dev_q = [json.loads(x) for x in (folder / "dev_questions.jsonl").open()]
    held = {_doc_company(p["doc_name"]) for p in pages}
    held_names = {q["company"] for q in corpus_q}
    absent = [q for q in dev_q if q["company"] not in held_names and _doc_company(q["doc_name"]) not in held]
    unstated = [json.loads(x) for x in UNSTATED.open()] if UNSTATED.exists() else []
    return {"pages": pages, "questions": corpus_q, "absent": absent, "unstated": unstated}


def _doc_company(doc_name: str) -> str:
    m = _DOC_COMPANY.match(doc_name)
    return m.group(1) if m else doc_name.split("_")[0]


def page_records(pages: Sequence[dict], questions: Sequence[dict], mode: str) -> Iterable[dict]:
    names = {q["doc_name"]: q["company"] for q in questions}
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
            yield record


def gold_pages(q: dict) -> set[tuple[str, int]]:
    return {(e["doc_name"], e["evidence_page_num"] + 1) for e in q["evidence"]}


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

        keys = [hashlib.sha1(f"{self.name}\n{t}".encode()).hexdigest() for t in texts]
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
def page_ranks(ranked_pages: Sequence[tuple[str, int]], gold: set[tuple[str, int]]) -> int | None:
    for rank, page in enumerate(ranked_pages, start=1):
        if page in gold:
            return rank
    return None


def score(ranks: Sequence[int | None]) -> dict[str, float]:
    n = max(len(ranks), 1)
    return {"hit@5": sum(1 for r in ranks if r and r <= 5) / n,
            "mrr@10": sum(1.0 / r for r in ranks if r and r <= 10) / n}


def distinct_pages(items: Iterable[tuple[str, int]], limit: int = 10) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for page in items:
        if page not in out:
            out.append(page)
        if len(out) == limit:
            break
    return out


def naive_dense(pages: Sequence[dict], questions: Sequence[dict], embedder: CachedEmbedder) -> list[int | None]:
    """1,000-character chunks with 200 overlap, MiniLM, cosine over everything, no metadata."""
    import numpy as np

    texts, where = [], []
    for p in pages:
        t = p["text"]
        for start in range(0, max(len(t) - 200, 1), 800):
            if t[start:start + 1000].strip():
                texts.append(t[start:start + 1000])
                where.append((p["doc_name"], p["page_num"] + 1))
    matrix = np.asarray(embedder.embed(texts), dtype=np.float32)
    qvecs = np.asarray(embedder.embed([q["question"] for q in questions]), dtype=np.float32)
    ranks = []
    for q, qv in zip(questions, qvecs):
        order = np.argsort(-(matrix @ qv))[:200]
        ranks.append(page_ranks(distinct_pages(where[i] for i in order), gold_pages(q)))
    return ranks


def prov_search(kb: Any, questions: Sequence[dict]) -> tuple[list[int | None], list[dict]]:
    ranks, details = [], []
    for q in questions:
        res = kb.search(q["question"], k=10)
        pages = distinct_pages((h.title, h.page) for h in res.hits)
        ranks.append(page_ranks(pages, gold_pages(q)))
        details.append({"id": q["financebench_id"], "rank": ranks[-1], "top": pages[:5],
                        "gold": sorted(gold_pages(q)), "funnel": [s.as_dict() for s in res.funnel]})
    return ranks, details


# --- answers -----------------------------------------------------------------------------------------------
_GOLD_FIGURE = re.compile(r"^\s*(?P<neg>-|\()?\s*\$?\s*(?P<num>-?\d[\d,]*(?:\.\d+)?)\s*(?P<pct>%)?\)?\s*"
                          r"(?P<scale>million|billion|thousand)?\s*$", re.I)
_ANSWER_FIGURE = re.compile(r"(?P<neg>[-−(])?\s*[$£€]?\s*(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<pct>%|percent)?"
                            r"\s*(?P<scale>million|billion|thousand|bn|m\b)?", re.I)
_SCALE = {"thousand": 1e-3, "million": 1.0, "m": 1.0, "billion": 1e3, "bn": 1e3}


def gold_figure(answer: str) -> tuple[float, int, bool] | None:
    """(value, decimals, is_percent) when the gold answer is a bare figure, else None."""
    m = _GOLD_FIGURE.match(answer.replace("USD", ""))
    if not m:
        return None
    num = m.group("num").replace(",", "")
    value = float(num) * (-1 if m.group("neg") else 1)
    decimals = len(num.split(".")[1]) if "." in num else 0
    return value, decimals, bool(m.group("pct"))


_ASKED_SCALE = re.compile(r"(?i)\bin (?:usd |us\$ |\$ ?)?(thousands|millions|billions)\b|\bUSD (thousands|millions|billions)\b")


def states_figure(answer: str, gold: tuple[float, int, bool], question: str = "") -> bool:
    """Strict: some figure in the answer, with its sign, converted to the scale the question asks for (millions
    unless it says otherwise; a figure without a scale word is taken as written) and rounded to the gold's
    decimals, equals the gold; a percent matches only a percent."""
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


def run_turns(runtime: Any, questions: Sequence[dict], reply_for: Any) -> list[dict]:
    out = []
    for q in questions:
        result = runtime.run(q["question"])
        asked = 0
        while result.status == "clarification" and asked < 2:  # the reader knows which filing they mean
            asked += 1
            result = runtime.resume(result.thread_id, reply_for(q))
        out.append({"id": q.get("financebench_id", q.get("id")), "status": result.status, "asked": asked,
                    "answer": result.answer, "question": q["question"], "gold": q.get("answer")})
    return out


def answer_report(turns: list[dict], questions: Sequence[dict]) -> dict[str, Any]:
    by_type: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for turn, q in zip(turns, questions):
        gold = gold_figure(q["answer"])
        if gold is None:
            continue
        ok = states_figure(turn["answer"], gold, q["question"]) and turn["status"] == "answered"
        turn["figure_right"] = ok
        by_type[q["question_type"]][0] += ok
        by_type[q["question_type"]][1] += 1
    right = sum(v[0] for v in by_type.values())
    total = sum(v[1] for v in by_type.values())
    return {"numeric_right": right, "numeric_total": total, "by_type": dict(by_type),
            "clarifications": sum(t["asked"] for t in turns),
            "statuses": dict(Counter(t["status"] for t in turns))}


def insufficient_rate(turns: list[dict]) -> tuple[int, int]:
    return sum(1 for t in turns if t["status"] == "insufficient"), len(turns)


# --- one mode ----------------------------------------------------------------------------------------------
def run_mode(mode: str, data: dict, home: Path, answers: bool) -> dict[str, Any]:
    from app.knowledge.base import KnowledgeBase
    from app.settings import Settings, get_settings

    home.mkdir(parents=True, exist_ok=True)
    records = home / "filings.jsonl"
    with records.open("w") as fh:
        for r in page_records(data["pages"], data["questions"], mode):
            fh.write(json.dumps(r) + "\n")
    os.environ["PROV_HOME"] = str(home)
    get_settings.cache_clear()
    kb = KnowledgeBase(Settings())
    started = time.perf_counter()
    last = [0.0]

    def progress(stage: str, done: int, total: int) -> None:
        if stage == "index" and time.perf_counter() - last[0] > 30:
            last[0] = time.perf_counter()
            print(f"  [{mode}] indexed {done}/{total} sources", file=sys.stderr, flush=True)

    summary = kb.ingest([records], on_progress=progress)
    out: dict[str, Any] = {"ingest": {"sources": len(summary.added) + len(summary.updated) + len(summary.unchanged),
                                      "chunks": kb.catalog.count_chunks(), "failed": len(summary.failed),
                                      "seconds": round(time.perf_counter() - started, 1)}}
    ranks, details = prov_search(kb, data["questions"])
    out["prov"] = score(ranks)
    out["search_details"] = details
    if answers:
        from app.runtime import Runtime

        runtime = Runtime(Settings())
        reply = (lambda q: f"{q['company']}, {_DOC_YEAR.search(q['doc_name']).group(1)}"  # type: ignore[union-attr]
                 if _DOC_YEAR.search(q["doc_name"]) else q["company"])
        t0 = time.perf_counter()
        turns = run_turns(runtime, data["questions"], reply)
        out["answers"] = answer_report(turns, data["questions"])
        out["absent"] = insufficient_rate(run_turns(runtime, data["absent"], reply))
        out["unstated"] = insufficient_rate(run_turns(runtime, data["unstated"], lambda q: f"{q['company']}, {q['fiscal_year']}"))
        out["seconds_per_turn"] = round((time.perf_counter() - t0)
                                        / max(len(turns) + len(data["absent"]) + len(data["unstated"]), 1), 2)
        out["turns"] = turns
    return out


def print_report(naive: dict, results: dict[str, dict], n_questions: int) -> None:
    print(f"\nFinanceBench dev, whole filings: {n_questions} questions over all pages of 30 filings")
    print(f"{'retriever':<34}{'page hit@5':>11}{'MRR@10':>9}{'vs naive':>10}")
    print(f"{'naive dense (1,000 chars, MiniLM)':<34}{naive['hit@5']:>11.3f}{naive['mrr@10']:>9.3f}{'1.00x':>10}")
    for mode, r in results.items():
        ratio = r["prov"]["hit@5"] / naive["hit@5"] if naive["hit@5"] else float("inf")
        print(f"{'Prov search, ' + mode + ' ingest':<34}{r['prov']['hit@5']:>11.3f}{r['prov']['mrr@10']:>9.3f}"
              f"{ratio:>9.2f}x")
    for mode, r in results.items():
        print(f"\n[{mode} ingest] {r['ingest']['sources']} pages, {r['ingest']['chunks']} chunks, "
              f"{r['ingest']['seconds']} s")
        if "answers" not in r:
            continue
        a = r["answers"]
        print(f"  figures stated (strict): {a['numeric_right']}/{a['numeric_total']} = "
              f"{a['numeric_right'] / max(a['numeric_total'], 1):.1%}")
        for qtype, (ok, n) in sorted(a["by_type"].items()):
            print(f"    {qtype:<20} {ok}/{n}")
        print(f"  clarification questions asked: {a['clarifications']}; statuses: "
              + ", ".join(f"{k} {v}" for k, v in sorted(a["statuses"].items())))
        for label in ("absent", "unstated"):
            ok, n = r[label]
            what = "absent-company questions" if label == "absent" else "unstated-metric questions (ours)"
            print(f"  insufficient on {what}: {ok}/{n} = {ok / max(n, 1):.1%}")
        print(f"  {r['seconds_per_turn']} s per turn (offline)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--modes", default="plain,given")
    parser.add_argument("--no-answers", action="store_true", help="retrieval only")
    parser.add_argument("--limit", type=int, default=0, help="first N questions only (a quick look)")
    parser.add_argument("--skip-naive", action="store_true", help="a quick look: no naive baseline (no ratio)")
    parser.add_argument("--keep", type=Path, help="build the knowledge bases under this folder and keep them")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "prov-bench" / "embeddings.sqlite")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "financebench.json")
    args = parser.parse_args()
    data = load(args.data)
    if data is None:
        print(f"no FinanceBench corpus under {args.data}: nothing to measure")
        return
    if args.limit:
        data["questions"] = data["questions"][:args.limit]
    os.environ.update(HF_HUB_OFFLINE="1", PROV_ANSWER_CACHE="false")
    work = args.keep or Path(tempfile.mkdtemp(prefix="prov-bench-financebench-"))
    os.environ["PROV_HOME"] = str(work / "boot")
    cached = install_cache(args.cache)
    results = {mode: run_mode(mode, data, work / mode, not args.no_answers) for mode in args.modes.split(",")}
    naive = (score(naive_dense(data["pages"], data["questions"], cached)) if not args.skip_naive
             else {"hit@5": 0.0, "mrr@10": 0.0})
    print_report(naive, results, len(data["questions"]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"naive": naive, "modes": results}, indent=1, default=str))
    print(f"\ndetails: {args.out}")


if __name__ == "__main__":
    main()
