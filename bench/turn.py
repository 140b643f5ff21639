"""Where does a turn's time go? Offline, on the bundled sample corpus.

Measures, in one run on this machine:
- cold `prov run QUESTION` in a new process (imports, model loading, the turn), median of N runs, each with the
  answer cache off so every run does the whole turn; and `prov --help` for the bare start-up cost;
- a warm turn inside one process (what `prov chat` does after its first turn), median of N turns;
- the warm turn split by node (supervisor nodes, and the nodes inside the retrieval and calculator subgraphs),
  from LangGraph's debug stream (task start and result timestamps).

Goal (issue 3): a cold offline `prov run` under 3 s. Usage: python bench/turn.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

QUESTIONS = [
    "What was Northwind Logistics' revenue in FY2024 and how much did it grow?",
    "What was the difference in FY2024 operating margin between Northwind and Helio?",
    "Who replaced Dana Whitcombe as Helio's CEO, and when?",
]
GOAL_COLD_S = 3.0


def prov(env: dict[str, str], *args: str) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=REPO, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 3):
        raise SystemExit(f"prov {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return elapsed


def per_node(graph, question: str, thread: str) -> tuple[float, dict[str, float]]:  # type: ignore[no-untyped-def]
    """Wall time of one turn and seconds per node (subgraph nodes named 'subgraph/node')."""
    started: dict[str, tuple[str, datetime]] = {}
    spent: dict[str, float] = defaultdict(float)
    t0 = time.perf_counter()
    for namespace, event in graph.stream({"question": question}, {"configurable": {"thread_id": thread}},
                                         stream_mode="debug", subgraphs=True):
        payload = event.get("payload") or {}
        stamp = datetime.fromisoformat(event["timestamp"])
        prefix = "/".join(part.split(":")[0] for part in namespace)
        name = f"{prefix}/{payload.get('name')}" if prefix else str(payload.get("name"))
        if event["type"] == "task":
            started[payload["id"]] = (name, stamp)
        elif event["type"] == "task_result" and payload.get("id") in started:
            name, begun = started.pop(payload["id"])
            spent[name] += (stamp - begun).total_seconds()
    return time.perf_counter() - t0, dict(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="prov-bench-turn-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PROV_", "OPENAI_"))}
    env.update(PROV_HOME=str(home), PROV_ANSWER_CACHE="false", HF_HUB_OFFLINE="1", PROV_PROVIDER="offline")
    print(f"set-up: ingesting examples/corpus into {home} (not timed)")
    prov(env, "ingest", str(REPO / "examples" / "corpus"))
    prov(env, "run", QUESTIONS[0])  # fits and saves the routing classifier once, as a first run would

    help_s = statistics.median(prov(env, "--help") for _ in range(args.runs))
    cold = {q: statistics.median(prov(env, "run", q) for _ in range(args.runs)) for q in QUESTIONS}

    os.environ.update(env)
    from app.runtime import Runtime
    from app.settings import Settings

    runtime = Runtime(Settings())
    graph = runtime.graph
    per_node(graph, QUESTIONS[0], "warm-up")  # the first turn of a chat pays the loading
    warm: dict[str, float] = {}
    nodes: dict[str, list[float]] = defaultdict(list)
    for i, question in enumerate(QUESTIONS):
        times = []
        for r in range(args.runs):
            wall, spent = per_node(graph, question, f"bench-{i}-{r}")
            times.append(wall)
            for name, seconds in spent.items():
                nodes[name].append(seconds)
        warm[question] = statistics.median(times)

    print(f"\nprov --help (new process): {help_s:.2f} s")
    print(f"\n{'question':<84} {'cold prov run':>13} {'warm turn':>10} {'cold/warm':>10}")
    for q in QUESTIONS:
        print(f"{q[:83]:<84} {cold[q]:>11.2f} s {warm[q]:>8.2f} s {cold[q] / warm[q]:>9.1f}x")
    worst = max(cold.values())
    print(f"\ncold prov run, slowest question: {worst:.2f} s = {worst / GOAL_COLD_S:.2f} x the {GOAL_COLD_S:.0f} s goal "
          f"({'met' if worst < GOAL_COLD_S else 'NOT met'}); start-up alone (--help) is {help_s / worst:.0%} of it")
    total = sum(sum(v) for k, v in nodes.items() if "/" not in k)
    print(f"\nwarm turn by node (mean over {args.runs} runs x {len(QUESTIONS)} questions; share of supervisor time):")
    for name, values in sorted(nodes.items(), key=lambda kv: -sum(kv[1])):
        mean_ms = 1000 * sum(values) / (args.runs * len(QUESTIONS))
        share = f"{sum(values) / total:6.1%}" if "/" not in name else "   (in)"
        print(f"  {name:<36} {mean_ms:>8.1f} ms {share}")


if __name__ == "__main__":
    main()
