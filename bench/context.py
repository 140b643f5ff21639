"""What memory and the context assembler save, measured in one run, offline, side by side.

1. Prompt tokens per turn of a scripted 20-turn thread (a standing instruction at turn 1, figures, follow-ups,
   a correction, a question that refers back, a second company) against the naive send-everything baseline:
   a chat that keeps every turn's question, retrieved evidence and answer in its message list and sends it all
   again each turn. The baseline is counted from the same run's blocks with the same tokenizer, and only the
   evidence our budget admitted goes into it (a naive chat would keep more), so it cannot flatter us.
   Goals: cumulative prompt tokens <= 0.25x naive; turn 20 <= 1.5x turn 2 (the first question).
2. A cache hit's time against the same question missed (asked with --no-cache in a new thread), in one process
   with warm models, twice: with the offline models (extractive composer, local classifier: no model time at
   all, so a miss is already cheap), and with the same models behind a fixed latency per model call (300 ms,
   standing in for a local LLM server), which is what a cache saves in use. Goal: <= 5%.
3. The update cases of GoodAI's LTM benchmark (Colours, Shopping, NameList: the latest statement must win, lists
   are updated, every name given is recalled) replayed through the write policy and the memory store
   (bench/goodai_memory.py), as a count, beside the naive "last statement wins" baseline.

The corpora are the invented Ternline 10-K (examples/metrics) and the sample corpus (examples/corpus), ingested
into a throwaway home. Usage: python bench/context.py [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SCRIPT = [
    "From now on, answer in millions.",
    "What was Ternline's total revenue in FY2024?",
    "And in FY2023?",
    "What was Ternline's net income in FY2024?",
    "What were Ternline's total current liabilities at the end of FY2024?",
    "What was Ternline's cash from operations in FY2024?",
    "What was Ternline's capital expenditure in FY2024?",
    "What was Ternline's free cash flow in FY2024?",
    "What was Ternline's revenue growth from FY2023 to FY2024?",
    "Where is Ternline headquartered?",
    "Actually, Ternline's FY2024 net income was $150m.",
    "What was Ternline's net income in FY2024?",
    "What was Northwind Logistics' revenue in FY2024?",
    "And their operating margin in that year?",
    "What was the difference in FY2024 operating margin between Northwind and Helio?",
    "Who is Helio's CEO?",
    "What did you say about Ternline's free cash flow earlier?",
    "What were Ternline's total assets at the end of FY2024?",
    "What was Ternline's operating income in FY2024?",
    "What was Ternline's total revenue in FY2024?",
]
CACHE_QUESTION = "What were Ternline's total assets at the end of FY2024?"
GOALS = {"cumulative": 0.25, "turn20_over_turn2": 1.5, "hit_over_miss": 0.05}


def build_home(home: Path) -> None:
    from app.knowledge.base import KnowledgeBase
    from app.knowledge.loaders import Overrides
    from app.settings import Settings

    kb = KnowledgeBase(Settings(home=home))
    kb.ingest([REPO / "examples" / "metrics" / "corpus", REPO / "examples" / "corpus"], Overrides())


def prompt_tokens(turn: dict) -> int:
    return sum(m["tokens"] for m in turn["manifest"] if m["included"])


def evidence_tokens(turn: dict) -> int:
    """Tokens of the numbered blocks the turn's prompt held (evidence, news, the user's facts, calculations)."""
    return sum(m["tokens"] for m in turn["manifest"] if m["included"] and m["block"].startswith("["))


def thread_tokens(runtime, count) -> list[dict]:  # type: ignore[no-untyped-def]
    """Run the script on one thread; per turn: our prompt tokens and the naive baseline's."""
    from prompts.answer import answer_instructions

    instructions = count(answer_instructions())
    thread = None
    rows = []
    kept = 0  # the naive chat's message list: every question, every turn's evidence, every answer
    for n, question in enumerate(SCRIPT, start=1):
        result = runtime.run(question, thread, user="bench", use_cache=False)
        thread = result.thread_id
        turn = runtime.turns(thread)[-1]
        ours = prompt_tokens(turn)
        kept += count(question) + evidence_tokens(turn)
        naive = instructions + kept
        kept += count(result.answer)
        rows.append({"turn": n, "status": result.status, "ours": ours, "naive": naive,
                     "memory": [m["key"] for m in turn["memory"]["admitted"]],
                     "answer": result.answer[:160]})
    return rows


MODEL_LATENCY_S = 0.3


class Slow:
    """A model role behind a fixed latency per call (routing, each grading, synthesis, each calculator step)."""

    def __init__(self, inner, latency: float) -> None:  # type: ignore[no-untyped-def]
        self._inner, self._latency = inner, latency

    def __call__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        time.sleep(self._latency)
        return self._inner(*args, **kwargs)

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        attr = getattr(self._inner, name)
        if name in ("grade", "draft", "invoke"):
            return Slow(attr, self._latency)
        if name == "bind_tools":
            return lambda *a, **k: Slow(attr(*a, **k), self._latency)
        return attr


def slow_models(settings, latency: float):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from app.models import get_models

    models = get_models(settings)
    return replace(models, router=Slow(models.router, latency), grader=Slow(models.grader, latency),
                   synthesizer=Slow(models.synthesizer, latency), calculator=Slow(models.calculator, latency))


def cache_timing(runtime, runs: int = 7) -> dict:  # type: ignore[no-untyped-def]
    """Median seconds of the same question missed (--no-cache, a new thread each time) and hit (a new thread)."""
    runtime.run(CACHE_QUESTION, None, user="cache-bench")  # answered once, cached for this user
    miss, hit = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        missed = runtime.run(CACHE_QUESTION, None, user="cache-bench", use_cache=False)
        miss.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        served = runtime.run(CACHE_QUESTION, None, user="cache-bench")
        hit.append(time.perf_counter() - t0)
        if missed.cached or not served.cached:
            raise SystemExit(f"cache bench: expected a miss then a hit, got {missed.cached} then {served.cached}")
    return {"miss_s": statistics.median(miss), "hit_s": statistics.median(hit), "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="Also write the figures as JSON.")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ["PROV_PROVIDER"] = "offline"

    from app.knowledge.tokens import count_tokens
    from app.runtime import Runtime
    from app.settings import Settings

    with tempfile.TemporaryDirectory(prefix="prov-context-") as tmp:
        home = Path(tmp) / "home"
        build_home(home)
        runtime = Runtime(Settings(home=home, provider="offline"))
        rows = thread_tokens(runtime, count_tokens)
        timing = cache_timing(runtime)
        runtime.close()
        settings = Settings(home=home, provider="offline")
        slow = Runtime(settings, models=slow_models(settings, MODEL_LATENCY_S))
        slow_timing = cache_timing(slow)
        slow.close()

    print("turn  status        ours   naive   memory admitted")
    for r in rows:
        print(f"{r['turn']:>4}  {r['status']:<12} {r['ours']:>5}  {r['naive']:>6}   {', '.join(r['memory']) or '-'}")
    ours_total, naive_total = sum(r["ours"] for r in rows), sum(r["naive"] for r in rows)
    first_question = next(r for r in rows if r["ours"] > 0)
    cumulative = ours_total / naive_total
    growth = rows[-1]["ours"] / first_question["ours"]
    speed = timing["hit_s"] / timing["miss_s"]
    slow_speed = slow_timing["hit_s"] / slow_timing["miss_s"]
    print(f"\ncumulative prompt tokens: ours {ours_total}, naive {naive_total}: {cumulative:.3f}x naive "
          f"(goal <= {GOALS['cumulative']}x) {'PASS' if cumulative <= GOALS['cumulative'] else 'FAIL'}")
    print(f"turn 20 against turn {first_question['turn']} (the first question): {rows[-1]['ours']} / "
          f"{first_question['ours']} = {growth:.2f}x (goal <= {GOALS['turn20_over_turn2']}x) "
          f"{'PASS' if growth <= GOALS['turn20_over_turn2'] else 'FAIL'}")
    print(f"cache, offline models (no model time): hit {timing['hit_s'] * 1000:.0f} ms, miss "
          f"{timing['miss_s'] * 1000:.0f} ms (median of {timing['runs']}): {speed:.3f}x (goal <= {GOALS['hit_over_miss']}x) "
          f"{'PASS' if speed <= GOALS['hit_over_miss'] else 'FAIL'}")
    print(f"cache, models at {MODEL_LATENCY_S * 1000:.0f} ms a call: hit {slow_timing['hit_s'] * 1000:.0f} ms, miss "
          f"{slow_timing['miss_s'] * 1000:.0f} ms (median of {slow_timing['runs']}): {slow_speed:.3f}x (goal <= {GOALS['hit_over_miss']}x) "
          f"{'PASS' if slow_speed <= GOALS['hit_over_miss'] else 'FAIL'}")

    from bench.goodai_memory import FILE, data_dir, run_update_cases
    from bench.goodai_memory import main as goodai_main

    print()
    goodai_main([])  # prints the counts, ours beside the baseline (or that the data is absent)
    goodai = run_update_cases(data_dir() / FILE)["scores"] if (data_dir() / FILE).is_file() else None
    report = {"turns": rows, "cumulative_ratio": cumulative, "turn20_over_first": growth, "cache": timing,
              "hit_over_miss": speed, "cache_model_latency": slow_timing, "hit_over_miss_model_latency": slow_speed,
              "goodai": goodai}
    if args.out:
        args.out.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
