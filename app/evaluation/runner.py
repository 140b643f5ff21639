"""`prov eval`: run suites (app/evaluation/suites.py) through the real graph and score every stage
(app/evaluation/stages.py); freeze a run and compare a later one against it.

One knowledge base per corpus, built once and kept under `<home>/eval/<corpus>-<content hash>` (a changed corpus
file gives a new one). Each run copies it into a fresh run home, so no answer cache, memory record or thread of an
earlier run or of the user's own home can flatter the figures, and runs one runtime over every suite of that
corpus: each question on a new thread (the answer cache off), each trace's turns on one thread, a turn that
follows a clarification question given as its reply. A case that says who asks it (`user`) is asked as that user,
and one that says how the reader answers a clarification question (`reply`) gets that reply, up to twice, where
no turn expects one. A turn whose gold is a bare number is scored by the reading of it its answer states
(suites.with_bare_reading).

`save(run, name)` writes `<home>/eval/runs/<name>.json`: the commit and settings it ran with, the metrics, and
every turn's answer, route and manifest. `compare(run, saved)` gives each stage's change in its headline rate, the
questions whose outcome changed, and, for each changed turn, the manifest diff (blocks added, dropped or
re-ranked, with producer and rule).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import BadInput
from app.evaluation.scoring import score
from app.evaluation.stages import STAGES, Observed, Passage, headline, stage_metrics
from app.evaluation.suites import REPO, Suite, Turn, with_bare_reading
from app.settings import Settings

Progress = Callable[[str], None]


def corpus_key(corpus: Path) -> str:
    """The corpus's name and a hash of its files' paths and bytes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in corpus.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(corpus)).encode())
        digest.update(path.read_bytes())
    return f"{corpus.name}-{digest.hexdigest()[:12]}"


def knowledge_home(settings: Settings, corpus: Path, progress: Progress = lambda _: None) -> Path:
    """The kept knowledge base of a corpus, ingested on first use (into a folder renamed into place when whole,
    so an interrupted build is never taken for a finished one)."""
    from app.knowledge.base import KnowledgeBase

    home = settings.home / "eval" / corpus_key(corpus)
    if (home / "catalog.sqlite").exists():
        return home
    home.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=home.parent))
    progress(f"ingesting {corpus} (once; kept at {home})")
    kb = KnowledgeBase(_settings_for(settings, building))
    try:
        summary = kb.ingest([corpus])
    finally:
        close = getattr(kb, "close", None)
        if close:
            close()
    if getattr(summary, "failed", 0):
        raise BadInput(f"the eval corpus {corpus} did not ingest cleanly: {summary}")
    shutil.move(str(building), str(home))
    return home


def _settings_for(settings: Settings, home: Path, **extra: Any) -> Settings:
    return settings.model_copy(update={"home": home, "models_dir_override": settings.models_dir, "chroma_url": None,
                                       "checkpoint_url": None, "memory_url": None, **extra})


@dataclass
class Run:
    observed: list[Observed]
    metrics: dict[str, dict[str, Any]]
    suites: list[str]
    seconds: float
    meta: dict[str, Any]

    def as_json(self, *, turns: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {**self.metrics, "suites": self.suites, "seconds": round(self.seconds, 1),
                               "meta": self.meta}
        if turns:
            out["turns"] = [turn_record(o) for o in self.observed]
        return out


def turn_record(o: Observed) -> dict[str, Any]:
    question = o.turn.question
    right = score(question, o.status, o.answer).right if question is not None else None
    return {"id": o.turn.id, "suite": o.suite, "ask": o.turn.ask, "status": o.status, "answer": o.answer,
            "right": right, "route": o.route, "cited": o.cited,
            "manifest": [{k: m.get(k) for k in ("block", "producer", "rule", "tokens", "included", "items")}
                         for m in o.manifest]}


def run_suites(suites: Sequence[Suite], settings: Settings, progress: Progress = lambda _: None) -> Run:
    """Every suite's questions through one runtime per corpus (module docstring)."""
    from app.runtime import Runtime

    started = time.perf_counter()
    observed: list[Observed] = []
    for corpus in sorted({s.corpus for s in suites}):
        kb_home = knowledge_home(settings, corpus, progress)
        run_home = Path(tempfile.mkdtemp(prefix="prov-eval-"))
        try:
            _copy_knowledge(kb_home, run_home)
            runtime = Runtime(_settings_for(settings, run_home))
            try:
                asked: list[Observed] = []
                for suite in (s for s in suites if s.corpus == corpus):
                    progress(f"{suite.name}: {len(suite.cases)} case(s)")
                    for case in suite.cases:
                        asked += _ask_case(runtime, suite, case.turns, reply=case.reply, user=case.user)
                first = _first_turns(suites)
                _route_held_out(runtime, settings, [o for o in asked if o.turn.route and o.turn.company
                                                    and o.turn.id in first], progress)
                observed += asked
            finally:
                runtime.close()
        finally:
            shutil.rmtree(run_home, ignore_errors=True)
    return Run(observed=observed, metrics=stage_metrics(observed), suites=[s.name for s in suites],
               seconds=time.perf_counter() - started, meta=run_meta(settings))


def _first_turns(suites: Sequence[Suite]) -> set[str]:
    return {case.turns[0].id for suite in suites for case in suite.cases if case.turns}


def _route_held_out(runtime: Any, settings: Settings, observed: Sequence[Observed], progress: Progress) -> None:
    """With the offline router: each first turn's route asked again of a router fitted without its company's
    examples, and of one fitted on all (app/evaluation/held_out.py), into `Observed.held_out`."""
    from app.evaluation.held_out import held_out_routes
    from app.knowledge.embeddings import get_embedder

    if not observed or getattr(runtime.models, "provider", "") != "offline":
        return
    progress(f"route: {len(observed)} first turn(s) asked of routers fitted without their company")
    catalog = runtime.kb.catalog
    flags = held_out_routes([(o.turn.id, o.turn.company or "", o.turn.ask) for o in observed],
                            get_embedder(settings).embed, runtime.known_companies(), catalog.tickers(),
                            catalog.latest_report_year())
    for o in observed:
        o.held_out = flags.get(o.turn.id, {})


def _copy_knowledge(kb_home: Path, run_home: Path) -> None:
    """The kept knowledge base into a run's home: the catalog with its write-ahead log (no writer is running,
    so the pair is consistent), the dense and sparse indexes; no lock files."""
    for path in kb_home.iterdir():
        if path.name.endswith(".lock") or path.name.startswith("."):
            continue
        if path.is_dir() and path.name in ("chroma", "sparse"):
            shutil.copytree(path, run_home / path.name, ignore=shutil.ignore_patterns("*.lock"))
        elif path.is_file() and path.name.startswith("catalog.sqlite"):
            shutil.copy2(path, run_home / path.name)


def _ask_case(runtime: Any, suite: Suite, turns: Sequence[Turn], *, reply: str = "",
              user: str | None = None) -> list[Observed]:
    out: list[Observed] = []
    thread: str | None = None
    waiting = False
    for turn in turns:
        if waiting and thread is not None:
            result = runtime.resume(thread, turn.ask, user=user)
        else:
            result = runtime.run(turn.ask, thread, use_cache=suite.kind == "traces", user=user)
        expects = turn.question.expect if turn.question is not None else ""
        for _ in range(2 if reply and expects != "clarification" else 0):
            if result.status != "clarification":
                break
            result = runtime.resume(result.thread_id, reply, user=user)  # the reader knows which report they mean
        thread = result.thread_id
        waiting = result.status == "clarification"
        out.append(_observe(runtime, suite, turn, result))
    return out


def _observe(runtime: Any, suite: Suite, turn: Turn, result: Any) -> Observed:
    turn = with_bare_reading(turn, result.answer or "")
    record = runtime.turns(result.thread_id)[-1]
    values: dict[str, Any] = {}
    if record.get("checkpoint_id"):
        values = runtime.graph.get_state(runtime.config(result.thread_id, record["checkpoint_id"])).values or {}
    evidence = values.get("retrieval_result")
    hits = []
    if turn.gold:
        response = runtime.kb.search(turn.ask, k=10)
        hits = [Passage(h.source_id, h.text) for h in response.hits]
    return Observed(
        suite=suite.name, turn=turn, status=result.status, answer=result.answer or "", thread=result.thread_id,
        route={k: bool(v) for k, v in (record.get("route") or {}).items() if k != "plan"},
        hits=hits,
        evidence=[Passage(e.source_id, e.text) for e in (evidence.evidence if evidence is not None else [])],
        # a block's header is part of what it states: its company, period and source
        blocks=[Passage(b.source_id, f"{b.header}\n{b.text}", b.n) for b in values.get("blocks") or []],
        cited=sorted({int(c["n"]) for c in record.get("citations") or [] if str(c.get("n", "")).isdigit()}),
        written=list((record.get("memory") or {}).get("written") or []),
        cache_hit=bool((record.get("cache") or {}).get("hit")), manifest=list(record.get("manifest") or []))


def run_meta(settings: Settings) -> dict[str, Any]:
    """The commit and the settings a run used (no secrets)."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                                timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        commit = None
    keep = ("provider", "routing_provider", "embeddings", "small_model", "large_model", "chunk_tokens",
            "chunk_overlap", "dense_weight", "sparse_weight", "entity_weight", "rrf_k", "dedupe_threshold",
            "context_budget_tokens")
    return {"commit": commit, "settings": {k: getattr(settings, k) for k in keep},
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


# --- saved runs ------------------------------------------------------------------------------------------------


REFRESH = ("A frozen prov eval run. To refresh a committed baseline: prov eval --suite NAME --save "
           "evals/NAME/baseline.json (NAME: sample, analyst), then review `git diff` (every changed answer) and "
           "commit it on its own with the reason; CI fails when a stage falls below it by more than the tolerance "
           "in tests/integration/test_eval_baseline.py.")


def runs_dir(settings: Settings) -> Path:
    return settings.home / "eval" / "runs"


def save(run: Run, name: str, settings: Settings) -> Path:
    """Freeze a run under a name (in the home's eval/runs/) or at a path ending in .json (a baseline kept in the
    repository: evals/sample/baseline.json)."""
    if name.endswith(".json"):
        path = Path(name)
    elif not name or not all(c.isalnum() or c in "-_." for c in name) or name.startswith("."):
        raise BadInput(f"a saved run's name is letters, digits, '-', '_' and '.' (or a path ending in .json): "
                       f"{name!r}")
    else:
        path = runs_dir(settings) / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.partial")
    record = {"refresh": REFRESH, **run.as_json()}
    partial.write_text(json.dumps(record, indent=1, default=str, ensure_ascii=False) + "\n", encoding="utf-8")
    partial.replace(path)  # whole or not at all
    return path


def load_saved(name_or_path: str, settings: Settings) -> dict[str, Any]:
    path = Path(name_or_path)
    if not path.suffix:
        path = runs_dir(settings) / f"{name_or_path}.json"
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput(f"no saved run {name_or_path!r} (looked for {path}); save one with prov eval --save NAME")
    except (OSError, ValueError) as error:
        raise BadInput(f"saved run {path} cannot be read: {error}") from error
    if not isinstance(saved, dict) or "turns" not in saved:
        raise BadInput(f"{path} is not a saved eval run")
    return saved


def compare(current: dict[str, Any], saved: dict[str, Any]) -> dict[str, Any]:
    """Each stage's headline rate then and now, the turns whose outcome changed, with their manifest diffs."""
    stages = {}
    for stage in STAGES:
        was, now = saved.get(stage) or {}, current.get(stage) or {}
        before, after = headline(stage, was), headline(stage, now)
        rates = {k: round(now[k] - v, 4) for k, v in was.items() if k != "n" and isinstance(v, float)
                 and isinstance(now.get(k), float)}  # every other rate of the stage, as a change
        stages[stage] = {"saved": before, "now": after,
                         "delta": round(after - before, 4) if before is not None and after is not None else None,
                         "rates": rates}
    old = {t["id"]: t for t in saved.get("turns") or []}
    changed = []
    for turn in current.get("turns") or []:
        was = old.get(turn["id"])
        if was is None:
            changed.append({"id": turn["id"], "change": "new question"})
            continue
        outcome = [k for k in ("status", "right", "route") if was.get(k) != turn.get(k)]
        if was.get("answer") != turn.get("answer"):
            outcome.append("answer")
        if outcome:
            changed.append({"id": turn["id"], "change": outcome,
                            "status": [was.get("status"), turn.get("status")],
                            "right": [was.get("right"), turn.get("right")],
                            "manifest": manifest_diff(was.get("manifest") or [], turn.get("manifest") or [])})
    return {"stages": stages, "changed": changed, "saved_meta": saved.get("meta"), "meta": current.get("meta")}


def manifest_diff(before: Sequence[dict[str, Any]], after: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Blocks added and dropped (by name, with producer and rule), and blocks whose position or items changed."""
    def key(m: dict[str, Any]) -> str:
        return str(m.get("block"))

    was = {key(m): (i, m) for i, m in enumerate(before) if m.get("included", True)}
    now = {key(m): (i, m) for i, m in enumerate(after) if m.get("included", True)}
    def brief(m: dict[str, Any]) -> dict[str, Any]:
        return {"block": m.get("block"), "producer": m.get("producer"), "rule": m.get("rule")}

    return {"added": [brief(now[k][1]) for k in now if k not in was],
            "dropped": [brief(was[k][1]) for k in was if k not in now],
            "reranked": [{**brief(now[k][1]), "from": was[k][0], "to": now[k][0]}
                         for k in now if k in was and (was[k][0] != now[k][0]
                                                       or was[k][1].get("items") != now[k][1].get("items"))]}
