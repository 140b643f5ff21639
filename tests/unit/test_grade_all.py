"""app/models/roles.grade_all: a grading step's calls run at once, their verdicts in the documents' order."""

from __future__ import annotations

import threading

import pytest

from app.evidence import Evidence
from app.models.roles import grade_all


def doc(i: int) -> Evidence:
    return Evidence(chunk_id=f"c{i}", source_id="s", company="Northwind", fiscal_year=2024, doc_type="report",
                    text=f"text {i}", score=0.02)


class BarrierGrader:
    """Admits even-numbered chunks; each call waits until `parties` calls are in flight at once (or times out)."""

    def __init__(self, parties: int, timeout: float = 5.0) -> None:
        self.barrier, self.timeout = threading.Barrier(parties), timeout
        self.threads: set[int] = set()

    def grade(self, question, evidence, companies=()):  # type: ignore[no-untyped-def]
        self.threads.add(threading.get_ident())
        self.barrier.wait(self.timeout)
        return int(evidence.chunk_id[1:]) % 2 == 0


def test_the_calls_are_in_flight_together_and_the_verdicts_keep_the_order():
    grader = BarrierGrader(parties=6)
    verdicts = grade_all(grader, "q", [doc(i) for i in range(6)], ["Northwind"], concurrency=8)
    assert verdicts == [True, False, True, False, True, False]
    assert len(grader.threads) == 6


def test_one_at_a_time_never_has_two_calls_in_flight():
    grader = BarrierGrader(parties=2, timeout=0.2)
    with pytest.raises(threading.BrokenBarrierError):
        grade_all(grader, "q", [doc(0), doc(1)], [], concurrency=1)


def test_a_failing_call_fails_the_step_and_nothing_is_graded_for_no_documents():
    class Failing:
        def grade(self, question, evidence, companies=()):  # type: ignore[no-untyped-def]
            if evidence.chunk_id == "c2":
                raise RuntimeError("server refused")
            return True

    with pytest.raises(RuntimeError, match="server refused"):
        grade_all(Failing(), "q", [doc(i) for i in range(4)], [], concurrency=4)
    assert grade_all(Failing(), "q", [], []) == []
    with pytest.raises(ValueError, match="at least 1"):
        grade_all(Failing(), "q", [doc(0)], [], concurrency=0)


def test_the_calls_see_the_callers_context():
    import contextvars

    var: contextvars.ContextVar[str] = contextvars.ContextVar("step", default="none")
    seen: list[str] = []

    class Reader:
        def grade(self, question, evidence, companies=()):  # type: ignore[no-untyped-def]
            seen.append(var.get())
            return True

    var.set("grade_documents")
    grade_all(Reader(), "q", [doc(i) for i in range(3)], [], concurrency=3)
    assert seen == ["grade_documents"] * 3
