"""The period a figure is for and how it is written: a sentence that goes on about the year the one before it
names, a quarter's earnings release, a question that names no period (the latest annual report's), a figure
declared after its report's year, per-share amounts in cents, sentences cut at abbreviations, an adjusted
measure's stated growth, and numbers that name a table or a note.

Every company and figure here is made up (Ternline), in the wording of 10-Ks and earnings releases.
"""

from __future__ import annotations

import pytest

from app.calc_tools import Figure
from app.evidence import Evidence
from app.facts.prose import Measure, figures_located, measure_kind, prose_facts
from app.facts.query import Fact, choose, facts_for, read_query
from app.knowledge.analyzer import analyze
from app.models.providers.offline.composer.analyst import latest_report_facts
from app.models.providers.offline.composer.wording import format_figure
from app.text.measures import measure_asked
from app.text.sentences import split_at_stops
from app.turns import Block

COMPANY = "Ternline"


def test_a_sentence_that_goes_on_about_the_year_before_it_takes_that_year() -> None:
    text = ("In February 2025, Ternline's Board of Directors declared a first-quarter 2025 dividend of $1.50 per "
            "share. This is equivalent to an annual dividend of $6.00 per share.")
    measure = Measure(stems=frozenset(analyze("dividend per share")), kind="money")
    years = {f.value: f.fiscal_year for f in prose_facts(text, measure, company=COMPANY, fiscal_year=2024,
                                                         source_id="t")}
    assert years == {1.5: 2025, 6.0: 2025}  # not the report's FY2024


def test_a_quarters_earnings_release_dates_its_highlights_to_the_quarter() -> None:
    text = "First-Quarter\nOrganic revenue growth 14.3%\nCore EPS $1.50\n"
    doc = Evidence(source_id="TERNLINE_2024Q1_EARNINGS:p1", chunk_id="TERNLINE_2024Q1_EARNINGS:p1::a::0", text=text,
                   company=COMPANY, fiscal_year=2024, title="TERNLINE_2024Q1_EARNINGS", page=1, doc_type="report")
    question = "What was Ternline's organic revenue growth in Q1 2024?"
    # an adjusted measure's growth is a stated figure, not a change of a level to compute
    assert measure_asked(question, [COMPANY]).phrase == "organic revenue growth"
    query = read_query(question, [COMPANY], [2024])
    assert query.kind == "percent"
    chosen = choose(facts_for(query, [doc], [COMPANY]), query)
    assert [(f.figure.value, f.part) for f in chosen][:1] == [(14.3, "Q1")]
    # the full year's guidance in the same release is no quarter's figure
    year_text = "For fiscal year 2024, the Company now expects to deliver 8 percent organic revenue growth."
    doc = doc.model_copy(update={"text": year_text})
    assert all(f.part is None for f in facts_for(query, [doc], [COMPANY]))


def _fact(value: float, year: int, filed: int) -> Fact:
    figure = Figure(label="dividend per share", value=value, unit="$", company=COMPANY, fiscal_year=year,
                    source_id=f"TERNLINE_{filed}_10K:p9", quote=f"dividends of ${value} per share")
    return Fact(figure=figure, origin="text", match=1.0, filed_year=filed)


def test_a_question_naming_no_period_is_answered_from_the_latest_annual_report_or_not_at_all() -> None:
    blocks = [Block(n=n, kind="report", header="", text="", source_id=f"TERNLINE_{year}_10K:p9",
                    chunk_id=f"TERNLINE_{year}_10K:p9::a::0", company=COMPANY, fiscal_year=year)
              for n, year in ((1, 2018), (2, 2022))]
    old, new = _fact(5.44, 2018, 2018), _fact(5.96, 2022, 2022)
    assert latest_report_facts([old, new], blocks, period_named=False) == [new]
    assert latest_report_facts([old], blocks, period_named=False) == []  # the FY2018 report's is no answer
    assert latest_report_facts([old], blocks, period_named=True) == [old]  # a year asked is that year's


def test_what_was_declared_after_a_reports_year_is_no_period_it_covers() -> None:
    query = read_query("What is Ternline's dividend per share?", [COMPANY])
    declared = _fact(1.50, 2023, 2022)
    assert choose([declared], query) == []
    assert [f.figure.value for f in choose([declared, _fact(5.96, 2022, 2022)], query)] == [5.96]


def test_per_share_amounts_are_written_in_cents() -> None:
    assert format_figure(2.8, "$") == "$2.80"
    assert format_figure(1.175, "$") == "$1.175"
    assert format_figure(6.0, "$") == "$6"
    assert format_figure(1311.2, "£m") == "£1,311.2m"


def test_a_sentence_does_not_end_at_an_abbreviation() -> None:
    assert split_at_stops("What is the rate for the primary U.S. pension plan for 2019? Round it. Ternline Inc. "
                          "sold it.") == ["What is the rate for the primary U.S. pension plan for 2019?", "Round it.",
                                          "Ternline Inc. sold it."]


def test_a_number_that_names_a_table_or_note_is_no_figure() -> None:
    assert [f.value for f in figures_located("TABLE 16: REGULATORY RISK-BASED CAPITAL AND LEVERAGE RATIOS")] == []
    assert [f.value for f in figures_located("See Note 12 for the 4.5% notes.")] == [4.5]


@pytest.mark.parametrize("words, question, kind", [
    ("comparable store sales", "What were Ternline's comparable-store sales in Q2 2024?", "any"),
    ("stores", "What was Ternline's number of stores?", "count"),
])
def test_sales_of_stores_are_no_count_of_them(words: str, question: str, kind: str) -> None:
    assert measure_kind(analyze(words), question) == kind


def test_a_mention_is_answered_with_a_sentence_not_a_tables_row_run_together() -> None:
    row = Block(n=1, kind="report", header="[1] Ternline FY2024", source_id="t1", chunk_id="t1::0", company=COMPANY,
                fiscal_year=2024, text="Acquisitions completed during the year ended December 31, 202449,571 Other "
                                       "adjustments")
    prose = Block(n=2, kind="report", header="[2] Ternline FY2024", source_id="t2", chunk_id="t2::0",
                  company=COMPANY, fiscal_year=2024,
                  text="In 2024 Ternline completed the acquisition of Harbour Foods, which was paid in cash.")
    state = {"blocks": [row, prose], "companies": [COMPANY], "fiscal_years": []}
    question = "Did Ternline mention any acquisitions in the annual report? If there is no mention, return False."
    from app.models.providers.offline.composer.analyst import Analyst

    assert Analyst(state, question).sentences()[0].startswith("Yes. In 2024 Ternline completed the acquisition")
