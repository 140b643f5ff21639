"""How much of a turn is Prov's own code and checkpointing, against the model's time. Offline, in one run.

Conditions side by side: the offline models (their time is tiny, so the ratio is large: it is printed as it is)
and the same models behind a scripted latency per model call (300 ms, standing in for a local LLM server;
bench/context.py's `Slow`), each with checkpoints on SQLite and on PostgreSQL (memory, cache and archive follow
onto the same backend), and on LangGraph's in-memory saver (memory on SQLite) as a floor: the turn time it saves
against SQLite and PostgreSQL is what durable checkpointing costs, measured by difference, a check on the
checkpoint column (against PostgreSQL the memory store differs too; its own column shows what that adds). Each runs one warm-up turn (not counted) and then a fixed 8-turn thread with the answer cache
off, so every turn does the whole work.

How a turn's wall time is split, so that the figure cannot flatter Prov: every instrumented call records its
interval, and each instant of the turn goes to the first of these with a call in flight, else to `own`:
- role: the offline models' own computation under the scripted latency. A real model server would replace it,
  but it is counted as Prov's (with the offline models alone there is no latency and it is the model's time);
- model: inside a model-role call (router, grader, synthesizer, calculator; every method, however called);
- checkpoint: inside the saver (put, put_writes, get_tuple, list, ...; serialization happens there). LangGraph
  writes checkpoints in the background (durability "async"): a write hidden behind a model call costs the user
  nothing and is the model's; one that overlaps Prov's code counts here;
- search: retrieval, Prov's own work: KnowledgeBase search (the query's embedding, Chroma, BM25, fusion), page
  and news reads, and every other embedding (cache, archive); shown apart, never counted as model time;
- memory: the memory store, semantic cache and turn archive (on the checkpoints' backend);
- own: everything else (LangGraph's loop, routing features, assembly, validation, the runtime's guards).
The columns add up to the turn. overhead = (role + checkpoint + search + memory + own) / turn = 1 - model / turn.
Goals: overhead <= 10% of a turn with the 300 ms model, on both the total and the median turn (issue 9); with
that model the median turn <= 2.5 s, and at most 5 model calls one after another in any turn (issue 18: grading
runs its calls in parallel, so a grading step is one wait however many documents it judges). The model calls per
turn are printed, and how many of them stood one after another (overlapping calls counted once).

PostgreSQL: PROV_BENCH_POSTGRES_URL if set, else a throwaway server (tests/servers.py) with fsync and synchronous
commit switched back on (the test servers turn them off). The knowledge base is the sample corpus
(examples/corpus), ingested once into a throwaway home; the ONNX embedder is exported once into PROV_MODELS_DIR
(default /tmp/prov-bench-models). Usage: python bench/overhead.py [--latency-ms 300] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.runtime import Runtime  # noqa: E402  (after the path is set)
from bench.context import Slow  # noqa: E402

WARM_UP = "What were Helio Renewables' total assets at the end of FY2023?"
SCRIPT = [
    "What was Northwind Logistics' revenue in FY2024?",
    "And their operating margin in that year?",
    "What was Helio Renewables' net income in FY2024?",
    "What was the difference in FY2024 operating margin between Northwind and Helio?",
    "Who replaced Dana Whitcombe as Helio's CEO, and when?",
    "What was Copperleaf Foods' revenue in FY2024 and how much did it grow?",
    "And its operating profit in that year?",
    "What was the difference in FY2024 operating margin between Copperleaf and Helio?",
]
ORDER = ("role", "model", "checkpoint", "search", "memory")
"""Categories in the order an instant is given to them when calls overlap; an instant with none is `own`."""
COLUMNS = (*ORDER, "own")
OVERHEAD = ("role", "checkpoint", "search", "memory", "own")
GOAL = 0.10
MODEL_LATENCY_S = 0.3
GOAL_TURN_S = 2.5
"""Issue 18: with a model at 300 ms a call, the median turn takes at most this long."""
GOAL_SEQUENTIAL = 5
"""Issue 18: at most this many model calls stand one after another in any turn (parallel grading counts once)."""
SAVER_METHODS = ("put", "put_writes", "get_tuple", "list", "get", "get_next_version", "get_delta_channel_history",
                 "delete_thread")
BUILDERS = ("bind_tools", "with_structured_output", "bind", "with_config", "with_retry")
"""Methods of a chat model that return another model (not a model call): their result is wrapped in turn."""


# --- splitting a turn -------------------------------------------------------------------------------------------
Span = tuple[str, float, float]  # (category, start, end)


def split_turn(spans: list[Span], start: float, end: float, order: tuple[str, ...] = ORDER) -> dict[str, float]:
    """Seconds of [start, end] per category: each instant goes to the first category in `order` with a span
    covering it, else to 'own'. Spans are clipped to the turn; the values add up to end - start."""
    events: list[tuple[float, int, str]] = []
    for category, s, e in spans:
        if category not in order:
            raise ValueError(f"unknown category {category!r}; known: {', '.join(order)}")
        s, e = max(s, start), min(e, end)
        if e > s:
            events += [(s, 1, category), (e, -1, category)]
    events.sort(key=lambda ev: ev[0])
    out = dict.fromkeys((*order, "own"), 0.0)
    active: Counter[str] = Counter()
    now = start
    for when, step, category in events:
        out[next((c for c in order if active[c] > 0), "own")] += when - now
        now = when
        active[category] += step
    out["own"] += end - now
    return out


def busy(spans: list[Span], category: str, start: float, end: float) -> float:
    """Summed seconds of one category's calls inside the turn, each of several overlapping calls (threads in
    parallel, calls waiting on the saver's lock) counted in full."""
    return sum(max(0.0, min(e, end) - max(s, start)) for c, s, e in spans if c == category)


def sequential_calls(spans: list[Span], category: str = "model") -> int:
    """How many of a category's calls stand one after another: calls that overlap in time (grading in parallel)
    count once, as the one wait they cost the user."""
    waves, reach = 0, float("-inf")
    for _, s, e in sorted(sp for sp in spans if sp[0] == category):
        if s >= reach:
            waves += 1
        reach = max(reach, e)
    return waves


def overhead_ratio(row: dict[str, float]) -> float:
    """(role + checkpoint + search + memory + own) / turn: everything but the model's time."""
    return sum(row[c] for c in OVERHEAD) / row["turn_s"] if row["turn_s"] > 0 else 0.0


# --- instruments ------------------------------------------------------------------------------------------------
class Clock:
    """Records the interval of every instrumented call, from any thread, and counts calls by name."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.spans: list[Span] = []
        self.durations: list[tuple[str, float]] = []  # (name, seconds) of each call
        self.calls: Counter[str] = Counter()

    def record(self, category: str, name: str, start: float, end: float, *, call: bool = True) -> None:
        """One interval; `call=False` for a further step of a call already counted (a generator read)."""
        with self._lock:
            self.spans.append((category, start, end))
            if call:
                self.durations.append((f"{category}:{name}", end - start))
                self.calls[f"{category}:{name}"] += 1

    @contextmanager
    def span(self, category: str, name: str, *, call: bool = True) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.record(category, name, start, time.perf_counter(), call=call)

    def timed(self, fn: Callable[..., Any], category: str, name: str) -> Callable[..., Any]:
        """`fn` timed; a generator it returns is timed on each step (the work happens while it is read)."""
        def call(*args: Any, **kwargs: Any) -> Any:
            with self.span(category, name):
                result = fn(*args, **kwargs)
            return self._timed_steps(result, category, name) if inspect.isgenerator(result) else result
        return call

    def _timed_steps(self, gen: Iterator[Any], category: str, name: str) -> Iterator[Any]:
        while True:
            with self.span(category, name, call=False):
                try:
                    item = next(gen)
                except StopIteration:
                    return
            yield item

    def take(self) -> tuple[list[Span], list[tuple[str, float]], Counter[str]]:
        """What was recorded since the last take, and a fresh start."""
        with self._lock:
            taken = self.spans, self.durations, self.calls
            self.spans, self.durations, self.calls = [], [], Counter()
        return taken


class Timed:
    """A proxy that times every call made through it: the object itself, any method, and the methods of a model
    that a builder (bind_tools, ...) returns, all under one category."""

    def __init__(self, inner: Any, clock: Clock, category: str, label: str) -> None:
        self._inner, self._clock, self._category, self._label = inner, clock, category, label

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._clock.timed(self._inner, self._category, self._label)(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr
        if name in BUILDERS:
            return lambda *a, **k: Timed(attr(*a, **k), self._clock, self._category, self._label)
        return self._clock.timed(attr, self._category, f"{self._label}.{name}")


ROLES = ("router", "grader", "synthesizer", "calculator")


def instrument_models(models: Any, clock: Clock, latency: float) -> Any:
    """Every role timed as `model`; with a latency, the role sits behind bench/context.py's Slow, and the offline
    role's own computation under it is timed as `role`."""
    def wrap(role: str, inner: Any) -> Any:
        if latency <= 0:
            return Timed(inner, clock, "model", role)
        return Timed(Slow(Timed(inner, clock, "role", role), latency), clock, "model", role)
    return replace(models, **{role: wrap(role, getattr(models, role)) for role in ROLES})


def instrument_saver(saver: Any, clock: Clock) -> Any:
    """The saver's methods timed as `checkpoint`, on the instance (LangGraph still sees its own saver class)."""
    for name in SAVER_METHODS:
        method = getattr(saver, name, None)
        if method is not None:
            setattr(saver, name, clock.timed(method, "checkpoint", name))
    return saver


class InProcessCheckpoints:
    """LangGraph's InMemorySaver (serializing as Prov's savers do) where the runtime expects its Checkpoints."""

    backend, location = "in-memory", "this process"

    def __init__(self) -> None:
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

        from app.checkpoints import checkpoint_types

        self.saver = InMemorySaver(serde=JsonPlusSerializer(allowed_msgpack_modules=checkpoint_types()))

    def close(self) -> None:
        self.saver.storage.clear()


class TimedRuntime(Runtime):
    """Prov's runtime with its saver, search, embedding and memory stores instrumented (nothing else changed);
    `in_memory`: checkpoints in LangGraph's InMemorySaver instead of the settings' backend."""

    def __init__(self, settings: Any, *, models: Any, clock: Clock, in_memory: bool = False) -> None:
        super().__init__(settings, models=models)
        self.clock, self.in_memory = clock, in_memory

    @cached_property
    def checkpoint_store(self) -> Any:
        store = InProcessCheckpoints() if self.in_memory else Runtime.checkpoint_store.func(self)  # type: ignore
        instrument_saver(store.saver, self.clock)
        return store

    @cached_property
    def memory(self) -> Any:
        return Timed(Runtime.memory.func(self), self.clock, "memory", "memory")  # type: ignore[attr-defined]

    @cached_property
    def cache(self) -> Any:
        return Timed(Runtime.cache.func(self), self.clock, "memory", "cache")  # type: ignore[attr-defined]

    @cached_property
    def archive(self) -> Any:
        return Timed(Runtime.archive.func(self), self.clock, "memory", "archive")  # type: ignore[attr-defined]

    def embed(self, texts: Any) -> list[list[float]]:
        with self.clock.span("search", "embed"):
            return super().embed(texts)

    def search_reports(self, *args: Any, **kwargs: Any) -> list[Any]:
        with self.clock.span("search", "search_reports"):
            return super().search_reports(*args, **kwargs)

    def search_news(self, *args: Any, **kwargs: Any) -> list[Any]:
        with self.clock.span("search", "search_news"):
            return super().search_news(*args, **kwargs)

    def page_chunks(self, *args: Any, **kwargs: Any) -> list[Any]:
        with self.clock.span("search", "page_chunks"):
            return super().page_chunks(*args, **kwargs)


# --- running ----------------------------------------------------------------------------------------------------
def timed_turn(runtime: TimedRuntime, question: str, thread: str | None, latency: float) -> dict[str, Any]:
    runtime.clock.take()  # drop anything recorded between turns
    start = time.perf_counter()
    result = runtime.run(question, thread, user="bench", use_cache=False)
    end = time.perf_counter()
    spans, durations, calls = runtime.clock.take()
    if result.status == "clarification":
        raise SystemExit(f"overhead bench: the turn {question!r} asked for a clarification ({result.answer!r}); "
                         "the script must be answerable as it stands")
    unslowed = sum(1 for name, s in durations if name.startswith("model:") and latency > 0 and s < latency)
    return {"question": question, "thread_id": result.thread_id, "status": result.status, "turn_s": end - start,
            **split_turn(spans, start, end), "checkpoint_busy_s": busy(spans, "checkpoint", start, end),
            "model_busy_s": busy(spans, "model", start, end), "calls": dict(sorted(calls.items())),
            "sequential_model_calls": sequential_calls(spans), "unslowed_model_calls": unslowed}


def run_condition(settings: Any, latency: float, *, in_memory: bool = False) -> list[dict[str, Any]]:
    """A warm-up turn on its own thread, then SCRIPT on one thread; one row per scripted turn."""
    from app.models import get_models

    clock = Clock()
    runtime = TimedRuntime(settings, models=instrument_models(get_models(settings), clock, latency), clock=clock,
                           in_memory=in_memory)
    try:
        runtime.run(WARM_UP, None, user="bench-warm-up", use_cache=False)
        rows, thread = [], None
        for question in SCRIPT:
            rows.append(timed_turn(runtime, question, thread, latency))
            thread = rows[-1]["thread_id"]
        return rows
    finally:
        runtime.close()


def summarize(rows: list[dict[str, Any]], latency: float) -> dict[str, Any]:
    keys = ("turn_s", *COLUMNS, "checkpoint_busy_s")
    total = {k: sum(r[k] for r in rows) for k in keys}
    median = {k: statistics.median(r[k] for r in rows) for k in keys}
    per_turn = [overhead_ratio(r) for r in rows]
    calls: Counter[str] = Counter()
    for r in rows:
        calls.update(r["calls"])
    overhead_total = overhead_ratio(total)
    judged = max(overhead_total, statistics.median(per_turn))
    return {"latency_s": latency, "turns": len(rows), "total_s": total, "median_s": median,
            "overhead_total": overhead_total, "overhead_median_turn": statistics.median(per_turn),
            "overhead_worst_turn": max(per_turn), "checkpoint_total": total["checkpoint"] / total["turn_s"],
            "checkpoint_median_turn": statistics.median(r["checkpoint"] / r["turn_s"] for r in rows),
            "calls": dict(sorted(calls.items())), "unslowed_model_calls": sum(r["unslowed_model_calls"] for r in rows),
            "sequential_max": max(r["sequential_model_calls"] for r in rows),
            "sequential_median": statistics.median(r["sequential_model_calls"] for r in rows),
            "goal": GOAL, "met": (judged <= GOAL) if latency > 0 else None}


# --- PostgreSQL ---------------------------------------------------------------------------------------------------
DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}


def _pg(url: str, *statements: str) -> list[Any]:
    import psycopg

    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        return [conn.execute(sql).fetchone() if sql.upper().startswith(("SHOW", "SELECT")) else conn.execute(sql)
                for sql in statements]


def durability(url: str) -> dict[str, str]:
    return {name: row[0] for name, row in zip(DURABLE, _pg(url, *(f"SHOW {name}" for name in DURABLE)))}


@contextmanager
def postgres(root: Path) -> Iterator[tuple[Callable[[str], str] | None, str]]:
    """(a function giving the URL of a database for one condition, a description), or (None, why skipped)."""
    from app.checkpoints import redact

    given = os.environ.get("PROV_BENCH_POSTGRES_URL")
    if given:
        try:
            settings = durability(given)
        except Exception as exc:  # psycopg's errors: the server named by the user cannot be used
            raise SystemExit(f"overhead bench: cannot use PostgreSQL at {redact(given)} (PROV_BENCH_POSTGRES_URL): "
                             f"{str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__}")
        yield (lambda _name: given), f"PROV_BENCH_POSTGRES_URL {redact(given)} ({_describe(settings)})"
        return
    from tests.servers import postgres_available, start_postgres

    if not postgres_available():
        yield None, ("skipped: PostgreSQL is not installed (no initdb/pg_ctl; Debian: apt-get install postgresql), "
                     "and PROV_BENCH_POSTGRES_URL is not set")
        return
    server = start_postgres(root)
    try:
        _pg(server.url, *(f"ALTER SYSTEM SET {k} = '{v}'" for k, v in DURABLE.items()), "SELECT pg_reload_conf()")

        def database(name: str) -> str:
            _pg(server.url, f"CREATE DATABASE {name}")
            return server.url.rsplit("/", 1)[0] + f"/{name}"

        yield database, f"a throwaway server on loopback ({_describe(durability(server.url))})"
    finally:
        server.stop()


def _describe(settings: dict[str, str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in settings.items())


# --- report -------------------------------------------------------------------------------------------------------
def ms(seconds: float, width: int = 11) -> str:
    return f"{seconds * 1000:>{width}.0f}"


NAME_WIDTH = 27


def print_tables(conditions: dict[str, dict[str, Any]]) -> None:
    head = f"{'condition':<{NAME_WIDTH}}{'turn':>11}" + "".join(f"{c:>11}" for c in COLUMNS) + f"{'ckpt busy':>11}"
    for title, key in (("median per turn, ms", "median_s"), ("total over the turns, ms", "total_s")):
        print(f"\n{title} (columns turn..own: each instant of the turn counted once, so they add up to the turn; "
              "ckpt busy: checkpoint calls summed, overlaps included)")
        print(head)
        for name, c in conditions.items():
            v = c["summary"][key]
            print(f"{name:<{NAME_WIDTH}}{ms(v['turn_s'])}" + "".join(ms(v[k]) for k in COLUMNS)
                  + ms(v["checkpoint_busy_s"]))
    print("\nratios: overhead = (role + checkpoint + search + memory + own) / turn; checkpoint = checkpoint / turn")
    print(f"{'condition':<{NAME_WIDTH}}{'overhead total':>15}{'median turn':>12}{'worst turn':>11}{'ckpt total':>11}"
          f"{'ckpt median':>12}   model calls / turn (of them one after another: median, most)")
    for name, c in conditions.items():
        s = c["summary"]
        model_calls = sum(n for k, n in s["calls"].items() if k.startswith("model:")) / s["turns"]
        print(f"{name:<{NAME_WIDTH}}{s['overhead_total']:>15.1%}{s['overhead_median_turn']:>12.1%}"
              f"{s['overhead_worst_turn']:>11.1%}{s['checkpoint_total']:>11.1%}{s['checkpoint_median_turn']:>12.1%}"
              f"   {model_calls:.1f} ({s['sequential_median']:g}, {s['sequential_max']})")


def print_turns(conditions: dict[str, dict[str, Any]]) -> None:
    names = list(conditions)
    print("\nper turn: turn ms / overhead %, status (an: answered)")
    print(f"{'#':>2} {'question':<40}" + "".join(f"{n:>{NAME_WIDTH}}" for n in names))
    for i, question in enumerate(SCRIPT):
        cells = []
        for n in names:
            r = conditions[n]["turns"][i]
            cells.append(f"{r['turn_s'] * 1000:>6.0f} / {overhead_ratio(r):>5.1%} {r['status'][:2]}")
        print(f"{i + 1:>2} {question[:40]:<40}" + "".join(f"{c:>{NAME_WIDTH}}" for c in cells))


def checkpoint_by_difference(rows: list[dict[str, Any]], floor: list[dict[str, Any]]) -> dict[str, float]:
    """What a durable saver adds to the turn over the in-memory one, turn by turn (same questions, same models):
    the median difference, and the total difference as a share of the durable run's total."""
    diffs = [r["turn_s"] - f["turn_s"] for r, f in zip(rows, floor)]
    return {"median_turn_s": statistics.median(diffs),
            "share_of_total": sum(diffs) / sum(r["turn_s"] for r in rows)}


def print_differences(conditions: dict[str, dict[str, Any]]) -> None:
    print("\ncheckpointing by difference (turn against the same turn on the in-memory saver; noisy on a busy machine):")
    for name, c in conditions.items():
        if "by_difference" in c:
            d = c["by_difference"]
            print(f"  {name:<{NAME_WIDTH}} {d['median_turn_s'] * 1000:>+7.0f} ms on the median turn, "
                  f"{d['share_of_total']:>6.1%} of the total turn time "
                  f"(the checkpoint column: {c['summary']['checkpoint_total']:.1%})")


def verdict(name: str, s: dict[str, Any], latency: float, in_memory: bool = False) -> str:
    figure = (f"{name}: (Prov code + checkpointing) / turn = {s['overhead_total']:.1%} of the total, "
              f"{s['overhead_median_turn']:.1%} on the median turn (checkpointing alone {s['checkpoint_total']:.1%})")
    if s["met"] is None:
        return (f"{figure}: not judged (the offline models take almost no time; the goal of <= {GOAL:.0%} is "
                f"stated for a local model: see the {latency * 1000:.0f} ms rows)")
    slowed = "" if not s["unslowed_model_calls"] else f" [{s['unslowed_model_calls']} model calls ran unslowed]"
    floor = " (a floor: checkpoints not kept)" if in_memory else ""
    turn, waves = s["median_s"]["turn_s"], s["sequential_max"]
    return (f"{figure}: goal <= {GOAL:.0%} {'MET' if s['met'] else 'NOT MET'}{floor}{slowed}\n"
            f"  median turn {turn:.2f} s, goal <= {GOAL_TURN_S} s {'MET' if turn <= GOAL_TURN_S else 'NOT MET'}; "
            f"model calls one after another: median {s['sequential_median']:g}, at most {waves}, goal <= "
            f"{GOAL_SEQUENTIAL} {'MET' if waves <= GOAL_SEQUENTIAL else 'NOT MET'}")


# --- main ---------------------------------------------------------------------------------------------------------
def build_home(home: Path, models_dir: Path) -> None:
    from app.knowledge.base import KnowledgeBase
    from app.knowledge.loaders import Overrides
    from app.settings import Settings

    KnowledgeBase(Settings(home=home, provider="offline", models_dir_override=models_dir)).ingest(
        [REPO / "examples" / "corpus"], Overrides())


def condition_settings(home: Path, models_dir: Path, work: Path, name: str, pg: Callable[[str], str] | None) -> Any:
    from app.settings import Settings

    base = {"home": home, "provider": "offline", "models_dir_override": models_dir}
    if pg is not None:  # memory, cache and archive follow the checkpoints onto PostgreSQL
        return Settings(**base, checkpoint_url=pg(name.replace("-", "_")))
    folder = work / name
    folder.mkdir(parents=True)
    return Settings(**base, checkpoint_url=f"sqlite:///{folder / 'checkpoints.sqlite'}",
                    memory_url=f"sqlite:///{folder / 'memory.sqlite'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency-ms", type=float, default=MODEL_LATENCY_S * 1000,
                        help="Scripted model latency per call (default 300).")
    parser.add_argument("--models-dir", type=Path,
                        default=Path(os.environ.get("PROV_MODELS_DIR", "/tmp/prov-bench-models")))
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "overhead.json")
    parser.add_argument("--backends", default="sqlite,postgres,in-memory",
                        help="Checkpoint backends to run, comma-separated (default: all three).")
    args = parser.parse_args(argv)
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    unknown = sorted(set(backends) - {"sqlite", "postgres", "in-memory"})
    if unknown or not backends:
        parser.error(f"--backends: unknown {', '.join(unknown) or '(none given)'}; known: sqlite, postgres, in-memory")
    if args.latency_ms <= 0:
        parser.error("--latency-ms must be above 0")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    latency = args.latency_ms / 1000
    load_before = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load_before[0]:.2f} (1 min) at the start", flush=True)

    with tempfile.TemporaryDirectory(prefix="prov-overhead-") as tmp:
        work = Path(tmp)
        print(f"set-up: ingesting examples/corpus into {work / 'home'} (not timed)", flush=True)
        build_home(work / "home", args.models_dir)
        with (postgres(work / "postgres") if "postgres" in backends
              else nullcontext((None, "not run (--backends)"))) as (pg, pg_note):
            print(f"PostgreSQL: {pg_note}", flush=True)
            conditions: dict[str, dict[str, Any]] = {}
            for model, lat in (("offline", 0.0), (f"model {args.latency_ms:.0f}ms", latency)):
                for backend in backends:
                    if backend == "postgres" and pg is None:
                        continue
                    name = f"{model} / {backend}"
                    print(f"running {name} ...", flush=True)
                    key = f"{'offline' if lat == 0 else 'slow'}-{backend.replace('-', '')}"
                    settings = condition_settings(work / "home", args.models_dir, work, key,
                                                  pg if backend == "postgres" else None)
                    rows = run_condition(settings, lat, in_memory=backend == "in-memory")
                    conditions[name] = {"backend": backend, "turns": rows, "summary": summarize(rows, lat)}
                for backend in ("sqlite", "postgres"):
                    if f"{model} / {backend}" in conditions and f"{model} / in-memory" in conditions:
                        conditions[f"{model} / {backend}"]["by_difference"] = checkpoint_by_difference(
                            conditions[f"{model} / {backend}"]["turns"], conditions[f"{model} / in-memory"]["turns"])

    print_tables(conditions)
    print_turns(conditions)
    print_differences(conditions)
    print()
    if pg is None:
        print(f"PostgreSQL columns {pg_note}")
    for name, c in conditions.items():
        print(verdict(name, c["summary"], latency, c["backend"] == "in-memory"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"script": SCRIPT, "warm_up": WARM_UP, "latency_s": latency, "postgres": pg_note,
                                    "order": ORDER, "goal": GOAL, "cpu_count": os.cpu_count(),
                                    "load_average": {"start": load_before, "end": os.getloadavg()},
                                    "conditions": conditions}, indent=1))
    print(f"\nmachine: load average {os.getloadavg()[0]:.2f} (1 min) at the end, {load_before[0]:.2f} at the start "
          f"on {os.cpu_count()} cores (other processes' load slows Prov's code, not the scripted model)")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
