"""The memory layer on update/overwrite cases nobody on the team wrote: GoodAI LTM's Colours, Shopping and NameList.

Reads goodai_ltm/goodai_ltm_definitions.jsonl under the shared data folder (../shared/data beside the repo, or
$PROV_SHARED_DATA; not part of the repo: without it this prints so and exits 0). Each script of the three tasks
is replayed on a fresh memory store (SQLite in a temporary folder): every utterance goes through the write policy
(`decide`, then `remember`: statements written, list updates applied to the list), and each question is answered
by `answer_from_memory`. Scored strictly by what the dataset means, names compared as whole phrases by the shared
scorer (app/evaluation/scoring.py `same_name` / `same_names`: case, spacing and hyphens aside, nothing else):
- Colours: the answer's value is the expected colour, as a whole ('purple' is right, 'Purple.' is not): the
  latest statement wins;
- NameList: the answer lists every expected name, no other and none twice (order-free);
- Shopping: the answer, a JSON list of {item, quantity}, is the expected (item, quantity) pairs: the items
  exactly the expected ones (order-free, each once), each with its expected quantity.
Beside it, a naive baseline: "last statement wins, no memory structure": the value the policy reads from the
last statement before the question, on its own (no history of the key, no list carried over).

Usage: python bench/goodai_memory.py [path/to/goodai_ltm_definitions.jsonl]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.evaluation.scoring import NameFact, same_name, same_names  # noqa: E402
from app.memory.answers import answer_from_memory  # noqa: E402
from app.memory.policy import apply_list_update, decide, list_items, remember  # noqa: E402
from app.memory.records import MemoryStore  # noqa: E402

TASKS = ("Colours", "Shopping", "NameList")
FILE = "goodai_ltm_definitions.jsonl"
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


def data_dir() -> Path:
    """$PROV_SHARED_DATA/goodai_ltm when set, else shared/data/goodai_ltm beside the repo."""
    shared = os.environ.get("PROV_SHARED_DATA")
    return (Path(shared) if shared else Path(__file__).resolve().parents[2] / "shared/data") / "goodai_ltm"


# --- scoring ------------------------------------------------------------------------------------------------


def _names(got: Any) -> list[str]:
    if isinstance(got, str):
        try:
            got = json.loads(got)
        except ValueError:
            return []
    return [str(n) for n in got] if isinstance(got, list) else []


def _pairs(got: Any) -> list[tuple[str, int]] | None:
    if isinstance(got, str):
        try:
            got = json.loads(got)
        except ValueError:
            return None
    if not isinstance(got, list):
        return None
    pairs = []
    for entry in got:
        if isinstance(entry, dict) and "item" in entry and "quantity" in entry:
            pairs.append((str(entry["item"]), entry["quantity"]))
        elif isinstance(entry, (list, tuple)) and len(entry) == 2:
            pairs.append((str(entry[0]), entry[1]))
        else:
            return None
    try:
        return [(item, int(qty)) for item, qty in pairs]
    except (TypeError, ValueError):
        return None


def is_right(task: str, got: Any, expected: list) -> bool:
    """Whether `got` (the answer's value or text) means what `expected` (the dataset's expected_responses) does,
    names compared by the shared scorer (module docstring)."""
    if task == "Colours":
        return isinstance(got, str) and len(expected) == 1 and same_name(NameFact((str(expected[0]),)), got)
    if task == "NameList":
        names = _names(got)
        return bool(names) and same_names([str(e) for e in expected], names)
    if task == "Shopping":
        pairs = _pairs(got)
        wanted = [(str(item), int(qty)) for item, qty in expected]
        return pairs is not None and same_names([item for item, _ in wanted], [item for item, _ in pairs]) and all(
            any(same_name(NameFact((item,)), given) and got_qty == qty for given, got_qty in pairs)
            for item, qty in wanted)
    raise ValueError(f"not an update task: {task}")


# --- replay -------------------------------------------------------------------------------------------------


def _memory_answer(task: str, question: str, store: MemoryStore, user: str, thread: str) -> tuple[Any, str]:
    """What the memory layer answers: (the value to score, the text said)."""
    found = answer_from_memory(question, store, user=user, thread=thread)
    if found is None:
        return None, "(no answer from memory)"
    scored = found.text if task == "Shopping" else found.value
    return scored, found.text


def _baseline_answer(task: str, statements: list[str]) -> tuple[Any, str]:
    """Last statement wins, no memory structure: the policy's reading of the last statement alone."""
    if not statements:
        return None, "(no statement)"
    decision = decide(statements[-1])
    if task == "Shopping":
        items = list_items(apply_list_update(None, decision)) if decision.op else {}
        got = json.dumps([{"item": i, "quantity": q} for i, q in items.items()])
        return got, got
    value = decision.value if decision.kept else statements[-1]
    return ([value] if task == "NameList" else value), value


def replay(row: dict, index: int, root: Path) -> dict:
    """One script on a fresh store: per question, the memory answer's and the baseline's verdicts."""
    task = row["task"]
    store = MemoryStore(f"sqlite:///{root / f'{task}-{index}.sqlite'}")
    user, thread = "bench", f"goodai-{task}-{index}"
    expected = row["expected_responses"]
    statements: list[str] = []
    refused: list[str] = []
    outcomes = []
    for turn, (utterance, is_question) in enumerate(zip(row["script"], row["is_question"])):
        now = T0 + timedelta(seconds=turn)
        if not is_question:
            decision = decide(utterance)
            if remember(store, user, thread, decision, f"{thread}:{turn}", now=now) is None:
                refused.append(f"{utterance!r} ({decision.rule})")
            statements.append(utterance)
            continue
        got, said = _memory_answer(task, utterance, store, user, thread)
        base, base_said = _baseline_answer(task, statements)
        outcomes.append({"question": utterance, "right": is_right(task, got, expected), "said": said,
                         "baseline_right": is_right(task, base, expected), "baseline_said": base_said})
    store.engine.dispose()
    return {"task": task, "index": index, "expected": expected, "outcomes": outcomes, "refused": refused}


def run_update_cases(path: str | Path) -> dict:
    """Replay every Colours, Shopping and NameList script of the definitions file at `path`.

    Returns {"scores": {task: {"right", "total"}}, "baseline": {task: {"right", "total"}}, "failures": [{task,
    index, question, expected, said, refused}], "refused": [statements the policy did not keep]}. A script
    counts as right when every question in it is answered right."""
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    scores = {t: {"right": 0, "total": 0} for t in TASKS}
    baseline = {t: {"right": 0, "total": 0} for t in TASKS}
    failures: list[dict] = []
    refused: list[str] = []
    seen = {t: 0 for t in TASKS}
    with tempfile.TemporaryDirectory(prefix="goodai-memory-") as tmp:
        for row in rows:
            task = row.get("task")
            if task not in TASKS:
                continue
            result = replay(row, seen[task], Path(tmp))
            seen[task] += 1
            outcomes = result["outcomes"]
            right = bool(outcomes) and all(o["right"] for o in outcomes)
            scores[task]["total"] += 1
            scores[task]["right"] += right
            baseline[task]["total"] += 1
            baseline[task]["right"] += bool(outcomes) and all(o["baseline_right"] for o in outcomes)
            refused += [f"{task} {result['index']}: {r}" for r in result["refused"]]
            if not right:
                failures += [{"task": task, "index": result["index"], "question": o["question"],
                              "expected": result["expected"], "said": o["said"], "refused": result["refused"]}
                             for o in outcomes if not o["right"]] or [
                    {"task": task, "index": result["index"], "question": "(no question)",
                     "expected": result["expected"], "said": "", "refused": result["refused"]}]
    return {"scores": scores, "baseline": baseline, "failures": failures, "refused": refused}


def _line(scores: dict[str, dict[str, int]]) -> str:
    return ", ".join(f"{t} {s['right']}/{s['total']}" for t, s in scores.items())


def main(argv: list[str] | None = None, echo: Callable[[str], None] = print) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else data_dir() / FILE
    if not path.is_file():
        echo(f"GoodAI LTM data absent ({path}); nothing to run.")
        return 0
    result = run_update_cases(path)
    echo(f"memory layer (policy + records + answers): {_line(result['scores'])}")
    echo(f"baseline, last statement wins, no memory structure: {_line(result['baseline'])}")
    for failure in result["failures"]:
        echo(f"FAIL {failure['task']} #{failure['index']}: {failure['question'][:80]!r} expected "
             f"{failure['expected']} said {failure['said']!r}")
    for line in result["refused"]:
        echo(f"not kept: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
