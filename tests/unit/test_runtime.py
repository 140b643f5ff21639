"""The runtime's guards and failure reporting, with a scripted router (no model, no search reached)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.routing.decision import RouteDecision
from app.runtime import BadInput, Runtime, TurnFailed
from app.settings import Settings
from tests.fakes import offline_models


class FlakyRouter:
    """Fails until `fixed`, then calls every question out of scope (so no search is needed)."""

    def __init__(self) -> None:
        self.fixed = False

    def __call__(self, question, *, known_companies, context_entities):  # type: ignore[no-untyped-def]
        if not self.fixed:
            raise ConnectionError("model server unreachable")
        return RouteDecision(is_out_of_scope=True)


def runtime(tmp_path: Path, router: object) -> Runtime:
    return Runtime(Settings(home=tmp_path / "home", answer_cache=False), models=offline_models(router))


def test_a_failed_step_names_its_node_and_the_checkpoint_that_finishes_the_turn(tmp_path: Path) -> None:
    router = FlakyRouter()
    rt = runtime(tmp_path, router)
    with pytest.raises(TurnFailed) as failed:
        rt.run("What was Northwind's revenue?")
    error = failed.value
    assert error.node == "route" and error.checkpoint_id
    assert f"prov replay --thread {error.thread_id} --checkpoint {error.checkpoint_id}" in str(error)
    assert "ConnectionError: model server unreachable" in str(error)
    router.fixed = True
    result = rt.replay(error.thread_id, error.checkpoint_id)
    # the knowledge base is empty: a figure question about Northwind is answered that it holds no filings of it
    assert result.status == "insufficient" and result.thread_id == error.thread_id
    assert "holds no filings of Northwind" in result.answer


def test_fork_only_from_the_start_of_a_turn(tmp_path: Path) -> None:
    router = FlakyRouter()
    router.fixed = True
    rt = runtime(tmp_path, router)
    first = rt.run("What is a good recipe for banana bread?")
    mid = next(r for r in rt.checkpoints(first.thread_id) if r["next"] == ["route"])
    with pytest.raises(BadInput, match="not the start of a turn"):
        rt.fork(first.thread_id, "Another question?", mid["checkpoint_id"])
    forked = rt.fork(first.thread_id, "What is the weather in Oslo?")
    assert forked.status == "refused" and forked.question == "What is the weather in Oslo?"
