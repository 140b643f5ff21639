"""The strict scorer (app/evaluation/scoring.py): an answer is right only when the sentence that answers states
the gold fact with its sign, scale and rounding; inputs, asides and computations do not count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.evaluation.scoring import (FigureFact, answer_parts, figure_fact, fragments, load_questions,
                                    question_from_record, score, sentences, stated_figures, states, summarise)


def q(facts: list[dict], **extra: object) -> object:
    return question_from_record({"id": "q1", "question": "?", "kind": extra.pop("kind", "statement_figure"),
                                 "facts": facts, **extra})


def test_rounding_is_the_golds_own() -> None:
    cagr = q([{"figure": "0.447", "unit": "%", "lead": True}], kind="metric")
    assert score(cagr, "answered", "Revenue grew at a compound annual rate of 0.447% from FY2019 to FY2021 [1].").right
    assert not score(cagr, "answered", "Revenue grew at a compound annual rate of 0.45% [1].").right
    assert not score(cagr, "answered", "Revenue grew at a compound annual rate of 0.5% [1].").right
    # more precision than the gold rounds to is fine
    assert score(cagr, "answered", "It grew 0.4468% a year [1].").right


def test_scale_converts_and_sign_counts() -> None:
    capex = q([{"figure": "1577", "unit": "$m", "lead": True}])
    assert score(capex, "answered", "3M's capital expenditure was $1,577 million in FY2018 [2].").right
    assert score(capex, "answered", "Capital expenditure was $1.577bn in FY2018 [2].").right
    assert not score(capex, "answered", "Capital expenditure was $1.6bn in FY2018 [2].").right
    assert not score(capex, "answered", "Capital expenditure was -$1,577m in FY2018 [2].").right
    loss = q([{"figure": "-473", "unit": "$m", "lead": True}])
    assert score(loss, "answered", "Corporate had the lowest net revenue, -$473 million [1].").right
    assert score(loss, "answered", "Corporate's net revenue was ($473) million [1].").right
    assert not score(loss, "answered", "Corporate's net revenue was $473 million [1].").right


def test_a_falling_verb_carries_the_sign() -> None:
    change = q([{"figure": "-3.0", "unit": "pp", "lead": True}], kind="change")
    assert score(change, "answered", "The effective tax rate fell 3.0 percentage points to 21.6% in FY2022 [1].").right
    assert not score(change, "answered", "The effective tax rate rose 3.0 percentage points [1].").right
    assert not score(change, "answered", "The effective tax rate fell 3.0% [1].").right  # % is not points


def test_only_the_first_sentence_answers_a_lead_fact() -> None:
    revenue = q([{"figure": "1,311.2", "unit": "£m", "lead": True}])
    late = "Northwind's operating profit was £87.8m [1]. Its revenue was £1,311.2m in FY2024 [1]."
    assert not score(revenue, "answered", late).right
    assert score(revenue, "answered", "Northwind's revenue was £1,311.2m in FY2024 [1]. It grew 8.8% [1].").right


def test_inputs_asides_and_computations_do_not_count() -> None:
    margin = q([{"figure": "16.3", "unit": "%", "lead": True}], kind="metric")
    answer = ("Ternline's EBITDA margin was 16.2% in FY2024 (stated as 16.3% in the table) [1]. "
              "Metric: (518,580 + 208,760) / 4,459,440 = 16.3% [1].")
    assert not score(margin, "answered", answer).right
    first, body = answer_parts(answer)
    assert "16.3" not in first and "16.3" not in body


def test_currency_must_agree_where_the_answer_states_one() -> None:
    revenue = q([{"figure": "1,284.6", "unit": "A$m", "lead": True}])
    assert score(revenue, "answered", "Revenue was A$1,284.6 million [1].").right
    assert score(revenue, "answered", "Revenue was $1,284.6m [1].").right  # Australian reports write '$'
    assert not score(revenue, "answered", "Revenue was £1,284.6m [1].").right


def test_yes_no_opens_the_answer_and_reads_the_next_sentence() -> None:
    debt = q([{"yes_no": "yes"}, {"figure": "4.2", "unit": "$bn", "lead": True}], kind="yes_no_change")
    assert score(debt, "answered", "Yes. Total debt rose from $3.9bn to $4.2bn in FY2023 [1].").right
    assert not score(debt, "answered", "Total debt rose from $3.9bn to $4.2bn in FY2023 [1]. Yes [1].").right
    assert not score(debt, "answered", "No. Total debt was $4.2bn [1].").right


def test_names_are_whole_phrases() -> None:
    region = q([{"name": "MGM China", "lead": True}], kind="extreme")
    assert score(region, "answered", "MGM China had the worst topline performance: revenue fell 44% [1].").right
    assert not score(region, "answered", "MGM Chinatown had the worst [1].").right
    assert not score(region, "answered", "Las Vegas grew most [1]. MGM China fell [1].").right


def test_expectations_other_than_an_answer() -> None:
    unstated = q([], kind="unstated", expect="insufficient")
    assert score(unstated, "insufficient", "Insufficient evidence: …").right
    boiler = score(unstated, "answered", "TABLE OF CONTENTS Item 1. Business 3 [1].")
    assert not boiler.right and boiler.boilerplate
    vague = q([], kind="vague", expect="clarification")
    assert score(vague, "clarification", "Which company and period do you mean?").right
    assert not score(vague, "refused", "I can only answer questions about company reports.").right


def test_an_answer_that_is_not_answered_scores_nothing() -> None:
    capex = q([{"figure": "1577", "unit": "$m", "lead": True}])
    assert not score(capex, "insufficient", "Insufficient evidence. It states $1,577m somewhere.").right


def test_distractors_mark_another_periods_figure() -> None:
    revenue = q([{"figure": "1,311.2", "unit": "£m", "lead": True}],
                distractors=[{"figure": "1,204.6", "unit": "£m", "why": "FY2023"}])
    wrong = score(revenue, "answered", "Revenue was £1,204.6m [1].")
    assert wrong.wrong_period_or_segment and not wrong.right
    both = score(revenue, "answered", "Revenue rose from £1,204.6m in FY2023 to £1,311.2m in FY2024 [1].")
    assert both.right and not both.wrong_period_or_segment


def test_answer_quality_counts() -> None:
    revenue = q([{"figure": "1,311.2", "unit": "£m", "lead": True}])
    twice = "Revenue was £1,311.2m in FY2024 [1]. Revenue was £1,311.2m in FY2024 [2]."
    assert score(revenue, "answered", twice).duplicated
    pasted = "Revenue was £1,311.2m [1]. vailable-for-sale investments — — (3) [2]."
    assert fragments(pasted) == ["vailable-for-sale investments — — (3) [2]."]
    summary = summarise([score(revenue, "answered", twice), score(revenue, "answered", pasted)])
    assert summary["answers_with_duplicates"] == 1 and summary["answers_with_fragments"] == 1
    assert summary["groups"]["statement figures"] == [2, 2]


def test_readers() -> None:
    assert sentences("Northwind Logistics Inc. grew [1]. Revenue was $1.5bn [2]. See No. 5 below.") == [
        "Northwind Logistics Inc. grew [1].", "Revenue was $1.5bn [2].", "See No. 5 below."]
    assert len(sentences("Adj. EBITDA was $2,018m. Richard A. Johnson had the most votes against.")) == 2
    first, _ = answer_parts("The total it may borrow = $8,400,000,000 under both agreements.")
    assert "8,400,000,000" in first  # an equals sign is no computation without arithmetic before it
    assert [f.value for f in stated_figures("In FY2024 and 2023, Q3 sales rose 4.5% to 61\u00a0200 units")] == [4.5, 61200]
    assert [(f.value, f.scale, f.currency) for f in stated_figures("revenue of €2.30–2.40bn")] == [
        (2.3, "bn", "€"), (2.4, "bn", "€")]
    assert [f.value for f in stated_figures("Order intake fell by €175.7 million, or 6.5%")] == [-175.7, -6.5]
    # a figure the clause's comma follows is read whole ('by $400,000,000, from …'), as one the comma groups
    assert [f.value for f in stated_figures("raised it by $400,000,000, from $3,800,000,000")] == [4e8, 3.8e9]
    pp = figure_fact({"figure": "0.45", "unit": "pp"})
    assert states(pp, stated_figures("the margin widened 45 bps"))
    assert isinstance(figure_fact({"figure": "61,200", "unit": "employees"}), FigureFact)
    with pytest.raises(ValueError):
        figure_fact({"figure": "about", "unit": "%"})


def test_load_questions_names_the_bad_line(tmp_path: Path) -> None:
    good = {"id": "a", "question": "?", "kind": "metric", "facts": [{"figure": "1", "unit": "%"}]}
    (tmp_path / "a.jsonl").write_text(json.dumps(good) + "\n" + json.dumps({**good, "facts": [{"oops": 1}]}) + "\n")
    with pytest.raises(ValueError, match=r"a\.jsonl:2"):
        load_questions([tmp_path])
    (tmp_path / "a.jsonl").write_text(json.dumps(good) + "\n")
    assert [x.id for x in load_questions([tmp_path])] == ["a"]


def test_pounds_state_no_pence_and_money_counts_no_people() -> None:
    from app.evaluation.scoring import figure_fact, stated_figures, states

    pence = figure_fact({"figure": "6.0", "unit": "p"})
    assert not states(pence, stated_figures("Pellbury's dividend per share was £6 in FY2025."))
    assert states(pence, stated_figures("Pellbury's dividend per share was 6.0p in FY2025."))
    people = figure_fact({"figure": "7,842", "unit": "people"})
    assert not states(people, stated_figures("Its number of employees was $7,842 in FY2025."))
    assert not states(people, stated_figures("Its number of employees was 7,842m in FY2025."))
    assert states(people, stated_figures("Its number of employees was 7,842 in FY2025."))
