"""prov eval's suites and per-stage metrics (app/evaluation/suites.py, stages.py, runner.compare), on records
written here: each stage scores its own work, so an answer right by luck does not hide a broken stage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.errors import BadInput
from app.evaluation.runner import compare, manifest_diff
from app.evaluation.scoring import question_from_record
from app.evaluation.stages import Observed, Passage, stage_metrics, ungrounded
from app.evaluation.suites import Gold, Turn, load_suites

REPORT = "corpus/reports/ternline-fy2024.md"


def _turn(tid: str = "a1", **extra: object) -> Turn:
    return Turn(id=tid, ask="What was Ternline's FY2024 revenue?", **extra)  # type: ignore[arg-type]


def _question(facts: list[dict[str, object]], expect: str = "answered") -> object:
    return question_from_record({"id": "q", "question": "q", "kind": "statement_figure", "expect": expect,
                                 "facts": facts})


def test_route_is_scored_per_flag_and_per_company() -> None:
    right = Observed("s/routing", _turn("r1", route={"needs_retrieval": True}, company="Ternline"),
                     route={"needs_retrieval": True})
    wrong = Observed("s/routing", _turn("r2", route={"needs_calculation": True, "needs_retrieval": True},
                                        company="Pellbury"), route={"needs_retrieval": True})
    route = stage_metrics([right, wrong])["route"]
    assert route["rate"] == 0.5 and route["per_flag"] == {"needs_retrieval": 1.0, "needs_calculation": 0.0}
    assert route["by_company"] == {"Pellbury": 0.0, "Ternline": 1.0}


def test_retrieval_and_reduction_follow_the_gold_passage() -> None:
    gold = (Gold(REPORT, "revenue rose 4.2% to £812.0m"),)
    page = Passage(REPORT, "In FY2024 revenue rose 4.2% to **£812.0m**, driven by parcel volumes.", n=2)
    other = Passage(REPORT, "Operating profit was £40.1m.", n=1)
    kept = Observed("s/answers", _turn("a1", gold=gold), hits=[other, page], evidence=[page], blocks=[other, page],
                    cited=[2], status="answered", answer="Ternline's revenue was £812.0m in FY2024 [2].")
    lost = Observed("s/answers", _turn("a2", gold=gold), hits=[page], evidence=[page], blocks=[other],
                    status="answered", answer="Operating profit was £40.1m [1].")
    missed = Observed("s/answers", _turn("a3", gold=gold), hits=[other] * 6 + [page])
    metrics = stage_metrics([kept, lost, missed])
    assert metrics["retrieval"]["hit@5"] == round(2 / 3, 4)
    assert metrics["retrieval"]["mrr@10"] == round((1 / 2 + 1 + 1 / 7) / 3, 4)
    reduction = metrics["reduction"]
    # over every question with gold passages, not only those the plain search found: the turn searches itself
    assert (reduction["n"], reduction["evidence_rate"], reduction["prompt_rate"], reduction["cited_rate"]) == (
        3, round(2 / 3, 4), round(1 / 3, 4), round(1 / 3, 4))
    assert reduction["lost"] == ["a2", "a3"]


def test_a_two_company_question_needs_every_gold_passage_when_it_says_so() -> None:
    golds = (Gold(REPORT, "Operating margin 6.7%"), Gold("corpus/reports/pellbury.md", "Operating margin 9.1%"))
    one = [Passage(REPORT, "| Operating margin | 6.7% | 6.4% |", 1)]
    either = Observed("s/answers", _turn("n1", gold=golds), blocks=one, evidence=one)
    both = Observed("s/answers", _turn("n2", gold=golds, needs_all=True), blocks=one, evidence=one)
    assert stage_metrics([either, both])["reduction"]["lost"] == ["n2"]


def test_trace_blocks_that_must_be_in_the_prompt_or_stay_out() -> None:
    turn = _turn("t1.1", blocks_in=("news/tl-1",), blocks_out=("corpus/news/injection.md",))
    o = Observed("s/traces", turn, blocks=[Passage("news/tl-1", "x", 1), Passage("corpus/news/injection.md", "y", 2)])
    reduction = stage_metrics([o])["reduction"]
    assert reduction["blocks_in"] == 1.0 and reduction["blocks_out"] == 0.0
    assert reduction["block_misses"] == ["t1.1: corpus/news/injection.md admitted"]


def test_a_citation_to_a_block_not_in_the_prompt_is_invalid_and_an_uncited_answer_too() -> None:
    blocks = [Passage(REPORT, "Revenue was £812.0m.", 1)]
    good = Observed("s/answers", _turn("c1"), status="answered", answer="Revenue was £812.0m [1].", blocks=blocks)
    bad = Observed("s/answers", _turn("c2"), status="answered", answer="Revenue was £812.0m [4].", blocks=blocks)
    bare = Observed("s/answers", _turn("c3"), status="answered", answer="Revenue was £812.0m.", blocks=blocks)
    citations = stage_metrics([good, bad, bare])["citation_validity"]
    assert citations["rate"] == round(1 / 3, 4) and citations["invalid"] == ["c2", "c3"]


def test_grounding_wants_each_figure_in_a_block_its_sentence_cites() -> None:
    blocks = [Passage(REPORT, "Revenue was £812.0m (FY2023: £779.3m).", 1), Passage("calc", "growth = 4.2%", 2)]
    grounded = Observed("s/answers", _turn("g1"), status="answered", blocks=blocks,
                        answer="Revenue was £812.0m in FY2024 [1]. It grew 4.2% [2].")
    assert ungrounded(grounded) == ["2024"]  # the year stands in the block's header, not in its text here
    invented = Observed("s/answers", _turn("g2"), status="answered", blocks=blocks,
                        answer="Revenue was £812.0m [1]. It grew 5.1% [1].")
    assert ungrounded(invented) == ["5.1"]
    assert stage_metrics([invented])["grounding"]["ungrounded"] == {"g2": ["5.1"]}
    # served from the answer cache: no prompt this turn, its blocks were checked where it was first given
    cached = Observed("s/traces", _turn("g3"), status="answered", blocks=[],
                      answer="Revenue was £812.0m in FY2024 [1].")
    assert stage_metrics([invented, cached])["grounding"]["n"] == 1


def test_correctness_insufficient_and_constraints_are_scored_apart() -> None:
    fact = [{"figure": "812.0", "unit": "£m", "lead": True}]
    right = Observed("s/answers", _turn("k1", question=_question(fact)), status="answered",
                     answer="Ternline's revenue was £812.0m in FY2024 [1].")
    wrong = Observed("s/answers", _turn("k2", question=_question(fact)), status="answered",
                     answer="Ternline's revenue was £779.3m in FY2023 [1].")
    declared = Observed("s/unanswerable", _turn("u1", question=_question([], "insufficient")),
                        status="insufficient", answer="Insufficient evidence: …")
    bluffed = Observed("s/unanswerable", _turn("u2", question=_question([], "insufficient")), status="answered",
                       answer="See the table of contents [1].")
    unit = Observed("s/constraints", _turn("x1", pattern=r"£0\.81\s?bn", constraint="units"), status="answered",
                    answer="Ternline's revenue was £0.81bn in FY2024 (stated as £812.0m) [1].")
    unkept = Observed("s/constraints", _turn("x2", pattern=r"£0\.81\s?bn", constraint="units"), status="answered",
                      answer="Ternline's revenue was £812.0m in FY2024 [1].")
    metrics = stage_metrics([right, wrong, declared, bluffed, unit, unkept])
    assert metrics["correctness"]["rate"] == 0.5 and metrics["correctness"]["wrong"] == ["k2"]
    assert metrics["insufficient"]["rate"] == 0.5 and metrics["insufficient"]["boilerplate"] == 1
    assert metrics["constraints"]["rate"] == 0.5 and metrics["constraints"]["broken"] == ["x2"]


def test_memory_checks_writes_supersedes_and_the_cache() -> None:
    wrote = Observed("s/traces", _turn("m1", memory={"write": "fact", "supersede": True}),
                     written=[{"type": "fact", "supersedes": "r1"}])
    missed = Observed("s/traces", _turn("m2", memory={"write": "fact", "cache_hit": False}), cache_hit=True)
    memory = stage_metrics([wrote, missed])["memory"]
    assert (memory["write"], memory["supersede"], memory["cache"]) == (0.5, 1.0, 0.0)
    assert memory["failed"] == ["m2: write 'fact'", "m2: cache_hit False"]


def test_a_stage_with_nothing_to_score_has_no_rate() -> None:
    metrics = stage_metrics([])
    assert all(v["n"] == 0 for v in metrics.values())
    assert metrics["correctness"]["rate"] is None and metrics["retrieval"]["hit@5"] is None


def test_compare_shows_each_stages_delta_and_the_changed_turns_manifest() -> None:
    saved = {"route": {"rate": 1.0}, "correctness": {"rate": 0.75},
             "turns": [{"id": "a1", "status": "answered", "right": True, "answer": "x", "route": {},
                        "manifest": [{"block": "evidence:1", "producer": "retrieve", "rule": "graded", "items": ["c1"]},
                                     {"block": "news:1", "producer": "news", "rule": "newest"}]}]}
    now = {"route": {"rate": 1.0}, "correctness": {"rate": 0.5},
           "turns": [{"id": "a1", "status": "insufficient", "right": False, "answer": "y", "route": {},
                      "manifest": [{"block": "news:1", "producer": "news", "rule": "newest"}]},
                     {"id": "a2", "status": "answered", "right": True, "answer": "z", "route": {}, "manifest": []}]}
    report = compare(now, saved)
    assert report["stages"]["correctness"] == {"saved": 0.75, "now": 0.5, "delta": -0.25, "rates": {"rate": -0.25}}
    assert report["stages"]["route"]["delta"] == 0.0 and report["stages"]["grounding"]["delta"] is None
    [changed, new] = report["changed"]
    assert changed["id"] == "a1" and changed["status"] == ["answered", "insufficient"]
    assert changed["manifest"]["dropped"] == [{"block": "evidence:1", "producer": "retrieve", "rule": "graded"}]
    assert changed["manifest"]["reranked"] == [{"block": "news:1", "producer": "news", "rule": "newest", "from": 1,
                                                "to": 0}]
    assert new == {"id": "a2", "change": "new question"}
    assert manifest_diff([], []) == {"added": [], "dropped": [], "reranked": []}


def _suites(tmp_path: Path, name: str, lines: list[object], corpus: str = "corpus") -> Path:
    folder = tmp_path / "mine"
    folder.mkdir(exist_ok=True)
    (tmp_path / "mine" / corpus).mkdir(exist_ok=True)
    (folder / "suite.json").write_text(json.dumps({"corpus": corpus}))
    (folder / f"{name}.jsonl").write_text("\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines))
    return tmp_path


def test_suites_load_with_their_corpus_and_bad_records_name_file_and_line(tmp_path: Path) -> None:
    root = _suites(tmp_path, "traces", [{"id": "t", "turns": [
        {"ask": "What was the revenue?", "expect": "clarification", "route": {"needs_clarification": True}},
        {"ask": "Ternline, FY2024", "facts": [{"figure": "812.0", "unit": "£m"}], "blocks_in": [REPORT]}]}])
    [suite] = load_suites(["mine"], root)
    assert suite.name == "mine/traces" and suite.corpus == (tmp_path / "mine" / "corpus").resolve()
    first, second = suite.cases[0].turns
    assert first.question is not None and first.question.expect == "clarification"
    assert second.blocks_in == (REPORT,) and second.question is not None and second.question.facts
    _suites(tmp_path, "routing", [{"id": "r", "question": "q?", "route": {"needs_everything": True}}])
    with pytest.raises(BadInput, match=r"routing.jsonl:1: r: unknown route flags"):
        load_suites(["mine/routing"], root)
    _suites(tmp_path, "routing", [{"id": "r", "question": "q?"}, "{not json"])
    with pytest.raises(BadInput, match=r"routing.jsonl:2:"):
        load_suites(["mine/routing"], root)
    with pytest.raises(BadInput, match="no suite named 'theirs'"):
        load_suites(["theirs"], root)


def test_the_shipped_suites_load_and_none_of_their_questions_is_a_router_example() -> None:
    """The suites under evals/ parse, and the router never trained on a question it is scored on."""
    from app.routing.examples import load_examples

    suites = load_suites()
    asked = {t.ask.casefold().strip() for s in suites for c in s.cases for t in c.turns}
    assert len(asked) >= 50
    trained = {str(e["question"]).casefold().strip() for e in load_examples()}
    assert not asked & trained


def test_routing_is_also_scored_on_companies_held_out_of_the_routers_training() -> None:
    from app.evaluation.held_out import training_without

    examples = [{"question": "What was Ternline's revenue?", "companies": ["Ternline Rail"]},
                {"question": "How did ternline do in 2024?", "companies": []},
                {"question": "Write a poem", "companies": []},
                {"question": "Pellbury's margin?", "companies": ["Pellbury Retail"]}]
    assert training_without(examples, "Ternline Rail") == [2, 3]  # named, listed or not, the company is left out
    turn = _turn("h1", route={"needs_retrieval": True, "needs_calculation": False}, company="Ternline Rail")
    missed = Observed("s/routing", turn, route={"needs_retrieval": True},
                      held_out={"held_out": {"needs_retrieval": True, "needs_calculation": True},
                                "in_sample": {"needs_retrieval": True, "needs_calculation": False}})
    other = Observed("s/routing", _turn("h2", route={"needs_retrieval": True}, company="Pellbury Retail"),
                     route={"needs_retrieval": True},
                     held_out={"held_out": {"needs_retrieval": True}, "in_sample": {"needs_retrieval": True}})
    held = stage_metrics([missed, other])["route"]["held_out"]
    assert (held["n"], held["rate"], held["in_sample_rate"]) == (2, 0.5, 1.0)
    assert held["per_flag"] == {"needs_retrieval": 1.0, "needs_calculation": 0.0}
    assert held["by_company"]["Ternline Rail"] == {"held_out": 0.0, "in_sample": 1.0}
    assert "held_out" not in stage_metrics([Observed("s/routing", turn, route={"needs_retrieval": True})])["route"]


def test_an_answer_that_rests_on_no_block_is_not_held_to_citing_one() -> None:
    blocks = [Passage(REPORT, "Revenue was £812.0m.", 1)]
    memory = Observed("s/traces", _turn("m1"), status="answered", answer="Your favourite colour is purple.")
    declared = Observed("s/answers", _turn("d1"), status="answered", blocks=blocks,
                        answer="No. Ternline's reports held here do not mention layoffs: a text search of every "
                               "passage found none.")
    uncited = Observed("s/answers", _turn("c1"), status="answered", answer="Revenue was £812.0m.", blocks=blocks)
    citations = stage_metrics([memory, declared, uncited])["citation_validity"]
    assert citations["n"] == 1 and citations["invalid"] == ["c1"]
