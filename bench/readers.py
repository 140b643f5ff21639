"""How long the deterministic readers take on a page, and whether any page makes one of them blow up. Offline.

A reader built on regular expressions can take exponential time on text it was not written for: a pattern with
a repeated group whose parts can share the same characters ('\\s?…\\s+' inside '(…){2,}') tries every way to split
a run of spaces when the match fails. A release's table row of ten widely spaced cells once made sentence
splitting take minutes on one page. This bench measures, in one run:

- the pattern as it was and as it is, side by side, on rows of 3 to 7 widely spaced cells (the old one grows
  about fourfold per cell; the ratio is printed);
- every reader the fact step runs (sentences, statements, figures, and the facts for three questions) on every page of FinanceBench's
  30 dev filings (../shared/data, 3,169 pages; skipped when absent) and on the bundled sample corpus: the total,
  the median and the slowest pages, each page's time per reader.

Goal (issue 18): no page over 1 s in any reader. Usage: python bench/readers.py [--limit N] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import signal
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PAGES = REPO.parent / "shared" / "data" / "financebench" / "dev_corpus_pages.jsonl.gz"
SAMPLE = REPO / "examples" / "corpus"
GOAL_PAGE_S = 1.0
BEFORE = re.compile(r"(?<![\d,.])((?:\(?[$€£]?\s?\d(?:[\d,.]*\d)?\s?\)?\s?%?\s+){2,})"
                    r"(?=[A-Z][a-z]+(?:\s+[a-z]+){2,}\b)")
"""app/text/sentences._CELLS_THEN_SENTENCE before its cells were made atomic: the pattern measured against."""
CELLS = ["2,224", "2,118", "5.0", "9.0", "(4.0)", "4,341", "4,147", "4.7", "10.1", "(5.4)"]


def spaced_row(cells: int) -> str:
    """A release's row as pypdf writes it: a label, then cells parted by runs of 5 to 13 spaces, no sentence after."""
    return "International " + "".join(f"{CELLS[i % len(CELLS)]}{' ' * (5 + 4 * (i % 3))}" for i in range(cells)) + "\n"


CUT_OFF_S = 20
"""A reader still running after this many seconds on one page is stopped and reported at the cut-off."""


class _CutOff(Exception):
    pass


def _stop(signum, frame):  # noqa: ARG001 (a signal handler's signature)
    raise _CutOff


def timed(fn, *args) -> float:
    """Seconds of one call, at most CUT_OFF_S (SIGALRM stops a call that runs longer)."""
    signal.signal(signal.SIGALRM, _stop)
    signal.alarm(CUT_OFF_S)
    start = time.perf_counter()
    try:
        fn(*args)
    except _CutOff:
        return float(CUT_OFF_S)
    finally:
        signal.alarm(0)
    return time.perf_counter() - start


def pattern_rows() -> list[dict]:
    from app.text.sentences import _CELLS_THEN_SENTENCE

    out = []
    for cells in range(3, 8):
        row = spaced_row(cells)
        before = timed(BEFORE.sub, lambda m: m.group(0), row)
        now = timed(_CELLS_THEN_SENTENCE.sub, lambda m: m.group(0), row)
        out.append({"cells": cells, "before_s": before, "now_s": now, "ratio": before / max(now, 1e-9)})
    return out


def pages(limit: int | None) -> list[tuple[str, str, int]]:
    found: list[tuple[str, str, int]] = []
    if PAGES.exists():
        with gzip.open(PAGES, "rt") as f:
            for line in f:
                row = json.loads(line)
                found.append((f"{row['doc_name']}:p{row['page_num'] + 1}", row["text"], 2020))
    for path in sorted(SAMPLE.rglob("*")):
        if path.suffix in (".txt", ".md"):
            found.append((str(path.relative_to(REPO)), path.read_text(encoding="utf-8"), 2024))
    return found[:limit] if limit else found


def readers():
    from app.evidence import Evidence
    from app.facts.query import facts_for, read_query
    from app.facts.readers import extract_figures
    from app.text.sentences import split_sentences
    from app.text.statements import read_statement

    queries = [read_query(q, ["Bench"]) for q in (
        "What was Bench's revenue?", "How many employees does Bench have?",
        "By how much did Bench's operating income grow?")]

    def evidence(text: str, year: int) -> list[Evidence]:
        return [Evidence(text=text, company="Bench", fiscal_year=year, source_id="bench", chunk_id="bench::0")]

    def figures(text: str, year: int) -> None:
        extract_figures(evidence(text, year))

    def facts(text: str, year: int) -> None:
        for query in queries:
            facts_for(query, evidence(text, year))

    return {"sentences": lambda text, year: split_sentences(text), "statements": lambda text, year: read_statement(text),
            "figures": figures, "facts": facts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="read only the first N pages")
    parser.add_argument("--out", default=None, help="write the measurements as JSON")
    args = parser.parse_args()
    print("pattern before vs now, on a row of widely spaced cells (seconds):")
    rows = pattern_rows()
    for r in rows:
        print(f"  {r['cells']} cells: before {r['before_s']:.4f}  now {r['now_s']:.6f}  ratio {r['ratio']:,.0f}x")
    each = readers()
    times: dict[str, dict[str, float]] = {}
    for name, text, year in pages(args.limit):
        times[name] = {}
        for reader, fn in each.items():
            try:
                times[name][reader] = timed(fn, text, year)
            except Exception as exc:  # a reader that fails on a page is reported, not hidden
                times[name][reader] = float("nan")
                print(f"  {name}: {reader} raised {type(exc).__name__}: {exc}")
    if not times:
        raise SystemExit("no pages to read")
    totals = {name: sum(t.values()) for name, t in times.items()}
    print(f"\n{len(times)} pages: total {sum(totals.values()):.1f} s, median {statistics.median(totals.values()):.4f} s "
          f"per page (all readers)")
    for reader in each:
        spent = [t[reader] for t in times.values()]
        print(f"  {reader:<11} total {sum(spent):7.1f} s   slowest page {max(spent):.3f} s")
    print("slowest pages:")
    for name in sorted(totals, key=totals.get, reverse=True)[:5]:
        print(f"  {name:<55} {totals[name]:.3f} s  " + "  ".join(f"{r} {t:.3f}" for r, t in times[name].items()))
    worst = max(totals.values())
    print(f"\ngoal: no page over {GOAL_PAGE_S:.1f} s: {'met' if worst <= GOAL_PAGE_S else 'NOT met'} "
          f"(slowest {worst:.3f} s)")
    if args.out:
        Path(args.out).write_text(json.dumps({"pattern": rows, "pages": times}, indent=1))


if __name__ == "__main__":
    main()
