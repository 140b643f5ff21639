"""A company that names its fiscal years by the calendar year they begin ('fiscal 2022 ended January 28, 2023'):
read from its own words, the question's 'fiscal 2022' is read as FY2023, its sentences' years are dated so, and
the answer says how. Companies and figures are invented."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.models.providers.offline.composer import compose_offline
from app.routing.decision import RouteDecision, RoutePlan
from app.routing.features import KNOWN_YEARS
from app.text.fiscal_naming import (company_named_years, in_prov_years, names_by_start, naming_note, prov_dated,
                                    shift_fiscal_words)
from app.text.periods import years_in
from app.turns import Block
from nodes.generate import validate_citations
from nodes.routing import route, years_in_company_words

# --- what the words say ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("passages", "expected"), [
    ([("Fiscal 2022 was a 52-week year ended January 28, 2023.", 2023)], True),
    ([("our fiscal year 2024 ending February 1, 2025", 2025)], True),
    ([("for the 52 weeks ended January 28, 2023 (“fiscal 2022”)", 2023)], True),
    ([("Fiscal 2023 ended January 28, 2023.", 2023)], False),  # named by the year it ends in
    ([("Fiscal 2024 ended December 31, 2024.", 2024)], False),  # a calendar year: nothing to move
    # no sentence says it outright: the release of the year that ended in January heads its year as the one before
    ([("results for the fifty-two-week period (“fiscal year”) ended January 28, 2023", 2023),
      ("For the Full Year of Fiscal 2022: net sales increased 18.3% compared to fiscal 2021.", 2023)], True),
    ([("results for the fifty-two-week period (“fiscal year”) ended January 28, 2023", 2023),
      ("Fourth Quarter Fiscal 2023 Results", 2023)], False),
    ([("For the Full Year of Fiscal 2022: net sales increased 18.3%.", 2023)], False),  # no January end said
    ([("Fiscal 2022 was a 52-week year ended January 28, 2023.", 2023),
      ("Fiscal 2023 ended February 3, 2024... fiscal 2024 ended February 3, 2024", 2024)], False),  # both ways
    ([], False),
])
def test_how_a_company_names_its_years_is_read_from_its_words(passages: list[tuple[str, int]],
                                                               expected: bool) -> None:
    assert names_by_start(passages) is expected


def test_the_years_a_question_names_in_a_companys_words() -> None:
    assert company_named_years("change from fiscal 2021 to fiscal 2022") == [2021, 2022]
    assert company_named_years("in fiscal years 2020 and 2021") == [2020, 2021]
    assert company_named_years("revenue in FY2022 and in 2021") == []  # Prov's and bare years are not its words
    assert in_prov_years("from fiscal 2021 to fiscal 2022?") == "from FY2022 to FY2023?"
    assert in_prov_years("in fiscal years 2020 and 2021, and in FY2019") == "in FY2021 and FY2022, and in FY2019"


def test_shifting_a_texts_fiscal_words_is_undone_exactly() -> None:
    text = "During fiscal 2022, the Company opened 47 stores; as of January 28, 2023 and in FY2022, as we move into fiscal 2023"
    moved = shift_fiscal_words(text, 1)
    assert "During fiscal 2023" in moved and "into fiscal 2024" in moved
    assert "January 28, 2023" in moved and "FY2022" in moved  # dates and Prov's years stay
    assert shift_fiscal_words(moved, -1) == text


def test_the_note_says_which_of_its_years_is_which_of_ours() -> None:
    assert naming_note("Larchmont Beauty", [2022]) == (
        "Larchmont Beauty names its fiscal years by the calendar year they begin: its fiscal 2022 ended early in "
        "2023 and is dated FY2023 here.")
    assert "fiscal 2021 and fiscal 2022 ended early in 2022 and 2023, respectively" in naming_note("L", [2022, 2021])


# --- routing ------------------------------------------------------------------------------------------------

KB = ["Larchmont Beauty", "Northwind Logistics"]


def _route(question: str, starting: set[str]) -> dict[str, Any]:
    decision = RouteDecision(needs_retrieval=True, plan=RoutePlan(source="reports"))
    # (the conversation step reads the years a question names: nodes/conversation.py)
    state = {"question": question, "fiscal_years": years_in(question, KNOWN_YEARS)}
    return route(state, router=lambda q, **_: decision, known_companies=lambda: KB,
                 names_by_start=lambda c: c in starting)


def test_a_question_in_a_start_naming_companys_words_is_read_a_year_on() -> None:
    out = _route("How did Larchmont Beauty's operating margin change from fiscal 2021 to fiscal 2022?",
                 {"Larchmont Beauty"})
    assert out["fiscal_years"] == [2022, 2023]
    assert out["question"] == "How did Larchmont Beauty's operating margin change from FY2022 to FY2023?"
    assert out["start_named"] == ["Larchmont Beauty"]
    assert "its fiscal 2021 and fiscal 2022 ended early in 2022 and 2023" in out["period_note"]


@pytest.mark.parametrize(("question", "starting"), [
    ("What was Larchmont Beauty's revenue in FY2022?", {"Larchmont Beauty"}),  # Prov's own year
    ("What was Northwind Logistics' revenue in fiscal 2022?", {"Larchmont Beauty"}),  # named by its end
])
def test_other_years_are_read_as_written(question: str, starting: set[str]) -> None:
    out = _route(question, starting)
    assert out["fiscal_years"] == [2022] and "question" not in out and out["period_note"] == ""


def test_with_a_company_that_names_its_years_otherwise_no_year_is_moved() -> None:
    assert years_in_company_words("Larchmont Beauty and Northwind Logistics in fiscal 2022",
                                  ["Larchmont Beauty", "Northwind Logistics"], [2022], ["Larchmont Beauty"]) == ([2022], "")


# --- reading its sentences ----------------------------------------------------------------------------------

_TEXT = ("For the Full Year of Fiscal 2022. During fiscal 2022, the Company opened 47 new stores and closed 3. "
         "During fiscal 2021, the Company opened 38 new stores.")


def _state(question: str, years: list[int], starting: list[str]) -> dict[str, Any]:
    block = Block(n=1, kind="report", header="[1] Larchmont Beauty FY2023, p.2 [text]", source_id="lb-2",
                  chunk_id="lb-2", company="Larchmont Beauty", fiscal_year=2023, page=2, text=_TEXT)
    return {"question": question, "companies": ["Larchmont Beauty"], "fiscal_years": years, "blocks": [block],
            "start_named": starting, "decision": RouteDecision(needs_retrieval=True)}


def test_a_start_naming_companys_sentence_is_dated_as_its_year_ends_and_quoted_in_its_words() -> None:
    state = _state("How many stores did Larchmont Beauty open in FY2023?", [2023], ["Larchmont Beauty"])
    out = validate_citations({**state, "draft": compose_offline(state)})
    assert out["status"] == "answered", out["draft"]
    assert out["draft"].startswith("Larchmont Beauty's number of stores opened was 47 in FY2023 [1]"), out["draft"]
    assert '"During fiscal 2022, the Company opened 47 new stores' in out["draft"]  # its own words, quoted
    assert out["draft"].endswith("its fiscal 2022 ended early in 2023 and is dated FY2023 here.")
    earlier = _state("How many stores did Larchmont Beauty open in FY2022?", [2022], ["Larchmont Beauty"])
    draft = validate_citations({**earlier, "draft": compose_offline(earlier)})["draft"]
    assert "38" in draft and "47" not in draft, draft


def test_without_the_naming_its_fiscal_2022_is_our_fy2022() -> None:
    state = _state("How many stores did Larchmont Beauty open in FY2022?", [2022], [])
    draft = validate_citations({**state, "draft": compose_offline(state)})["draft"]
    assert "47" in draft and "38" not in draft and "dated" not in draft, draft


def test_only_the_start_naming_companys_documents_are_read_a_year_on() -> None:
    other = Block(n=2, kind="report", header="[2] Northwind Logistics FY2022", source_id="nw", chunk_id="nw",
                  company="Northwind Logistics", fiscal_year=2022, text="In fiscal 2022 revenue rose 4%.")
    mine = _state("", [], [])["blocks"][0]
    read = prov_dated([mine, other], ["Larchmont Beauty"])
    assert "During fiscal 2023" in read[0].text and read[1].text == other.text and mine.text == _TEXT


# --- the catalog and the prompt ------------------------------------------------------------------------------


def test_the_catalog_reads_a_companys_naming_from_its_reports(tmp_path: Path) -> None:
    from app.knowledge.analyzer import analyze
    from app.knowledge.catalog import Catalog
    from app.knowledge.records import Chunk, SourceRecord

    catalog = Catalog(tmp_path / "catalog.sqlite")
    for sid, company, text in (("lb", "Larchmont Beauty", "Fiscal 2022 was a 52-week year ended January 28, 2023."),
                               ("nw", "Northwind Logistics", "Fiscal 2023 ended January 31, 2023.")):
        chunk = Chunk(chunk_id=f"{sid}::0", source_id=sid, ordinal=0, text=text, tokens=12, page=1, company=company,
                      fiscal_year=2023)
        catalog.replace_source(SourceRecord(source_id=sid, text=text, origin=sid, company=company, fiscal_year=2023),
                               [chunk], [" ".join(analyze(text))])
    assert catalog.names_years_by_start("Larchmont Beauty") is True
    assert catalog.names_years_by_start("Northwind Logistics") is False
    assert catalog.names_years_by_start("Nobody") is False


def test_the_prompt_tells_a_model_how_the_companys_years_are_read() -> None:
    from nodes.assemble import assemble

    state = _state("How many stores did Larchmont Beauty open in FY2023?", [2023], ["Larchmont Beauty"])
    out = assemble({**state, "blocks": []}, count=lambda text: len(text.split()))
    user = out["prompt"][-1]["content"]
    assert "Larchmont Beauty names its fiscal years by the calendar year they begin" in user
    assert "routing's note" in next(e.rule for e in out["manifest"] if e.block == "question")
