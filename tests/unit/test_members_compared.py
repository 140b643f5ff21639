"""Two members of one company's breakdown compared ('How did US sales growth compare to international sales
growth'): the question read (app/text/measures.members_compared), the members found in a table's rows or in
prose (app/facts/members.py), and the answer, which states each member's figure and never the company's."""

from __future__ import annotations

import pytest

from app.facts.members import change_in_year, member_statement, names_member
from app.facts.query import same_member
from app.knowledge.analyzer import analyze
from app.models.providers.offline.composer.analyst import Analyst
from app.text.measures import members_compared
from app.turns import Block

COMPANIES = ["Rheinfeld", "Johnson & Johnson", "Helio", "Ternline"]


def _block(n: int, text: str, company: str = "Rheinfeld", year: int = 2024) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {company} FY{year} report", text=text,
                 source_id=f"{company}_{year}_AR:p{n}", chunk_id=f"{company}_{year}_AR:p{n}::0", company=company,
                 fiscal_year=year, page=n)


@pytest.mark.parametrize("question, first, second, measure, of_change", [
    ("How did JnJ's US sales growth compare to international sales growth in FY2022?", "US", "international",
     "sales growth", True),
    ("How did Rheinfeld's revenue growth in the Americas compare with Germany in 2024?", "Americas", "Germany",
     "revenue growth", True),
    ("How did revenue in Germany compare with that in Asia-Pacific for Rheinfeld in FY2024?", "Germany",
     "Asia-Pacific", "revenue", False),
    ("How did the Iron Ore segment's revenue compare with the Copper segment's in FY2024?", "Iron Ore", "Copper",
     "revenue", False),
    ("What was US revenue versus international revenue in FY2023?", "US", "international", "revenue", False),
    ("How did adjusted EBIT of Ternline's Flexibles segment compare with that of its Rigid Packaging segment in "
     "fiscal 2023?", "Flexibles", "Rigid Packaging", "adjusted EBIT", False),
    ("How did the operating income of the Tools segment compare with the Safety segment in 2021?", "Tools",
     "Safety", "operating income", False),
    # the company by a name it went by and, in brackets, the one it goes by now
    ("How did the gross profit of Harbourline's (Ternline's) Coastal segment compare with that of its Rail segment "
     "in 2024?", "Coastal", "Rail", "gross profit", False),
    # each side a member by its owner's 's, the measure after the first
    ("In Ternline's first quarter of 2024, how did Harbour Foods North America's operating profit stack up against "
     "Ternline Freight Europe's?", "Harbour Foods North America", "Ternline Freight Europe", "operating profit",
     False),
    # the first member before its kind with no possessive, the measure after it, the second by its possessive
    ("How did Ternline's Harbour Foods segment operating income compare with its Rail and Freight segment's in "
     "2024?", "Harbour Foods", "Rail and Freight", "operating income", False),
    # the measure from the member ('revenue from Ternline's Freight segment'), the company's name between them
    ("In fiscal 2024, how did revenue from Ternline's Freight segment stack up against its Marine Services "
     "segment?", "Freight", "Marine Services", "revenue", False),
    # which of the two is larger, asked as a yes/no's either/or
    ("In 2024, were Rheinfeld's U.S. sales or its international sales larger, and by how much?", "U.S.",
     "international", "sales", False),
])
def test_two_members_and_their_measure_are_read_from_the_question(question, first, second, measure, of_change):
    pair = members_compared(question, COMPANIES)
    assert pair is not None
    assert (pair.first, pair.second, pair.measure, pair.of_change) == (first, second, measure, of_change)


@pytest.mark.parametrize("question", [
    "How did Rheinfeld's net income in FY2024 compare with FY2023?",  # two periods
    "How does the effective tax rate in 2022 compare to 2021?",
    "How did Helio's revenue compare with Ternline's revenue in FY2024?",  # two companies
    "How did revenue compare with the year before?",
    "What was Rheinfeld's revenue in 2024?",
])
def test_periods_companies_and_plain_questions_are_no_members(question):
    assert members_compared(question, COMPANIES) is None


def test_a_member_as_asked_is_the_row_or_the_words_that_name_it():
    assert same_member("US", "U.S.") and same_member("US", "United States")
    assert same_member("Iron Ore", "Iron Ore segment")
    assert not same_member("US", "US Pharmaceutical") and not same_member("Europe", "Rest of Europe")
    assert names_member("US", "Sales by U.S. companies were $48.6 billion") and not names_member("US", "let us see")
    assert names_member("international", "Sales by international companies")


def test_the_change_a_sentence_gives_for_a_year_is_signed_by_the_word_before_it():
    text = ("This represents a decrease of 0.6% in 2022 and an increase of 18.2% in 2021. "
            "This represents increases of 3.0% in 2022 and 9.3% in 2021.")
    assert change_in_year(text, 2022) == -0.6 and change_in_year(text, 2021) == 18.2
    assert change_in_year("increases of 3.0% in 2022 and 9.3% in 2021", 2021) == 9.3
    assert change_in_year("3.0% in 2022", 2022) is None and change_in_year("up 4% in 2020", 2022) is None


PROSE = ("Sales by U.S. companies were $48.6 billion in 2022 and $47.2 billion in 2021. This represents increases "
         "of 3.0% in 2022 and 9.3% in 2021. Sales by international companies were $46.4 billion in 2022 and $46.6 "
         "billion in 2021. This represents a decrease of 0.6% in 2022 and an increase of 18.2% in 2021. The "
         "five-year compound annual growth rates for worldwide, U.S. and international sales were 4.4%, 4.0% and "
         "4.9%, respectively.")


def test_each_members_sentence_is_found_without_the_other_member():
    us = member_statement("US", "international", analyze("sales"), [("b", PROSE)], 2022)
    abroad = member_statement("international", "US", analyze("sales"), [("b", PROSE)], 2022)
    assert us is not None and abroad is not None
    assert (us.member, us.change, abroad.change) == ("U.S.", 3.0, -0.6)
    assert us.sentence.startswith("Sales by U.S. companies") and "five-year" not in us.text + abroad.text


def test_members_compared_in_prose_lead_with_both_changes_and_quote_each_sentence():
    state = {"blocks": [_block(1, PROSE, "Johnson & Johnson", 2022)], "companies": ["Johnson & Johnson"],
             "fiscal_years": [2022]}
    question = "How did JnJ's US sales growth compare to international sales growth in FY2022?"
    out = Analyst(state, question).sentences()
    assert out[0] == "U.S. sales rose 3.0% in 2022, while international sales fell 0.6% [1]."
    assert out[1] == ('The report says: "Sales by U.S. companies were $48.6 billion in 2022 and $47.2 billion in '
                      '2021." [1].')
    assert not any("4.4%" in s or "compound" in s for s in out)


REGIONS = ("Revenue by region (by customer location)\nin € million 2024 2023 Change in %\nGermany 682.6 717.5 –4.9\n"
           "Rest of Europe 771.4 746.1 3.4\nAmericas 512.3 468.7 9.3\nAsia-Pacific 471.5 459.2 2.7\n"
           "Group 2,437.8 2,391.5 1.9\n")


def test_members_compared_in_a_table_state_each_rows_change_and_figures_never_the_groups():
    state = {"blocks": [_block(1, REGIONS)], "companies": ["Rheinfeld"], "fiscal_years": [2024]}
    question = "How did Rheinfeld's revenue growth in the Americas compare with Germany in 2024?"
    out = Analyst(state, question).sentences()
    assert out[0].startswith("Americas revenue rose 9.3% in FY2024, while Germany revenue fell 4.9%")
    assert "€512.3m" in out[1] and "€682.6m" in out[1] and not any("1.9%" in s or "2,437.8" in s for s in out)
    level = Analyst(state, "How did revenue in Germany compare with that in Asia-Pacific for Rheinfeld in FY2024?")
    assert level.sentences()[0].startswith("Germany revenue was higher than Asia-Pacific revenue in FY2024: €682.6m "
                                           "against €471.5m")


def test_which_of_two_members_is_larger_and_by_how_much_is_a_comparison_with_its_difference():
    from app.calc_tools import CALCULATOR_FUNCTIONS, CalculationOutcome
    from app.facts.query import member_facts
    from app.models.providers.offline.calculator import plan_tool_calls
    from app.text.question_kinds import read_ask

    question = "In 2024, was Rheinfeld's Germany revenue or its Asia-Pacific revenue larger, and by how much?"
    assert read_ask(question).kind == "change"
    state = {"blocks": [_block(1, REGIONS)], "companies": ["Rheinfeld"], "fiscal_years": [2024]}
    plain = Analyst(state, question).sentences()[0]  # (no calculation: the two figures, no difference)
    assert plain.startswith("Germany revenue was higher than Asia-Pacific revenue in FY2024: €682.6m against €471.5m")
    assert "difference" not in plain
    # the calculator's difference of the two members' figures for the year asked, larger less smaller
    asked = Analyst(state, question)
    facts = member_facts(asked.query, asked.reports, ["Rheinfeld"])
    figures = [f.figure.model_copy(update={"label": f"{f.segment}: {f.figure.label}"}) for f in facts]
    [(tool, args)] = plan_tool_calls(question, figures)
    assert (tool, args) == ("difference", {"a": 682.6, "b": 471.5})
    result = CALCULATOR_FUNCTIONS[tool](**args)
    calc = Block(n=2, kind="calculation", header="[2] calculation", text=f"difference: {result.result}",
                 source_id="calculation", chunk_id="calculation")
    state = {**state, "blocks": [_block(1, REGIONS), calc], "calculation": CalculationOutcome(status="ok",
                                                                                              results=[result])}
    assert Analyst(state, question).sentences()[0] == (
        "Germany revenue was higher than Asia-Pacific revenue in FY2024: €682.6m against €471.5m, a difference of "
        "€211.1m [2][1].")


def test_a_member_no_block_names_gives_no_answer_rather_than_the_companys_figure():
    state = {"blocks": [_block(1, REGIONS)], "companies": ["Rheinfeld"], "fiscal_years": [2024]}
    out = Analyst(state, "How did Rheinfeld's revenue growth in Japan compare with Germany in 2024?").change_answer()
    assert out == []


def test_a_question_about_business_segments_takes_no_places_from_a_table_by_segment_and_geography() -> None:
    from app.facts.members import asked_kind_of_member, is_region

    names = ["Safety and Industrial", "Americas", "Asia Pacific", "Europe, Middle East and Africa", "Health Care",
             "United States", "EMEA", "International"]
    assert [n for n in names if is_region(n)] == ["Americas", "Asia Pacific", "Europe, Middle East and Africa",
                                                   "United States", "EMEA", "International"]
    same = lambda n: n  # noqa: E731
    assert asked_kind_of_member(names, "Which of 3M's business segments had the largest net sales in 2022?",
                                same) == ["Safety and Industrial", "Health Care"]
    # a question about regions takes the places (a segment is no region)
    assert asked_kind_of_member(names, "Which region had the highest net sales in 2022?", same) == [
        n for n in names if is_region(n)]
    assert asked_kind_of_member(names, "What had the highest net sales in 2022?", same) == names


def test_a_list_asked_leads_with_the_sentence_that_is_the_list() -> None:
    text = ("In the fourth quarter of 2020, we acquired Credit Karma Tax, which adds a tax filing product for "
            "individuals to Cash App's ecosystem, and effective June 30, 2020, we changed from one reportable segment "
            "to two reportable segments to reflect the way management reviews the business. Our two reportable "
            "segments are Seller and Cash App.")
    state = {"blocks": [_block(1, text, "Ternline", 2020)], "companies": ["Ternline"], "fiscal_years": [2020]}
    out = Analyst(state, "What are Ternline's reportable segments?").sentence_answer()
    assert out[0] == "Our two reportable segments are Seller and Cash App [1]."


def test_a_news_sentence_already_stated_is_not_stated_again_with_its_date() -> None:
    from app.models.providers.offline.composer.answer import _plain

    assert _plain("2024-09-04: Copperleaf shares fell 11% on the announcement [5].") == \
        _plain("Copperleaf shares fell 11% on the announcement [5]")
    assert _plain("2024-09-04: Shares fell 11%.") != _plain("Shares fell 12%.")


SEGMENT_NOTE = ("Information on the reportable segments' revenues and operating income is presented below (amounts in "
                "millions):\nYear Ended December 31, 2024\nConsoles Mobile Arcade Total\n"
                "Segment net revenues $ 2,219 $ 1,719 $ 2,031 $ 5,969\n"
                "Segment operating income $ 850 $ 464 $ 740 $ 2,054\n\n"
                "Year Ended December 31, 2023\nConsoles Mobile Arcade Total\n"
                "Segment net revenues $ 2,458 $ 2,291 $ 2,086 $ 6,835\n"
                "Segment operating income $ 1,011 $ 685 $ 750 $ 2,446\n")


@pytest.mark.parametrize("question, first, second, measure", [
    ("Which was larger in 2024, Ternline's Arcade segment operating income or its Mobile segment operating income?",
     "Arcade", "Mobile", "segment operating income"),
    ("Which was higher in FY2024: Rheinfeld's US revenue or its international revenue?", "US", "international",
     "revenue"),
])
def test_which_of_two_members_was_larger_is_a_comparison_of_the_two(question, first, second, measure):
    pair = members_compared(question, COMPANIES)
    assert pair is not None and (pair.first, pair.second, pair.measure, pair.of_change) == (first, second, measure,
                                                                                            False)
    assert members_compared("Which was larger in 2024, Ternline's revenue or its net income?", COMPANIES) is None


def test_segments_named_under_a_lone_period_are_its_columns_and_the_larger_is_stated_first():
    """'Year Ended December 31, 2024' then 'Consoles Mobile Arcade Total': each row's values are those segments'
    for that year. Asked which of two was larger, the answer states both, the larger first, and the citation
    check passes each figure as the segment named in its place."""
    from app.text.statements import read_statement
    from nodes.generate import check_citations

    rows = [r for r in read_statement(SEGMENT_NOTE).rows if r.line_item == "Segment operating income"]
    assert [(r.periods[0], r.columns, r.values) for r in rows] == [
        ("FY2024", ["Consoles", "Mobile", "Arcade", "Total"], [850.0, 464.0, 740.0, 2054.0]),
        ("FY2023", ["Consoles", "Mobile", "Arcade", "Total"], [1011.0, 685.0, 750.0, 2446.0])]
    block = _block(1, SEGMENT_NOTE, "Ternline", 2024)
    state = {"blocks": [block], "companies": ["Ternline"], "fiscal_years": [2024]}
    question = "Which was larger in 2024, Ternline's Mobile segment operating income or its Arcade segment operating " \
               "income?"
    out = Analyst(state, question).sentences()
    assert out[0] == ("Arcade segment operating income was higher than Mobile segment operating income in FY2024: "
                      "$740m against $464m [1].")
    kept, check = check_citations(out[0], [block])
    assert kept and not check.flagged
    swapped = ("Arcade segment operating income was higher than Mobile segment operating income in FY2024: $464m "
               "against $740m [1].")
    kept, check = check_citations(swapped, [block])
    assert not kept and "another segment's figure" in check.flagged[0]


def test_which_segment_reported_more_names_its_measure_before_the_two_segments():
    pair = members_compared("Which Ternline business segment reported higher (GAAP) business segment operating "
                            "income in 2024, Freight and Logistics or Passenger Rail?", COMPANIES)
    assert pair is not None and (pair.first, pair.second, pair.measure) == ("Freight and Logistics", "Passenger Rail",
                                                                           "operating income")
    assert members_compared("Which Ternline segment had the larger revenue in 2024, Freight or Passenger "
                            "segments?", COMPANIES).first == "Freight"  # type: ignore[union-attr]


_INCOME_STATEMENT = ("Consolidated Statements of Income\n(Millions)\nYears Ended December 31, 2024 2023\n"
                     "Revenues\nNet card fees $ 6,070 $ 5,195\nNet interest income 9,895 8,108\n"
                     "Total revenues net of interest expense $ 52,862 $ 42,380\n")


def test_which_of_two_lines_was_larger_states_both_lines_for_the_year_the_larger_first():
    from app.text.measures import lines_compared

    question = "Which was larger for Ternline in 2024, net card fees or net interest income?"
    lines = lines_compared(question, COMPANIES)
    assert lines is not None and (lines.first, lines.second) == ("net card fees", "net interest income")
    assert lines_compared("Which was larger in 2024, Ternline's Arcade segment operating income or its Mobile "
                          "segment operating income?", COMPANIES) is None  # two members of one measure
    assert lines_compared("Which was larger in 2024, Ternline or Helio?", COMPANIES) is None  # two companies
    state = {"blocks": [_block(1, _INCOME_STATEMENT, "Ternline", 2024)], "companies": ["Ternline"],
             "fiscal_years": [2024]}
    out = Analyst(state, question).sentences()
    assert out == ["Ternline's net interest income in FY2024 was larger than its net card fees: $9,895m against "
                   "$6,070m [1]."], out
    earlier = Analyst({**state, "fiscal_years": [2023]}, question.replace("2024", "2023")).sentences()
    assert earlier and "$8,108m against $5,195m" in earlier[0], earlier


QUARTER_AND_YEAR = """TERNLINE INC. AND SUBSIDIARIES
SUPPLEMENTAL DATA – NET REVENUES
(In thousands)
Three months ended Twelve months ended
December 31, 2024 December 31, 2023 December 31, 2024 December 31, 2023
Harbour Point Resorts $ 2,297,282 $ 1,806,686 $ 8,398,372 $ 4,737,185
Ternline Macau 174,720 314,711 673,593 1,230,150
Regional Operations 929,404 894,917 3,725,191 3,628,780"""


def test_two_members_compared_in_a_quarter_take_the_quarters_column():
    question = ("How did Ternline's Harbour Point Resorts net revenues compare with Ternline Macau's net revenues in "
                "the fourth quarter of 2024?")
    pair = members_compared(question, ["Ternline"])
    assert pair is not None and (pair.first, pair.second, pair.measure) == (
        "Harbour Point Resorts", "Ternline Macau", "net revenues")
    block = Block(n=1, kind="report", header="[1] Ternline Q4 FY2024 earnings release, p.13",
                  text=QUARTER_AND_YEAR, source_id="TERNLINE_2024Q4_EARNINGS:p13",
                  chunk_id="TERNLINE_2024Q4_EARNINGS:p13::0", company="Ternline", fiscal_year=2024, page=13)
    out = Analyst({"blocks": [block], "companies": ["Ternline"], "fiscal_years": [2024]}, question).sentences()
    assert out and "$2,297,282k against $174,720k" in out[0] and "three months" in out[0], out
    assert out[0].startswith("Harbour Point Resorts net revenues were higher than Ternline Macau net revenues"), out
