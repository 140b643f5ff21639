"""`prov eval` end to end, offline, on suites written here about the sample corpus: every stage's key in --json,
--save then --compare with nothing changed shows no drop, and a deliberately broken stage shows up as a drop in
that stage's own figure (a documents reducer that overwrites instead of appending loses a company's evidence
from the prompt; a router that never refuses loses the route; a grader that admits nothing loses the evidence)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.integration

NW = "corpus/reports/northwind-logistics-annual-report-fy2024.md"
HL = "corpus/reports/helio-renewables-annual-report-fy2024.md"
SUITES = {
    "answers": [
        {"id": "e-an-1", "question": "What was the difference in FY2024 operating margin between Northwind and "
                                     "Helio?", "kind": "change",
         "facts": [{"figure": "2.4", "unit": "pp"}],
         "evidence": [{"source_id": NW, "contains": "Operating margin 6.7%"},
                      {"source_id": HL, "contains": "Operating margin 9.1%"}], "needs_all": True},
        {"id": "e-an-2", "question": "How much operating profit did Northwind make in FY2024?",
         "kind": "statement_figure", "facts": [{"figure": "87.8", "unit": "£m", "lead": True}],
         "evidence": [{"source_id": NW, "contains": "operating profit rose 14.8% to £87.8m"}]},
    ],
    "routing": [
        {"id": "e-rt-1", "question": "By how much did Helio's FY2024 revenue growth exceed Northwind's?",
         "company": "Helio Renewables", "route": {"needs_calculation": True, "needs_retrieval": True}},
        {"id": "e-rt-2", "question": "Write me a haiku about autumn leaves.", "company": None,
         "route": {"is_out_of_scope": True, "needs_retrieval": False}},
    ],
    "unanswerable": [
        {"id": "e-un-1", "question": "What was Brackenridge Mining's revenue in FY2024?", "why": "absent company"},
    ],
    "constraints": [
        {"id": "e-co-1", "question": "What was Northwind's FY2024 revenue, in billions of pounds?",
         "constraint": "units", "pattern": r"£1\.3\d?\s?bn"},
    ],
    "traces": [
        {"id": "e-tr-1", "turns": [
            {"ask": "What was Northwind's revenue in FY2024?", "facts": [{"figure": "1,311.2", "unit": "£m"}],
             "blocks_in": [NW]},
            {"ask": "Actually, Northwind's FY2024 revenue was £1,320.0m.", "memory": {"write": "fact"}},
        ]},
    ],
}
STAGES = ("route", "retrieval", "reduction", "memory", "citation_validity", "grounding", "correctness",
          "insufficient", "constraints")


@pytest.fixture(scope="module")
def suites_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("suites")
    folder = root / "mine"
    folder.mkdir()
    (folder / "suite.json").write_text(json.dumps({"corpus": "examples/corpus"}))
    for name, records in SUITES.items():
        (folder / f"{name}.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return root


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PROV_", "OPENAI_"))}
    environ.update(PROV_HOME=str(tmp_path_factory.mktemp("eval-home")), PROV_MODELS_DIR=str(models_dir),
                   HF_HUB_OFFLINE="1")
    return environ


def prov(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=900)


@pytest.fixture(scope="module")
def saved(env: dict[str, str], suites_dir: Path) -> dict[str, Any]:
    done = prov(env, "eval", "--dir", str(suites_dir), "--json", "--save", "base")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_stage_is_reported(saved: dict[str, Any]) -> None:
    assert set(STAGES) <= set(saved)
    assert saved["route"]["rate"] == 1.0 and saved["route"]["n"] == 2
    # the company's question asked again of a router fitted without Helio's examples, beside the whole router
    held = saved["route"]["held_out"]
    assert held["n"] == 1 and set(held["by_company"]) == {"Helio Renewables"}
    assert held["in_sample_rate"] == 1.0 and held["rate"] in (0.0, 1.0)
    assert saved["correctness"]["n"] == 3 and saved["correctness"]["rate"] == 1.0
    assert saved["insufficient"]["rate"] == 1.0
    assert saved["constraints"]["rate"] == 1.0
    assert saved["memory"]["write"] == 1.0
    assert saved["citation_validity"]["rate"] == 1.0 and saved["grounding"]["n"] >= 3
    assert saved["retrieval"]["n"] == 2 and saved["reduction"]["blocks_in"] == 1.0
    assert saved["meta"]["commit"] and saved["meta"]["settings"]["provider"] in ("auto", "offline")


def test_compare_with_nothing_changed_shows_no_drop(env: dict[str, str], suites_dir: Path,
                                                    saved: dict[str, Any]) -> None:
    done = prov(env, "eval", "--dir", str(suites_dir), "--suite", "mine", "--json", "--compare", "base",
                "--max-drop", "0")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)["compare"]
    assert all(v["delta"] in (0.0, None) for v in report["stages"].values()), report["stages"]
    assert report["failed_stages"] == []


def test_a_missing_saved_run_and_an_unknown_suite_are_bad_input(env: dict[str, str], suites_dir: Path) -> None:
    done = prov(env, "eval", "--dir", str(suites_dir), "--compare", "never-saved")
    assert done.returncode == 2 and "no saved run 'never-saved'" in done.stderr
    done = prov(env, "eval", "--dir", str(suites_dir), "--suite", "theirs")
    assert done.returncode == 2 and "no suite named 'theirs'" in done.stderr


@pytest.fixture()
def in_process(env: dict[str, str], suites_dir: Path) -> Iterator[tuple[Any, Any]]:
    from app.evaluation.suites import load_suites
    from app.settings import Settings

    settings = Settings(home=Path(env["PROV_HOME"]), models_dir_override=Path(env["PROV_MODELS_DIR"]),
                        provider="offline")
    yield load_suites(["mine"], suites_dir), settings


def test_a_reducer_that_overwrites_shows_as_a_reduction_drop(in_process: tuple[Any, Any], saved: dict[str, Any],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-company search branches meet in `documents`: overwriting keeps one company's evidence only, so
    the two-company question's prompt lacks the other's filing."""
    from app.evaluation import runner
    from nodes.retrieval_state import RetrievalState

    def overwrite(old: Any, new: Any) -> list[Any]:
        return list(new or old or [])

    hints = typing.get_type_hints(RetrievalState, include_extras=True)
    base = typing.get_args(hints["documents"])[0]
    monkeypatch.setitem(RetrievalState.__annotations__, "documents", Annotated[base, overwrite])
    suites, settings = in_process
    broken = runner.run_suites(suites, settings).as_json()
    report = runner.compare(broken, runner.load_saved("base", settings))
    assert report["stages"]["reduction"]["delta"] < 0, report["stages"]
    assert report["stages"]["reduction"]["rates"]["evidence_rate"] < 0
    assert "e-an-1" in broken["reduction"]["lost"]


def test_a_router_that_never_refuses_shows_as_a_route_drop(in_process: tuple[Any, Any], saved: dict[str, Any],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from app.evaluation import runner
    from app.models.providers.offline.router import OfflineRoutingModel

    route = OfflineRoutingModel.__call__

    def never_refuses(self: Any, *args: Any, **kwargs: Any) -> Any:
        decision = route(self, *args, **kwargs)
        return decision.model_copy(update={"is_out_of_scope": False, "needs_retrieval": True})

    monkeypatch.setattr(OfflineRoutingModel, "__call__", never_refuses)
    suites, settings = in_process
    broken = runner.run_suites([s for s in suites if s.kind == "routing"], settings).as_json()
    report = runner.compare(broken, runner.load_saved("base", settings))
    assert report["stages"]["route"]["delta"] < 0, report["stages"]
    assert broken["route"]["per_flag"]["is_out_of_scope"] == 0.0


def test_a_grader_that_admits_nothing_shows_as_a_reduction_and_correctness_drop(
        in_process: tuple[Any, Any], saved: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Grading is where search results become evidence: a grader that rejects every passage leaves the gold in no
    prompt, which the reduction stage shows, and the answers that needed it, which correctness shows."""
    from app.evaluation import runner
    from app.models.providers.offline.grader import OfflineGrader

    monkeypatch.setattr(OfflineGrader, "grade", lambda self, *args, **kwargs: False)
    suites, settings = in_process
    broken = runner.run_suites([s for s in suites if s.kind == "answers"], settings).as_json()
    report = runner.compare(broken, runner.load_saved("base", settings))
    assert report["stages"]["reduction"]["rates"]["evidence_rate"] < 0, report["stages"]
    assert broken["reduction"]["evidence_rate"] == 0.0
    assert report["stages"]["correctness"]["delta"] < 0, report["stages"]


REPORT = """---
title: Ternline Freight plc — Annual Report FY2024
company: Ternline Freight
fiscal_year: 2024
doc_type: report
published_at: 2025-03-10
---

# Ternline Freight plc — Annual Report FY2024

## Financial review

Ternline Freight's revenue was £812.0m in FY2024 (FY2023: £779.3m). Operating profit was £40.1m.

## Our people

At the end of FY2024 Ternline Freight employed 4,215 people across 31 depots.
"""


def test_trace_regenerates_a_turn_and_contribution_finds_the_block_it_needs(env: dict[str, str],
                                                                          tmp_path: Path) -> None:
    """Replay from recorded state writes nothing; leaving out the one block that states the headcount makes the
    answer insufficient, and the other block is reported as redundant or unused, not as noise."""
    corpus = tmp_path / "ternline"
    corpus.mkdir()
    (corpus / "ternline-fy2024.md").write_text(REPORT, encoding="utf-8")
    home = dict(env, PROV_HOME=str(tmp_path / "home"), PROV_ANSWER_CACHE="false")
    assert prov(home, "ingest", str(corpus)).returncode == 0
    asked = prov(home, "run", "How many people did Ternline Freight employ at the end of FY2024?", "--json")
    assert asked.returncode == 0, asked.stderr
    turn = json.loads(asked.stdout)
    assert "4,215" in turn["answer"]
    again = prov(home, "trace", "--thread", turn["thread_id"], "--turn", "1", "--regenerate", "--json")
    assert again.returncode == 0, again.stderr
    regenerated = json.loads(again.stdout)
    assert regenerated["answer"] == turn["answer"] and regenerated["status"] == "answered"
    # the model call is logged, with the model that made it
    [call] = regenerated["calls"]
    assert call["role"] == "synthesis" and call["model"] and call["blocks"] >= 1 and call["thread"] == turn["thread_id"]
    logged = [json.loads(line) for line in Path(regenerated["log"]).read_text().splitlines()]
    assert logged == [call]
    done = prov(home, "eval", "contribution", "--thread", turn["thread_id"], "--turn", "1", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["calls"] == 1 + len(report["blocks"])  # the full prompt, then once without each block
    assert len(Path(report["log"]).read_text().splitlines()) == 1 + report["calls"]
    effects = {row["block"]: row["effect"] for row in report["blocks"]}
    needed = [n for n, effect in effects.items() if effect.startswith("needed")]
    assert needed, effects
    assert all(e.startswith(("needed", "redundant or unused", "changes")) for e in effects.values())
    # nothing was written: the thread still has one turn
    trace = json.loads(prov(home, "trace", "--thread", turn["thread_id"], "--json").stdout)
    assert len(trace) == 1
    assert prov(home, "trace", "--thread", turn["thread_id"], "--turn", "2", "--regenerate").returncode == 2
