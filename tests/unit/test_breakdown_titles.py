"""A breakdown table whose title says more than the measure ('SUPPLEMENTAL DATA – ADJUSTED PROPERTY EBITDAR AND
ADJUSTED EBITDAR'): its rows are the members an extreme question ranks, its page is read whole when search found
only its footnotes, and the period asked (the whole year) is ranked, not the quarter beside it."""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import member_facts, read_query, titles_measure
from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block
from nodes.inputs import statement_continuations

CO = "Lakeshore Resorts"
HEAD = ("LAKESHORE RESORTS INC. AND SUBSIDIARIES\n"
        "SUPPLEMENTAL DATA – ADJUSTED PROPERTY EBITDAR AND ADJUSTED EBITDAR\n"
        "(In thousands)\n(Unaudited)\nThree months ended Twelve months ended\nDecember 31,\n2022\nDecember 31,\n2021\n"
        "December 31,\n2022\nDecember 31,\n2021\n")
ROWS = Evidence(chunk_id="lr:p13::1", source_id="LAKESHORE_2022Q4_EARNINGS:p13", company=CO, fiscal_year=2022,
                page=13, text=HEAD + "Strip Resorts $ 877,052 $ 698,739 $ 3,142,308 $ 1,738,211\n"
                "Regional Operations 319,517 309,250 1,294,630 1,217,814\n"
                "Macau (54,979) 5,015 (203,136) 25,367\n")
NOTES = Evidence(chunk_id="lr:p13::2", source_id="LAKESHORE_2022Q4_EARNINGS:p13", company=CO, fiscal_year=2022,
                 page=13, text=HEAD + "(1) Twelve months ended December 31, 2022 includes amounts related to Macau of "
                 "$18 million and transaction costs of $42 million.")
QUESTION = "Which region had the highest EBITDAR contribution for Lakeshore Resorts during FY2022?"


def test_a_title_that_holds_the_measure_among_other_words_names_a_breakdown_but_a_reconciliation_does_not():
    query = read_query(QUESTION, [CO])
    assert titles_measure("SUPPLEMENTAL DATA – ADJUSTED PROPERTY EBITDAR AND ADJUSTED EBITDAR", query)
    assert not titles_measure("RECONCILIATION OF NET INCOME ATTRIBUTABLE TO LAKESHORE TO ADJUSTED EBITDAR", query)
    assert not titles_measure("SUPPLEMENTAL DATA – NET REVENUES", query)
    members = {f.segment for f in member_facts(query, [ROWS], [CO])}
    assert members == {"Strip Resorts", "Regional Operations", "Macau"}


def test_the_page_of_footnotes_under_the_measures_table_is_read_whole_for_an_extreme_question():
    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return [ROWS, NOTES] if (source_id, page) == (ROWS.source_id, 13) else []

    [added] = statement_continuations(QUESTION, [NOTES], page_fn, [CO])
    assert added.chunk_id == ROWS.chunk_id
    assert statement_continuations(f"What was {CO}'s EBITDAR in FY2022?", [NOTES], page_fn, [CO]) == []


def test_the_year_asked_ranks_the_twelve_months_column_not_the_quarter_beside_it():
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2022", text=ROWS.text, source_id=ROWS.source_id,
                  chunk_id=ROWS.chunk_id, company=CO, fiscal_year=2022, page=13)
    lead = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2022]}, QUESTION).sentences()[0]
    assert lead == "Strip Resorts had the highest EBITDAR in FY2022: $3,142,308k [1]."


WITH_CORPORATE = ROWS.text + "Corporate(2) (113,058) (117,491) (431,238) (380,501)\n"


def test_a_share_asked_is_the_members_part_of_every_rows_sum_computed_once_and_stated_rounded_once():
    from app.calc_tools import CALCULATOR_FUNCTIONS
    from app.models.providers.offline.calculator import plan_tool_calls
    from app.calc_tools import CalculationOutcome

    doc = ROWS.model_copy(update={"text": WITH_CORPORATE})
    query = read_query(QUESTION, [CO])
    rows = member_facts(query, [doc], [CO], reconciling=True)
    assert {(f.segment, f.figure.origin) for f in rows} >= {("Corporate", "reconciling"), ("Macau", "table")}
    assert "Corporate" not in {f.segment for f in member_facts(query, [doc], [CO])}  # never ranked
    figures = [f.figure.model_copy(update={"label": f"{f.segment}: {f.figure.label}"}) for f in rows
               if f.part is None]
    [(tool, args)] = plan_tool_calls(QUESTION, figures)
    assert tool == "evaluate" and args["unit"] == "%"
    result = CALCULATOR_FUNCTIONS[tool](**args)
    # 3,142,308 / (3,142,308 + 1,294,630 - 203,136 - 431,238) = 82.63…%: the Strip, Corporate in the sum
    assert result.unit == "%" and result.result == 82.64 and round(result.exact or 0, 3) == 82.637
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2022", text=doc.text, source_id=doc.source_id,
                  chunk_id=doc.chunk_id, company=CO, fiscal_year=2022, page=13)
    calc = Block(n=2, kind="calculation", header="[2] calculation", text=f"evaluate: {args['expression']} = "
                 f"{result.result}%", source_id="calculation", chunk_id="calculation")
    state = {"blocks": [block, calc], "companies": [CO], "fiscal_years": [2022],
             "calculation": CalculationOutcome(status="ok", results=[result])}
    lead = Analyst(state, QUESTION).sentences()[0]
    assert lead == ("Strip Resorts had the highest EBITDAR in FY2022: $3,142,308k, 82.6% of the total of the "
                    "table's rows [1][2].")
    assert plan_tool_calls("Which region had the highest EBITDAR for Lakeshore in FY2022?", figures) == []


def test_a_claim_standing_in_for_an_extreme_answer_must_rank_what_it_names():
    asked = Analyst({"blocks": [], "companies": [CO]}, "Which type of debt received the largest investment among "
                    "the short term investments for Lakeshore in H1 FY2023?")
    definition = ("Debt securities are classified as short-term investments within prepaid expenses and other when "
                  "the investment of cash is available for current operations [1].")
    ranking = "Corporate bonds were the largest of the short-term investments, at 82% of debt securities held [1]."
    assert asked.on_topic([definition]) == [] and asked.on_topic([ranking]) == [ranking]


def test_a_claim_standing_in_for_the_largest_member_must_state_the_measure_asked():
    asked = Analyst({"blocks": [], "companies": [CO]}, "Which segment of Lakeshore had the highest net sales in "
                    "fiscal 2020?")
    other = ("Segment operating profit decreased 8 percent to $114 million in fiscal 2020, primarily driven by higher "
             "input costs [1].")
    ranking = "North America Retail had the highest net sales of our segments, at $10.7 billion in fiscal 2020 [1]."
    assert asked.on_topic([other]) == [] and asked.on_topic([ranking]) == [ranking]


def test_a_figure_claim_that_is_a_rows_cells_without_its_header_is_no_answer():
    asked = Analyst({"blocks": [], "companies": [CO]}, "What were Lakeshore's capital expenditures in fiscal 2020?")
    assert asked.on_topic(["Capital expenditures 460.8 537.6 622.7 684.4 729.3 [1]."]) == []
    stated = "Capital expenditures were $460.8 million in fiscal 2020 [1]."
    assert asked.on_topic([stated]) == [stated]


def test_an_amount_asked_is_not_answered_by_a_claim_of_shares_or_rates_alone():
    asked = Analyst({"blocks": [], "companies": [CO]}, "What was Lakeshore's total debt at the end of 2022?")
    share = "Total debt represented 34.1% of total capital in 2022 and 31.3% of total capital in 2021 [1]."
    amount = "The total debt balance at the end of 2022 was $39.7 billion [1]."
    assert asked.on_topic([share]) == [] and asked.on_topic([amount]) == [amount]
