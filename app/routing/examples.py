"""The labelled routing examples (examples.jsonl, one JSON object a line) and the sample corpus they were first
written against.

Each example has a `question`, the five flags of app/routing/decision.py, the `companies` it names (as a knowledge
base would store them; the grouped folds of the accuracy test hold out each company in turn), optionally the
`tickers` it uses ({ticker: company}) and a `note` on why it is labelled so. Most companies are invented; a few are
deliberately ones a knowledge base would not hold (ABSENT_COMPANIES): those questions still go to the reports, which
then report no evidence.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Mapping, Sequence

EXAMPLES_PATH = Path(__file__).with_name("examples.jsonl")
# The sample corpus (examples/CORPUS.md): the companies and tickers the labelled examples talk about. They are the
# defaults for fitting on those examples and for the tests; nothing in the feature code depends on them.
DEFAULT_COMPANIES: tuple[str, ...] = ("Northwind Logistics", "Helio Renewables", "Copperleaf Foods")
DEFAULT_TICKERS: dict[str, str] = {"NWL": "Northwind Logistics", "HLR": "Helio Renewables", "CLF": "Copperleaf Foods"}
# Companies the examples name as ones the knowledge base does not hold.
ABSENT_COMPANIES: tuple[str, ...] = ("Zephyr Airlines", "Acme Widgets", "Greystone Bank", "Brambleworth Pharma",
                                     "Pinecrest Mining", "Quayside Optics", "Harlow Tubing Inc.")
SAMPLE_LATEST_REPORT_YEAR = 2024
"""The latest fiscal year the sample corpus has reports for: the labelled examples were written against it.
At prediction time the caller passes its own knowledge base's latest report year."""



def load_examples(path: str | Path | None = None) -> list[dict[str, Any]]:
    """The labelled routing examples (one JSON object a line)."""
    p = Path(path) if path else EXAMPLES_PATH
    out = []
    with p.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                out.append(json.loads(line))
    return out


def examples_hash(examples: Sequence[Mapping[str, Any]] | None = None, path: str | Path | None = None) -> str:
    """sha256 (16 hex) of the examples file, or of the canonical JSON of the given examples."""
    if examples is None:
        return hashlib.sha256(Path(path or EXAMPLES_PATH).read_bytes()).hexdigest()[:16]
    blob = "\n".join(json.dumps(dict(e), sort_keys=True) for e in examples)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]



def example_companies(examples: Sequence[Mapping[str, Any]]) -> list[str]:
    """The companies a knowledge base would hold for these examples: the sample corpus's and every company an
    example names, less ABSENT_COMPANIES. Fitting treats them as known, as the application treats its catalog."""
    named = [c for e in examples for c in e.get("companies") or []]
    return [c for c in dict.fromkeys([*DEFAULT_COMPANIES, *named]) if c not in ABSENT_COMPANIES]


def example_tickers(examples: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The sample corpus's tickers and those the examples state."""
    tickers = dict(DEFAULT_TICKERS)
    for e in examples:
        tickers.update(e.get("tickers") or {})
    return tickers
