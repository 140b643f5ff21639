"""Conversations, scored turn by turn: does Prov answer a follow-up as the question it stands for?

Our own conversations (bench/data/conversations.jsonl) on FinanceBench's dev filings (../shared/data, not part of
the repo: without it those conversations are skipped) and on the analyst corpus (examples/analyst). Each opens with
a question that names its company, measure and period, then follows up as an analyst does: another period ('And in
2022?', 'And the year before?'), another measure ('What about its membership fee revenue?'), another company
('What about Rheinfeld?'), the figures just given ('How did it change?', 'Which year was higher?'), a pronoun
('Did it increase compared to 2021?') or the thread's company left unsaid ('Which segment had the highest order
intake?'). None of these questions is in the dev sets the answer layer was built on. The 'dev' conversations
were written beside the changes that made them pass; the 'held_out' ones afterwards, their gold read from the
filings before Prov was asked: only those measure what generalises, and both are printed apart.

    python bench/conversations.py [--keep DIR] [--cache PATH]

Printed side by side, in one run, per corpus:
- Prov: each conversation on one thread, as a user asks it;
- naive: each turn on a new thread of its own, as a tool without a conversation answers it (the opening turns are
  the same question either way, so the follow-ups are where the two differ).
Each turn is scored by app/evaluation/scoring.py, strictly: the lead figure in the answer's first sentence (sign,
scale, rounding), the yes/no it opens with, names as whole phrases, the declared insufficient answer where the
filings do not hold what is asked; a distractor (the previous turn's year or measure) stated instead is counted.

--keep DIR reuses (or builds) the knowledge bases bench/financebench.py keeps there (DIR/financebench-plain,
DIR/analyst-plain): the FinanceBench one takes about 25 minutes to build on two cores without the embedding cache.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from app.evaluation.scoring import Question, question_from_record, score  # noqa: E402

CONVERSATIONS = REPO / "bench" / "data" / "conversations.jsonl"


def load(path: Path = CONVERSATIONS) -> list[dict[str, Any]]:
    """The conversations, each turn a scoring Question ('cv-fb-01.2' is the second turn of cv-fb-01)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        turns = [question_from_record({**t, "id": f"{record['id']}.{i}", "question": t["ask"]})
                 for i, t in enumerate(record["turns"], 1)]
        out.append({"id": record["id"], "corpus": record["corpus"], "set": record.get("set", "dev"), "turns": turns})
    return out


def ask(runtime: Any, question: Question, thread: str | None) -> tuple[str, str, str]:
    """(status, answer, thread) of one turn; on `thread` when given, else on a new one."""
    result = runtime.run(question.question, thread_id=thread, use_cache=False)
    return result.status, result.answer, result.thread_id


def run_corpus(runtime: Any, conversations: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Every turn answered on the conversation's thread (prov) and on a thread of its own (naive), scored."""
    out: dict[str, list[dict[str, Any]]] = {"prov": [], "naive": []}
    for conversation in conversations:
        thread = None
        for i, question in enumerate(conversation["turns"]):
            status, answer, thread = ask(runtime, question, thread)
            alone_status, alone, _ = ask(runtime, question, None) if i else (status, answer, "")
            for name, (s, a) in (("prov", (status, answer)), ("naive", (alone_status, alone))):
                scored = score(question, s, a)
                out[name].append({"id": question.id, "set": conversation["set"], "turn": i + 1,
                                  "ask": question.question, "status": s, "answer": a, "right": scored.right,
                                  "wrong_period_or_segment": scored.wrong_period_or_segment})
    return out


def summary(turns: list[dict[str, Any]]) -> dict[str, Any]:
    follow = [t for t in turns if t["turn"] > 1]
    return {"turns": len(turns), "right": sum(t["right"] for t in turns), "follow_ups": len(follow),
            "follow_ups_right": sum(t["right"] for t in follow),
            "distractor_stated": sum(bool(t["wrong_period_or_segment"]) for t in turns)}


def knowledge_base(name: str, keep: Path | None, cache: Path) -> Path | None:
    """The home of a corpus's knowledge base, built as bench/financebench.py builds it (plain ingest)."""
    import financebench as fb  # bench/financebench.py: its suites, ingestion and embedding cache

    fb.install_cache(cache)
    suite = (fb.financebench_suite(fb.DATA, ["plain"]) if name == "financebench" else fb.analyst_suite())
    if suite is None:
        return None
    home = (keep / f"{name}-plain") if keep else Path(tempfile.mkdtemp(prefix=f"prov-conv-{name}-"))
    fb.ingest_suite(suite, "plain", home)
    return home


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", type=Path, default=None, help="folder of kept knowledge bases (reused, or built)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "prov-bench" / "embeddings.sqlite")
    parser.add_argument("--out", type=Path, default=None, help="write every turn's answers and scores here (JSON)")
    args = parser.parse_args()

    import os

    from app.settings import Settings, get_settings

    conversations = load()
    results: dict[str, Any] = {}
    for corpus in ("financebench", "analyst"):
        mine = [c for c in conversations if c["corpus"] == corpus]
        home = knowledge_base(corpus, args.keep, args.cache)
        if home is None:
            print(f"== {corpus}: skipped (../shared/data/financebench is not here)")
            continue
        os.environ["PROV_HOME"] = str(home)
        get_settings.cache_clear()
        from app.runtime import Runtime

        runtime = Runtime(Settings())
        started = time.perf_counter()
        turns = run_corpus(runtime, mine)
        runtime.close()
        results[corpus] = turns
        print(f"== {corpus}: {len(mine)} conversations ({time.perf_counter() - started:.0f} s, each follow-up "
              f"asked twice)")
        for which, title in (("dev", "dev: written beside the changes they test"),
                             ("held_out", "held out: written after them, gold read from the filings first")):
            prov = summary([t for t in turns["prov"] if t["set"] == which])
            naive = summary([t for t in turns["naive"] if t["set"] == which])
            if not prov["turns"]:
                continue
            print(f"  {title}")
            print(f"    {'':34}{'all turns':>12}{'follow-ups':>14}{'distractor stated':>20}")
            for name, s in (("Prov (one thread per conversation)", prov), ("naive (a new thread per turn)", naive)):
                print(f"    {name:34}{s['right']:>6}/{s['turns']:<5}{s['follow_ups_right']:>8}/{s['follow_ups']:<5}"
                      f"{s['distractor_stated']:>20}")
        for t in turns["prov"]:
            if not t["right"]:
                print(f"  wrong: {t['id']} {t['ask']!r}: {t['answer'][:160]!r}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
