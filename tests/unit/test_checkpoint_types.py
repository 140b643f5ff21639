"""The checkpoint serializer's allowlist: every type the graphs keep in checkpoints, under every module path a
checkpoint may name it by, so that threads written before a model moved still load."""

import importlib
import logging

import pytest
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from pydantic import BaseModel

from app.calc_tools import CalcResult, CalculationOutcome, Figure
from app.checkpoints import checkpoint_types
from app.evidence import Claim, Evidence, RetrievalResult, SearchRequest
from app.routing.decision import RouteDecision
from app.turns import Block, Citation, CitationCheck, ManifestEntry, MemoryItem, MemoryWrite, Response, Turn

EVIDENCE = Evidence(chunk_id="c1", source_id="s1", company="Northwind Logistics", fiscal_year=2024,
                    text="Revenue was £1,311.2m.")
SAMPLES: list[BaseModel] = [
    EVIDENCE,
    Claim(text="Revenue was £1,311.2m.", evidence_chunk_ids=["c1"], verified=True),
    RetrievalResult(status="found", evidence=[EVIDENCE]),
    SearchRequest(company="Northwind Logistics", queries=["revenue"], fiscal_years=[2024]),
    Citation(n=1, source_id="s1"),
    Turn(asked="q", question="q", answer="a", status="answered"),
    Block(n=1, kind="report", header="[1]", text="t", source_id="s1"),
    MemoryItem(id="m1", type="fact", key="k", value="v", scope="user", status="active", source="s", created_at="now"),
    MemoryWrite(text="t", kept=True),
    ManifestEntry(block="b", role="user", producer="p", rule="r", tokens=1),
    CitationCheck(valid=[1]),
    Response(status="answered", answer="a"),
]
OLD_PATHS = {  # where each model was defined before it moved to app/
    Evidence: ["nodes.retrieval_state", "nodes.retrieve"], Claim: ["nodes.retrieval_state", "nodes.retrieve"],
    RetrievalResult: ["nodes.retrieval_state", "nodes.retrieve"],
    SearchRequest: ["nodes.retrieval_state", "nodes.retrieve"],
    **{cls: ["nodes.state"] for cls in (Citation, Turn, Block, MemoryItem, MemoryWrite, ManifestEntry, CitationCheck,
                                        Response)},
}


def test_every_allowed_type_imports_as_a_pydantic_model_and_the_old_paths_name_the_same_class():
    for module, name in checkpoint_types():
        cls = getattr(importlib.import_module(module), name)
        assert issubclass(cls, BaseModel), (module, name)
    allowed = set(checkpoint_types())
    for cls in [*OLD_PATHS, Figure, CalcResult, CalculationOutcome, RouteDecision]:
        assert (cls.__module__, cls.__name__) in allowed
    for cls, modules in OLD_PATHS.items():
        for module in modules:
            assert (module, cls.__name__) in allowed
            assert getattr(importlib.import_module(module), cls.__name__) is cls


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: type(s).__name__)
def test_a_checkpoint_written_with_the_old_module_path_still_loads(sample, monkeypatch, caplog):
    serde = JsonPlusSerializer(allowed_msgpack_modules=checkpoint_types())
    cls = type(sample)
    for module in OLD_PATHS[cls]:
        monkeypatch.setattr(cls, "__module__", module)  # written when the class lived there
        written = serde.dumps_typed({"value": sample})
        monkeypatch.undo()
        assert module.encode() in written[1]
        with caplog.at_level(logging.WARNING):
            loaded = serde.loads_typed(written)["value"]
        assert type(loaded) is cls and loaded == sample
        assert not [r for r in caplog.records if "Blocked" in r.getMessage() or "unregistered" in r.getMessage()]


def test_an_old_path_left_off_the_allowlist_is_not_loaded(monkeypatch):
    """The test above would pass vacuously if the serializer loaded any module: it does not."""
    serde = JsonPlusSerializer(allowed_msgpack_modules=[p for p in checkpoint_types() if p[0] != "nodes.state"])
    monkeypatch.setattr(Turn, "__module__", "nodes.state")
    written = serde.dumps_typed({"value": SAMPLES[5]})
    monkeypatch.undo()
    assert not isinstance(serde.loads_typed(written)["value"], Turn)


def test_the_written_out_list_is_exactly_what_the_defining_modules_declare():
    from app.calc_tools import CHECKPOINT_TYPES as CALCULATION
    from app.evidence import CHECKPOINT_TYPES as EVIDENCE
    from app.routing.decision import CHECKPOINT_TYPES as ROUTING
    from app.turns import CHECKPOINT_TYPES as TURNS

    declared = [*CALCULATION, *EVIDENCE, *TURNS, *ROUTING]
    assert sorted(checkpoint_types()) == sorted(declared) and len(set(declared)) == len(declared)


def test_opening_the_checkpoints_does_not_import_the_graph(tmp_path):
    import subprocess
    import sys

    probe = ("import sys; from pathlib import Path; from app.checkpoints import open_sqlite_saver; "
             f"open_sqlite_saver(Path({str(tmp_path / 'c.sqlite')!r})); "
             "print(sorted(m for m in ('app.calc_tools', 'graphs.supervisor', 'nodes.state') if m in sys.modules))")
    from pathlib import Path

    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.strip() == "[]"
