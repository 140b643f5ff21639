"""Routing measured on companies the router never saw: for each company a suite's route questions are about, the
offline router is fitted again on the labelled examples that do not name it (app/routing/examples.jsonl) and
asked those questions; the router fitted on every example, as the application uses it, is asked the same
questions the same way beside it. The gap between the two is what the examples' company names teach.

Only first turns are asked (a follow-up's route depends on the thread it is in, which this replay does not
have), and only with the offline router: an LLM router has no examples to hold a company out of.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from app.routing.decision import FLAGS

Predict = Callable[[str], Mapping[str, bool]]


def training_without(examples: Sequence[Mapping[str, Any]], company: str) -> list[int]:
    """The examples that neither list the company nor name it (or its first word) in their question."""
    name = company.casefold()
    first = name.split()[0] if name.split() else name
    return [i for i, e in enumerate(examples)
            if name not in {c.casefold() for c in e.get("companies") or []}
            and first not in str(e["question"]).casefold()]


def held_out_routes(asked: Sequence[tuple[str, str, str]], embed: Callable[[Sequence[str]], Any],
                    known_companies: Sequence[str], known_tickers: Mapping[str, str] | None = None,
                    latest_report_year: int | None = None, examples: Sequence[Mapping[str, Any]] | None = None
                    ) -> dict[str, dict[str, dict[str, bool]]]:
    """{turn id: {"held_out": flags, "in_sample": flags}} for each (turn id, company, question) asked: the flags
    of a router fitted without the company's examples, and of one fitted on all of them."""
    from app.routing.classifier import OfflineRouter
    from app.routing.examples import load_examples

    if not asked:
        return {}
    examples = list(load_examples() if examples is None else examples)
    vectors = np.asarray(embed([e["question"] for e in examples]), dtype=np.float64)
    questions = np.asarray(embed([q for _, _, q in asked]), dtype=np.float64)

    def flags(router: Any, i: int) -> dict[str, bool]:
        decision = router.predict(asked[i][2], known_companies=list(known_companies), embedding=questions[i],
                                  known_tickers=known_tickers, latest_report_year=latest_report_year)
        return {f: bool(getattr(decision, f)) for f in FLAGS}

    whole = OfflineRouter.fit(examples, embed, embeddings=vectors)
    out = {tid: {"in_sample": flags(whole, i)} for i, (tid, _, _) in enumerate(asked)}
    for company in sorted({c for _, c, _ in asked}):
        keep = training_without(examples, company)
        router = OfflineRouter.fit([examples[i] for i in keep], embed, embeddings=vectors[keep])
        for i, (tid, c, _) in enumerate(asked):
            if c == company:
                out[tid]["held_out"] = flags(router, i)
    return out
