"""Multi-turn numeric conversations on report pages Prov has never seen: ConvFinQA (dev), offline.

Reads ../shared/data/convfinqa/convfinqa_dev.jsonl (not part of the repo; without it this prints so and exits 0).
Each conversation's page (text, then its table as a markdown table, then the text after it) is written as a
markdown source with the company (from the record id) and fiscal year in its front matter; all pages go into
one knowledge base; then each conversation is held on its own thread, turn by turn, as `prov run --thread` would.

Scored by the shared strict scorer (app/evaluation/scoring.py, `first_sentence_states`): a turn is right when it
is answered and its FIRST sentence, as the scorer counts it ("(stated as …)" asides and sentences that show a
computation taken out: an answer's inputs are not its answer), states the executed answer as a figure fact with
its sign. The gold is a bare number whose rounding it does not state, so it is held to one decimal below 100 and
to whole units from 100 up, never to more decimals than it writes (60.94: 60.9 or 60.94, not 61; 6955.22388:
6,955; 4.0: 4); a scale word counts as the page's unit and any currency is accepted; a ratio may be read as a
percentage only when |gold| < 1.5 (0.0814: 8.1%, or 0.081 written as a ratio; 24.69 is not "24.69%"); a gold
that is a year (2012) is stated by that year as a word.

Beside it, in the same run and labelled so, the old lenient figure: the expected number, or it times 100 when
|gold| < 1.5, anywhere in the answer (inputs and asides included, any status, sign only from a written minus) to
within 0.5% or 0.051. Prints both for all turns, first turns and follow-ups, the answers' statuses, how many
clarification questions were asked (each is answered with the page's company and year, as its reader would), and
seconds per turn. PROV_BENCH_VERBOSE=1 prints each turn with both verdicts.
Usage: python bench/convfinqa.py [--conversations 40] [--offset 0]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "convfinqa" / "convfinqa_dev.jsonl"
sys.path.insert(0, str(REPO))

from app.evaluation.scoring import first_sentence_states  # noqa: E402


def page_markdown(record: dict) -> tuple[str, int, str]:
    match = re.match(r"(?:Single_|Double_)?([A-Z.]+)/(\d{4})/", record["id"])
    company, year = (match.group(1), int(match.group(2))) if match else ("Unknown", 2000)
    table = record["doc"]["table"]
    columns = list(table)
    rows = list(dict.fromkeys(r for c in columns for r in table[c]))
    lines = ["| | " + " | ".join(columns) + " |", "|" + "---|" * (len(columns) + 1)]
    lines += [f"| {row} | " + " | ".join(str(table[c].get(row, "")) for c in columns) + " |" for row in rows]
    text = (f"---\ntitle: {company} {year} report, one page\ncompany: {company}\nfiscal_year: {year}\n"
            f"doc_type: report\n---\n\n{record['doc']['pre_text']}\n\n" + "\n".join(lines)
            + f"\n\n{record['doc']['post_text']}\n")
    return company, year, text


def is_right(status: str, answer: str, expected: float | str) -> bool:
    """The strict verdict (module docstring): answered, and the first sentence states the executed answer."""
    return status == "answered" and first_sentence_states(expected, answer)


def numbers_in(answer: str) -> list[float]:
    return [float(n.replace(",", "")) for n in re.findall(r"-?\d[\d,]*(?:\.\d+)?", answer)]


def lenient_right(answer: str, expected: float) -> bool:
    """The old lenient verdict, kept for comparison only: any number anywhere in the answer within 0.5% (or
    0.051) of the expected number, or of it times 100 when |expected| < 1.5."""
    targets = {expected, expected * 100} if abs(expected) < 1.5 else {expected}
    for value in numbers_in(answer):
        for target in targets:
            if abs(value - target) <= max(0.005 * abs(target), 0.051):
                return True
    return False


def _share(ok: int, n: int) -> str:
    return f"{ok}/{n} = {ok / max(n, 1):.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", type=int, default=40)
    parser.add_argument("--offset", type=int, default=0)
    args = parser.parse_args()
    if not DATA.exists():
        print(f"no ConvFinQA data at {DATA}: nothing to measure")
        return
    records = [json.loads(line) for line in DATA.open()][args.offset:args.offset + args.conversations]
    home = Path(tempfile.mkdtemp(prefix="prov-bench-convfinqa-"))
    pages = home / "pages"
    pages.mkdir()
    for i, record in enumerate(records):
        (pages / f"page-{i:03d}.md").write_text(page_markdown(record)[2])
    os.environ.update(PROV_HOME=str(home), PROV_ANSWER_CACHE="false", HF_HUB_OFFLINE="1")
    subprocess.run([sys.executable, "-m", "app.cli", "ingest", str(pages)], check=True, cwd=REPO, capture_output=True)

    from app.runtime import Runtime
    from app.settings import Settings

    runtime = Runtime(Settings())
    right = {"first": [0, 0], "follow-up": [0, 0]}  # strict
    lenient = {"first": 0, "follow-up": 0}
    statuses: dict[str, int] = {}
    turns = 0
    started = time.perf_counter()
    clarified = 0
    for record in records:
        company, year, _ = page_markdown(record)
        thread = None
        dialogue = record["dialogue"]
        for i, (question, expected) in enumerate(zip(dialogue["conv_questions"], dialogue["executed_answers"])):
            result = runtime.run(question, thread)
            while result.status == "clarification":  # the user knows which report they are reading
                clarified += 1
                result = runtime.resume(result.thread_id, f"{company}, {year}")
            thread = result.thread_id
            kind = "first" if i == 0 else "follow-up"
            strict = is_right(result.status, result.answer, expected)
            loose = lenient_right(result.answer, float(expected))
            right[kind][1] += 1
            right[kind][0] += strict
            lenient[kind] += loose
            if os.environ.get("PROV_BENCH_VERBOSE"):
                print(f"  {kind:<9} {question} | expected {expected} | strict {'right' if strict else 'wrong'}, "
                      f"lenient {'right' if loose else 'wrong'} | {result.status}: {result.answer[:150]}")
            statuses[result.status] = statuses.get(result.status, 0) + 1
            turns += 1
    elapsed = time.perf_counter() - started
    total_right = right["first"][0] + right["follow-up"][0]
    total_lenient = lenient["first"] + lenient["follow-up"]
    print(f"ConvFinQA dev, conversations {args.offset}..{args.offset + len(records) - 1}: {turns} turns")
    print(f"  {'turns right':<12}{'STRICT (shared scorer, first sentence)':<42}LENIENT (old: the number anywhere)")
    print(f"  {'all turns':<12}{_share(total_right, turns):<42}{_share(total_lenient, turns)}")
    for kind, (ok, n) in right.items():
        print(f"  {kind:<12}{_share(ok, n):<42}{_share(lenient[kind], n)}")
    print("  statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
          + f"; clarification questions asked and answered: {clarified}")
    print(f"  {elapsed / turns:.2f} s per turn (warm, offline: {runtime.models.provider})")


if __name__ == "__main__":
    main()
