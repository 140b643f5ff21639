"""Retrieval benchmark: quality on FinanceBench, latency at scale, ingest throughput and CLI cold start.

    python bench/retrieval.py [--data ../shared/data] [--scale 10000,100000] [--chunk-sweep] [--out FILE]

Everything is measured side by side in one run and printed as a table; the same figures go to
bench/results/retrieval.json. With no FinanceBench data present, the quality part says so and is skipped.
Quality is page hit@5 and MRR@10 of the first gold page in the search's top 10, computed by the shared scorer
(app/evaluation/scoring.py `first_gold_rank`, `rank_metrics`), as `prov eval` scores its retrieval stage.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.evaluation.scoring import first_gold_rank, rank_metrics  # noqa: E402
from app.knowledge.base import KnowledgeBase  # noqa: E402
from app.knowledge.chunking import index_text  # noqa: E402
from app.settings import Settings  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def settings_for(home: Path, models: Path, **kw) -> Settings:  # type: ignore[no-untyped-def]
    return Settings(home=home, models_dir_override=models, **kw)


# --- FinanceBench quality ---------------------------------------------------------------------------
def load_financebench(data: Path) -> tuple[list[dict], list[dict]] | None:
    folder = data / "financebench"
    if not (folder / "dev_questions.jsonl").exists():
        return None
    questions = [json.loads(x) for x in (folder / "dev_questions.jsonl").read_text().splitlines() if x.strip()]
    pages = [json.loads(x) for x in (folder / "dev_evidence_pages.jsonl").read_text().splitlines() if x.strip()]
    return questions, pages


def write_pages_jsonl(pages: list[dict], questions: list[dict], target: Path) -> None:
    company = {q["doc_name"]: q["company"] for q in questions}
    for q in questions:
        for ev in q["evidence"]:
            company.setdefault(ev["doc_name"], q["company"])
    with target.open("w") as fh:
        for p in pages:
            year = re.search(r"_(\d{4})", p["doc_name"])
            fh.write(json.dumps({
                "source_id": f"{p['doc_name']}#p{p['page_num'] + 1}", "title": p["doc_name"],
                "company": company.get(p["doc_name"]), "fiscal_year": int(year.group(1)) if year else None,
                "doc_type": "report", "page": p["page_num"] + 1, "text": p["text"],
            }) + "\n")


def quality(kb: KnowledgeBase, questions: list[dict], mode: str, k: int = 5) -> dict:
    """hit@k and MRR@10 of the first gold page in the search's top 10 (app/evaluation/scoring.rank_metrics, as
    `prov eval` scores retrieval), and the search's latency."""
    ranks, latencies = [], []
    for q in questions:
        gold = {(e["doc_name"], e["evidence_page_num"] + 1) for e in q["evidence"]}
        t = time.perf_counter()
        res = kb.search(q["question"], k=10, mode=mode).hits  # type: ignore[arg-type]
        latencies.append((time.perf_counter() - t) * 1000)
        ranks.append(first_gold_rank((h.title, h.page) in gold for h in sorted(res, key=lambda h: h.rank)))
    figures = rank_metrics(ranks, k=k, depth=10)
    return {"hit@5": figures[f"hit@{k}"], "mrr@10": figures["mrr@10"], "p50_ms": pct(latencies, 0.5),
            "p95_ms": pct(latencies, 0.95)}


def run_quality(data: Path, models: Path, chunk_sweep: bool) -> dict:
    loaded = load_financebench(data)
    if loaded is None:
        print(f"FinanceBench not found under {data}: quality part skipped")
        return {}
    questions, pages = loaded
    out: dict = {"questions": len(questions), "pages": len(pages)}
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = Path(tmp) / "financebench-pages.jsonl"
        write_pages_jsonl(pages, questions, jsonl)
        configs = [(256, 48), (384, 64), (512, 96)] if chunk_sweep else [(256, 48)]
        for size, overlap in configs:
            home = Path(tmp) / f"home-{size}"
            kb = KnowledgeBase(settings_for(home, models, chunk_tokens=size, chunk_overlap=overlap))
            t = time.perf_counter()
            summary = kb.ingest([jsonl])
            ingest_s = time.perf_counter() - t
            n_chunks = kb.catalog.count_chunks()
            row = {"chunks": n_chunks, "ingest_s": ingest_s, "ingest_chunks_per_s": n_chunks / ingest_s}
            if size == 256:
                # the bare encoder on exactly the texts the ingest embedded
                rows = kb.catalog.get_chunks(kb.catalog.chunk_ids()).values()
                from app.knowledge.records import Chunk

                texts = [index_text(Chunk(**{k: v for k, v in r.items()})) for r in rows]
                t = time.perf_counter()
                kb.embedder.embed(texts)
                bare_s = time.perf_counter() - t
                row["bare_encoder_chunks_per_s"] = len(texts) / bare_s
                row["ingest_vs_encoder"] = row["ingest_chunks_per_s"] / row["bare_encoder_chunks_per_s"]
                for mode in ("dense", "sparse", "hybrid"):
                    row[mode] = quality(kb, questions, mode)
                kb_rank = KnowledgeBase(settings_for(home, models, sparse_backend="rank-bm25"))
                row["sparse(rank-bm25)"] = quality(kb_rank, questions, "sparse")
                no_entity = KnowledgeBase(settings_for(home, models, entity_weight=0.0))
                row["hybrid(no company/year scopes)"] = quality(no_entity, questions, "hybrid")
                equal = KnowledgeBase(settings_for(home, models, sparse_weight=1.0, entity_weight=0.0))
                row["hybrid(equal-weight RRF)"] = quality(equal, questions, "hybrid")
            else:
                row["dense"] = quality(kb, questions, "dense")
                row["hybrid"] = quality(kb, questions, "hybrid")
            assert not summary.failed, summary.failed
            out[f"chunks{size}"] = row
    return out


# --- synthetic scale ----------------------------------------------------------------------------------
WORDS = ("revenue operating profit margin guidance dividend segment freight warehousing parcel solar storage "
         "battery snacks dairy foodservice capex cash flow debt leverage headcount outlook risk customer contract "
         "pipeline pricing inflation wage energy fuel volume growth decline acquisition disposal impairment tax "
         "interest currency sterling euro dollar board chair chief executive strategy digital automation network "
         "depot fleet plant factory recall supplier margin earnings share buyback payout ratio quarter half year").split()


def synthetic_text(rng: random.Random, n_words: int = 150) -> str:
    words = [rng.choice(WORDS) if rng.random() > 0.08 else f"£{rng.randint(1, 999)}.{rng.randint(0, 9)}m"
             for _ in range(n_words)]
    return " ".join(words)


def build_synthetic(kb: KnowledgeBase, n: int, seed: int = 7) -> None:
    import numpy as np

    from app.knowledge.analyzer import analyze
    from app.knowledge.chunking import chunk_record  # noqa: F401 - the real path is measured in ingest
    from app.knowledge.records import Chunk, SourceRecord

    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    companies = [f"Company {i:03d}" for i in range(50)]
    per_source = 100
    for s in range(n // per_source):
        company = companies[s % len(companies)]
        texts = [synthetic_text(rng) for _ in range(per_source)]
        record = SourceRecord(source_id=f"syn/{s}", origin=f"/synthetic/{s}", text="\n".join(texts),
                              title=f"Synthetic {s}", company=company, fiscal_year=2020 + s % 5)
        chunks = [Chunk(chunk_id=f"syn/{s}::{i}", source_id=record.source_id, ordinal=i, text=t, tokens=200,
                        title=record.title, company=company, fiscal_year=record.fiscal_year) for i, t in
                  enumerate(texts)]
        vecs = nprng.standard_normal((per_source, 384)).astype("float32")
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        kb.collection.upsert(ids=[c.chunk_id for c in chunks], embeddings=vecs.tolist(),
                             metadatas=[c.metadata() for c in chunks])
        kb.catalog.replace_source(record, chunks, [" ".join(analyze(index_text(c))) for c in chunks])


def run_scale(sizes: list[int], models: Path, queries: list[str]) -> dict:
    out: dict = {}
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp) / "home"
            kb = KnowledgeBase(settings_for(home, models))
            t = time.perf_counter()
            build_synthetic(kb, n)
            build_s = time.perf_counter() - t
            row: dict = {"load_s": build_s}
            for backend in ("bm25s", "rank-bm25"):
                skb = KnowledgeBase(settings_for(home, models, sparse_backend=backend))
                t = time.perf_counter()
                sparse = skb.sparse()
                row[f"{backend}_build_s"] = time.perf_counter() - t
                t = time.perf_counter()
                fresh = KnowledgeBase(settings_for(home, models, sparse_backend=backend))
                fresh.sparse()
                row[f"{backend}_load_s"] = time.perf_counter() - t
                from app.knowledge.analyzer import analyze

                lat = []
                for q in queries:
                    t = time.perf_counter()
                    sparse.index.scores(analyze(q))
                    lat.append((time.perf_counter() - t) * 1000)
                row[f"{backend}_score_p50_ms"] = pct(lat, 0.5)
                for mode in ("hybrid", "dense", "sparse"):
                    skb.search(queries[0], k=5, mode=mode)  # warm
                    lat = []
                    for q in queries:
                        t = time.perf_counter()
                        skb.search(q, k=5, mode=mode)  # type: ignore[arg-type]
                        lat.append((time.perf_counter() - t) * 1000)
                    row[f"{mode}[{backend}]_p50_ms"] = pct(lat, 0.5)
                    row[f"{mode}[{backend}]_p95_ms"] = pct(lat, 0.95)
            out[str(n)] = row
            print(f"  scale {n}: done", flush=True)
    return out


# --- CLI cold start -----------------------------------------------------------------------------------
def run_cold_start(models: Path) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PROV_HOME=str(Path(tmp) / "home"), PROV_MODELS_DIR=str(models))
        corpus = REPO / "examples" / "corpus"
        subprocess.run([sys.executable, "-m", "app.cli", "ingest", str(corpus), "--json"], env=env, cwd=REPO,
                       capture_output=True, check=False, timeout=900)

        def timed(args: list[str]) -> float:
            runs = []
            for _ in range(3):
                t = time.perf_counter()
                subprocess.run(args, env=env, cwd=REPO, capture_output=True, check=True, timeout=120)
                runs.append(time.perf_counter() - t)
            return statistics.median(runs)

        return {
            "python_startup_s": timed([sys.executable, "-c", "pass"]),
            "prov_help_s": timed([sys.executable, "-m", "app.cli", "--help"]),
            "prov_search_s": timed([sys.executable, "-m", "app.cli", "search", "Northwind dividend FY2024",
                                    "--json"]),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--scale", default="10000,100000", help="synthetic corpus sizes, comma-separated ('' skips)")
    parser.add_argument("--chunk-sweep", action="store_true", help="also measure 384- and 512-token chunks")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "retrieval.json")
    args = parser.parse_args()
    models = Path(tempfile.gettempdir()) / "prov-bench-models"
    results: dict = {}
    print("FinanceBench quality and ingest throughput ...", flush=True)
    results["financebench"] = run_quality(args.data, models, args.chunk_sweep)
    print("CLI cold start ...", flush=True)
    results["cold_start"] = run_cold_start(models)
    sizes = [int(x) for x in args.scale.split(",") if x.strip()]
    if sizes:
        print("synthetic scale ...", flush=True)
        fb = load_financebench(args.data)
        queries = [q["question"] for q in fb[0][:40]] if fb else [synthetic_text(random.Random(i), 12) for i in range(40)]
        results["scale"] = run_scale(sizes, models, queries)
    report(results)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(f"\nwritten to {args.out}")


def report(r: dict) -> None:
    fb = r.get("financebench") or {}
    base = fb.get("chunks256")
    if base:
        print(f"\n== FinanceBench dev: {fb['questions']} questions, {fb['pages']} evidence pages, "
              f"{base['chunks']} chunks (256 tokens, 48 overlap)")
        print(f"{'retriever':<34}{'hit@5':>8}{'MRR@10':>9}{'p50 ms':>9}{'p95 ms':>9}")
        for name in ("dense", "sparse", "sparse(rank-bm25)", "hybrid", "hybrid(no company/year scopes)",
                     "hybrid(equal-weight RRF)"):
            m = base[name]
            print(f"{name:<34}{m['hit@5']:>8.3f}{m['mrr@10']:>9.3f}{m['p50_ms']:>9.1f}{m['p95_ms']:>9.1f}")
        best_single = max(base["dense"]["hit@5"], base["sparse"]["hit@5"])
        gain = (base["hybrid"]["hit@5"] - best_single) * 100
        print(f"hybrid vs best single retriever: {gain:+.1f} points (goal: +5)")
        print(f"ingest {base['ingest_chunks_per_s']:.1f} chunks/s vs bare encoder "
              f"{base['bare_encoder_chunks_per_s']:.1f} chunks/s = {base['ingest_vs_encoder']:.0%} (goal: >= 80%)")
        for size in (384, 512):
            row = fb.get(f"chunks{size}")
            if row:
                print(f"chunks of {size}: {row['chunks']} chunks, dense hit@5 {row['dense']['hit@5']:.3f}, "
                      f"hybrid hit@5 {row['hybrid']['hit@5']:.3f}")
    cs = r.get("cold_start")
    if cs:
        print(f"\n== CLI cold start (median of 3): python {cs['python_startup_s']:.2f} s, prov --help "
              f"{cs['prov_help_s']:.2f} s, prov search {cs['prov_search_s']:.2f} s")
    for n, row in (r.get("scale") or {}).items():
        print(f"\n== synthetic scale: {int(n):,} chunks (load {row['load_s']:.0f} s)")
        for backend in ("bm25s", "rank-bm25"):
            print(f"  {backend:<10} build {row[backend + '_build_s']:.1f} s, load {row[backend + '_load_s']:.2f} s, "
                  f"score p50 {row[backend + '_score_p50_ms']:.1f} ms")
            for mode in ("dense", "sparse", "hybrid"):
                print(f"    {mode:<7} p50 {row[f'{mode}[{backend}]_p50_ms']:7.1f} ms   "
                      f"p95 {row[f'{mode}[{backend}]_p95_ms']:7.1f} ms")
        ratio = row["rank-bm25_score_p50_ms"] / max(row["bm25s_score_p50_ms"], 1e-6)
        print(f"  bm25s scores {ratio:.0f}x faster than rank-bm25 here (goal: hybrid p50 <= 100 ms at 100k)")


if __name__ == "__main__":
    main()
