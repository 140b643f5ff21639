"""The scorer the bench scripts share with `prov eval` (app/evaluation/scoring.py): a gold given as a bare number
(ConvFinQA), names as whole phrases (GoodAI LTM), and rank metrics (retrieval); and the bench scripts and the
eval stage scoring through it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from app.evaluation.scoring import (NameFact, bare_figure_facts, first_gold_rank, first_sentence_states,
                                    own_decimals, question_from_record, rank_metrics, same_name, same_names,
                                    score, states_bare)
from app.evaluation.stages import Observed, Passage, stage_metrics
from app.evaluation.suites import Gold, Turn

REPO = Path(__file__).resolve().parents[2]


def _load(name: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(f"bench_{name}", REPO / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- a bare number ---------------------------------------------------------------------------------------------


def test_own_decimals_ignore_trailing_zeros() -> None:
    assert [own_decimals(v) for v in (4.0, 1.42403, "35.80", 6000.0, "1,041.531")] == [0, 5, 1, 0, 3]
    with pytest.raises(ValueError):
        own_decimals("n/a")


def test_a_bare_gold_is_held_to_one_decimal_below_100_and_units_above() -> None:
    assert states_bare(60.94, "It was 60.94 [1].") and states_bare(60.94, "It was 60.9 [1].")
    assert not states_bare(60.94, "It was 61 [1].")  # less precise than demanded
    assert not states_bare(60.94, "It was 60.8 [1].")
    assert states_bare(6955.22388, "Earnings were 6,955 in 2015.")
    assert not states_bare(6955.22388, "Earnings were 6,960 in 2015.")
    assert states_bare(4.0, "It is 4 times as many.") and states_bare(4.0, "It is 4.0x.")


def test_a_bare_gold_keeps_its_sign() -> None:
    assert states_bare(-4.0, "The costs decreased by 4 [1].") and states_bare(-4.0, "The change was -4 [1].")
    assert not states_bare(-4.0, "The change was 4 [1].")
    assert not states_bare(257.0, "The total was -257 [1].")


def test_a_ratio_may_be_a_percentage_only_below_one_and_a_half() -> None:
    assert states_bare(0.0814, "The change is 8.1% of 2007's customers.")
    assert states_bare(0.0814, "The ratio is 0.081.") and states_bare(0.0814, "The ratio is 0.0814.")
    assert not states_bare(0.0814, "The change is 8% of 2007's.")  # one decimal of the percentage demanded
    assert not states_bare(0.0814, "The change is 0.08% of 2007's.")  # a percentage is the ratio times 100
    assert states_bare(1.42403, "It is 142.4% of the 2005 price.") and states_bare(1.42403, "It is 1.424 times.")
    assert not states_bare(1.42403, "It is 1.4 times.")
    assert states_bare(-0.21053, "Costs fell 21.1% [1].")
    assert not states_bare(24.69136, "That is 24.69%.") and states_bare(24.69136, "That is 24.69.")
    assert not states_bare(4.0, "That is 400%.")
    kinds = {f.kind for f in bare_figure_facts(0.14)}
    assert kinds == {"count", "percent", "points"} and {f.kind for f in bare_figure_facts(14.0)} == {"count"}


def test_a_scale_word_is_the_pages_unit() -> None:
    assert states_bare(6955.22388, "Earnings were $6,955 million.")
    assert states_bare(6.95522, "That is about $6.96 billion.")
    assert not states_bare(6955.22388, "Earnings were $7.0 billion.")  # 7,000 millions is not 6,955


def test_a_year_valued_gold_is_the_year_as_a_word() -> None:
    assert states_bare(2012.0, "The last year is 2012 [1].")
    assert not states_bare(2012.0, "In FY2012 the payments were 26 [1].")
    assert not states_bare(2012.0, "The last year is 2011 [1].")


def test_only_the_first_sentence_counts_and_not_its_inputs() -> None:
    assert first_sentence_states(35.8, "The price rose 35.8 [1]. It was 25.14 in 2005 [1].")
    assert not first_sentence_states(25.14, "The price rose 35.8 [1]. It was 25.14 in 2005 [1].")
    assert not first_sentence_states(35.8, "The price was 60.94 in 2007 (stated as 35.8) [1].")
    assert first_sentence_states(35.8, "(60.94 - 25.14) = 35.8 [1]. So the price rose by 35.80 [1].")
    assert not first_sentence_states(35.8, "(60.94 - 25.14) = 35.8 [1]. The price was 60.94 in 2007 [1].")


# --- names as wholes -------------------------------------------------------------------------------------------


def test_same_name_is_the_whole_text() -> None:
    purple = NameFact(("Purple",))
    assert same_name(purple, "purple") and same_name(purple, "  PURPLE ")
    assert not same_name(purple, "Purple.") and not same_name(purple, "dark purple")
    assert same_name(NameFact(("Amy-Lee",)), "amy lee") and not same_name(NameFact(("Amy-Lee",)), "Amy")
    assert same_name(NameFact(("Khaki", "Beige")), "beige")


def test_a_name_that_must_be_absent_fails_the_answer_that_names_it_anywhere() -> None:
    question = question_from_record({"id": "c", "question": "Favourite colour?", "facts": [
        {"name": "Purple", "lead": True}, {"name": "Blue", "absent": True}]})
    assert score(question, "answered", "Purple.").right
    assert not score(question, "answered", "Purple. Earlier you said blue.").right
    assert score(question, "answered", "Purple.").lead_ok and not score(question, "answered", "Blue.").lead_ok


def test_same_names_is_every_name_once_and_no_other() -> None:
    assert same_names(["Ann", "Joe"], ["joe", "ANN"])
    assert not same_names(["Ann", "Joe"], ["Ann"])
    assert not same_names(["Ann", "Joe"], ["Ann", "Joe", "Bo"])
    assert not same_names(["Ann", "Joe"], ["Ann", "Joe", "ann"])
    assert same_names([], [])


# --- ranks -----------------------------------------------------------------------------------------------------


def test_first_gold_rank_is_one_based() -> None:
    assert first_gold_rank([False, False, True, True]) == 3
    assert first_gold_rank([True]) == 1
    assert first_gold_rank([False, False]) is None and first_gold_rank([]) is None


def test_rank_metrics_hit_at_k_and_mrr() -> None:
    figures = rank_metrics([1, 2, 7, None], k=5, depth=10)
    assert figures["n"] == 4 and figures["hit@5"] == 0.5
    assert figures["mrr@10"] == pytest.approx((1 + 1 / 2 + 1 / 7) / 4)
    assert figures["missed"] == [2, 3]
    assert rank_metrics([12], k=5, depth=10)["mrr@10"] == 0  # past the depth counts nothing
    assert rank_metrics([3], k=3, depth=10)["hit@3"] == 1.0
    assert rank_metrics([], k=5) == {"n": 0, "hit@5": None, "mrr@10": None, "missed": []}


def test_the_eval_retrieval_stage_uses_the_rank_metrics() -> None:
    report = "corpus/reports/ternline-fy2024.md"
    gold = (Gold(report, "revenue rose 4.2%"),)
    page, other = Passage(report, "Revenue rose 4.2% to £812.0m."), Passage(report, "Operating profit was £40.1m.")
    observed = [Observed("s/answers", Turn(id=f"a{i}", ask="q", gold=gold), hits=hits)  # type: ignore[arg-type]
                for i, hits in enumerate([[page], [other, other, page], [other] * 11 + [page], [other] * 5 + [page]])]
    retrieval = stage_metrics(observed)["retrieval"]
    expected = rank_metrics([1, 3, None, 6], k=5, depth=10)
    assert retrieval["hit@5"] == round(expected["hit@5"], 4) == 0.5
    assert retrieval["mrr@10"] == round(expected["mrr@10"], 4) == round((1 + 1 / 3 + 1 / 6) / 4, 4)
    assert retrieval["missed"] == ["a2", "a3"]


# --- the bench scripts score through the shared scorer ---------------------------------------------------------


def test_convfinqa_strict_and_lenient_verdicts_differ_where_they_should() -> None:
    bench = _load("convfinqa")
    inputs_only = "The price was 60.94 in 2007 and 25.14 in 2005 [1]. The change was 35.8 [1]."
    assert bench.lenient_right(inputs_only, 35.8) and not bench.is_right("answered", inputs_only, 35.8)
    assert bench.is_right("answered", "The price rose by 35.8 [1].", 35.8)
    assert not bench.is_right("insufficient", "The price rose by 35.8 [1].", 35.8)
    assert bench.lenient_right("It was 61 [1].", 60.94) and not bench.is_right("answered", "It was 61 [1].", 60.94)


def test_goodai_scoring_uses_whole_names() -> None:
    bench = _load("goodai_memory")
    assert bench.is_right("Colours", "purple", ["Purple"]) and not bench.is_right("Colours", "dark purple", ["Purple"])
    assert bench.is_right("NameList", ["amy lee", "Linda"], ["Amy-Lee", "Linda"])
    assert not bench.is_right("NameList", [], [])
    shopping = [["toilet paper", 2], ["soap", 1]]
    assert bench.is_right("Shopping", json.dumps([{"item": "Soap", "quantity": 1},
                                                  {"item": "Toilet Paper", "quantity": 2}]), shopping)
    assert not bench.is_right("Shopping", json.dumps([{"item": "Soap", "quantity": 2},
                                                      {"item": "toilet paper", "quantity": 1}]), shopping)
    assert not bench.is_right("Shopping", json.dumps([{"item": "soap", "quantity": 1}, {"item": "soap", "quantity": 1},
                                                      {"item": "toilet paper", "quantity": 2}]), shopping)
