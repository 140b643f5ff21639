"""The labelled routing examples (examples.jsonl, one JSON object a line) and the sample corpus they were first
written against.

Each example has a `question`, the five flags of app/routing/decision.py and, when it names one, the `company` it is
about (the grouped folds of the accuracy test hold out each company in turn).
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

