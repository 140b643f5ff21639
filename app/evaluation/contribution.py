"""`prov eval contribution`: what each admitted block of a turn's prompt did for its answer.

For every block of the turn's prompt (evidence chunk, news item, calculation, memory record), the turn's last
steps run again from its recorded state without that block (app/runtime.Runtime.regenerate: no routing, no
retrieval, nothing written), and the answer is compared with the one regenerated with every block:

- `needed`: without it the answer is the declared insufficient one;
- `changes the answer`: the answer's words change (citation numbers aside), with the figures it gained or lost
  and whether every figure still stands in the blocks it cites (grounding);
- `redundant or unused`: the answer is the same without it, which says nothing about the block being noise.
"""

from __future__ import annotations

import re
from typing import Any

from app.evaluation.stages import Observed, Passage, ungrounded
from app.evaluation.suites import Turn

_MARKERS = re.compile(r"\s*\[\d+\]")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _words(answer: str) -> str:
    return " ".join(_MARKERS.sub("", answer).split())


def _grounded(regenerated: dict[str, Any]) -> bool:
    texts = regenerated["block_texts"]
    observed = Observed(suite="contribution", turn=Turn(id="-", ask="-"), status=regenerated["status"],
                        answer=regenerated["answer"], blocks=[Passage("", t, n) for n, t in texts.items()])
    return not ungrounded(observed)


def contribution(runtime: Any, thread: str, turn: int) -> dict[str, Any]:
    """Each block's effect on the turn's answer (module docstring), in prompt order."""
    full = runtime.regenerate(thread, turn)
    base = _words(full["answer"])
    figures = set(_NUMBER.findall(base))
    rows = []
    calls = len(full["calls"])
    for block in full["blocks"]:
        without = runtime.regenerate(thread, turn, drop=block["n"])
        calls += len(without["calls"])
        words = _words(without["answer"])
        if without["status"] != "answered" and full["status"] == "answered":
            effect = "needed: without it the answer is insufficient"
        elif words != base:
            effect = "changes the answer"
        else:
            effect = "redundant or unused"
        now = set(_NUMBER.findall(words))
        rows.append({"block": block["n"], "kind": block["kind"], "source_id": block["source_id"],
                     "header": block["header"], "effect": effect, "status": without["status"],
                     "figures_lost": sorted(figures - now), "figures_gained": sorted(now - figures),
                     "grounded": _grounded(without), "answer": without["answer"]})
    return {"thread": thread, "turn": turn, "model": full["model"], "status": full["status"],
            "answer": full["answer"], "grounded": _grounded(full), "original": full["original"], "blocks": rows,
            "calls": calls, "log": full["log"]}
