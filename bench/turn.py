"""Where does a turn's time go? Offline, on the bundled sample corpus.

Measures, in one run on this machine:
- cold `prov run QUESTION` in a new process (imports, model loading, the turn), median of N runs, each with the
  answer cache off so every run does the whole turn; and `prov --help` for the bare start-up cost;
- a warm turn inside one process (what `prov chat` does after its first turn), median of N turns;
- the warm turn split by node (supervisor nodes, and the nodes inside the retrieval and calculator subgraphs),
  from LangGraph's debug stream (task start and result timestamps);
- a cache hit in a new process: `prov run QUESTION` asked before by the same user (a new thread, served from the
  answer cache), median of N runs;
- beside them, the floor no Prov change can go under: a new process that only imports LangGraph's graph module,
  which every turn needs (its checkpoints and the supervisor are LangGraph's).

Goals (issue 18): a cold offline `prov run` <= 1.0 s, a cache hit in a new process <= 0.4 s; issue 3's 3 s before.
Usage: python bench/turn.py [--runs 3]
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
LIBRARIES = ("import typer, rich.console, pydantic_settings, sqlalchemy, numpy, onnxruntime, langgraph.graph, "
             "langgraph.checkpoint.sqlite, chromadb")
"""The third-party modules a cold offline turn imports (CLI, settings, memory store, embedder, graph, checkpoints,
dense index): what importing them alone costs is the part of a cold run Prov's own code cannot remove."""
CLI_LIBRARIES = "import typer, rich.console, pydantic_settings, sqlalchemy"
"""What any answer from the CLI imports, even one that skipped the graph: the CLI, the settings and the SQL store
that holds the answer cache. Its import time is the floor of a cache hit in a new process."""
GOAL_COLD_S = 1.0
GOAL_HIT_S = 0.4


def prov(env: dict[str, str], *args: str, expect: str | None = None) -> float:
    """Seconds of one `prov ARGS` in a new process; `expect`: a word its JSON or text output must hold."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=REPO, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 3):
        raise SystemExit(f"prov {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    if expect is not None and expect not in done.stdout:
        raise SystemExit(f"prov {' '.join(args)}: expected {expect!r} in its output, got {done.stdout[-500:]!r}")
    return elapsed


def python_floor(env: dict[str, str], statement: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], env=env, cwd=REPO, check=True)
    return time.perf_counter() - start


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

    floor_s = statistics.median(python_floor(env, "import langgraph.graph") for _ in range(args.runs))
    libraries_s = statistics.median(python_floor(env, LIBRARIES) for _ in range(args.runs))
    cli_s = statistics.median(python_floor(env, CLI_LIBRARIES) for _ in range(args.runs))
    help_s = statistics.median(prov(env, "--help") for _ in range(args.runs))
    cold = {q: statistics.median(prov(env, "run", q) for _ in range(args.runs)) for q in QUESTIONS}
    cached_env = {**env, "PROV_ANSWER_CACHE": "true"}
    prov(cached_env, "run", QUESTIONS[0], "--json")  # answered once with the cache on: the next asks are hits
    hit_s = statistics.median(prov(cached_env, "run", QUESTIONS[0], "--json", expect='"cache_hit": true')
                              for _ in range(args.runs))

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
    median_cold = statistics.median(cold.values())
    print(f"\nfloor: a new process importing langgraph.graph alone: {floor_s:.2f} s (every turn needs it); "
          f"importing every library a cold turn imports: {libraries_s:.2f} s; importing only what any answer from "
          f"the CLI imports (Typer, Rich, pydantic-settings, SQLAlchemy): {cli_s:.2f} s")
    # a cold turn searches, so it imports every library above; any answer at all imports the CLI's
    for goal, name, floor in ((GOAL_COLD_S, "cold run", libraries_s), (GOAL_HIT_S, "cache hit", cli_s)):
        if floor > goal:
            print(f"the {name} goal ({goal:.1f} s) lies below its floor here ({floor:.2f} s): no change to Prov's "
                  "own code can meet it on this machine")
    print(f"cold prov run, median over the questions: {median_cold:.2f} s, slowest {worst:.2f} s; goal <= "
          f"{GOAL_COLD_S:.1f} s {'MET' if worst <= GOAL_COLD_S else 'NOT MET'} ({worst / GOAL_COLD_S:.2f} x the goal, "
          f"{worst / floor_s:.1f} x the floor); start-up alone (--help) is {help_s / worst:.0%} of it, the libraries' "
          f"imports {libraries_s / median_cold:.0%} of the median")
    print(f"cache hit in a new process: {hit_s:.2f} s; goal <= {GOAL_HIT_S:.1f} s "
          f"{'MET' if hit_s <= GOAL_HIT_S else 'NOT MET'} ({hit_s / GOAL_HIT_S:.2f} x the goal, "
          f"{hit_s / floor_s:.1f} x the floor)")
    total = sum(sum(v) for k, v in nodes.items() if "/" not in k)
    print(f"\nwarm turn by node (mean over {args.runs} runs x {len(QUESTIONS)} questions; share of supervisor time):")
    for name, values in sorted(nodes.items(), key=lambda kv: -sum(kv[1])):
        mean_ms = 1000 * sum(values) / (args.runs * len(QUESTIONS))
        share = f"{sum(values) / total:6.1%}" if "/" not in name else "   (in)"
        print(f"  {name:<36} {mean_ms:>8.1f} ms {share}")


if __name__ == "__main__":
    main()
