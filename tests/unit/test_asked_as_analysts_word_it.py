"""Questions in the words analysts use, read for what they ask: a move 'between' two years, a change per a quarter's
release that asks the year, what a question leaves out, an allowance a balance sheet deducts, a count placed
outside the home country, a buyback the sentence before says which programme, a bonus an agreement sets, two
divisions set apart by dashes, and a release's columns headed 'Q1 Q2 SIX MONTHS' under their year.

Every company, page and figure here is made up (Ostrava Foods, a snack maker; Wrenfield, a warehouse club; Calder
Games, a publisher; Tamsin Bank).
"""

from __future__ import annotations

from app.facts.query import choose, facts_for, read_query
from app.evidence import Evidence
from app.text.measures import measure_asked, members_compared
from app.text.question_kinds import read_ask
from app.text.statements import read_statement
from tests.unit.test_prose_amounts_dated import _compose


def test_how_much_a_rate_moved_between_two_years_is_a_change() -> None:
    assert read_ask("How much did Ostrava Foods' effective tax rate move between 2023 and 2024?").kind == "change"


def test_a_change_for_the_year_asked_per_a_quarters_release_is_the_years_change() -> None:
    question = ("What was the year-over-year change in Ostrava Foods' selling, general, and administrative expenses "
                "for fiscal 2024 (twelve months ended June 30, 2024) versus fiscal 2023, per its Q4 FY2024 earnings "
                "release?")
    query = read_query(question, ["Ostrava Foods"])
    assert query.measure.phrase == "selling general and administrative expenses"
    assert query.part is None  # the year named, not the quarter of the release
    # a question that names no period of its own keeps the part its source names
    assert read_query("What was Ostrava Foods' revenue according to its Q2 FY2024 10-Q?", ["Ostrava Foods"]).part \
        == "Q2"


def test_what_a_question_leaves_out_is_no_answer() -> None:
    text = ("Research, development and related expenses totaled $2.410 billion in 2024 and $2.380 billion in 2023. "
            "Research and development expenses, covering basic scientific research and its application, totaled "
            "$1.615 billion in 2024 and $1.590 billion in 2023.")
    question = ("Leaving out related expenses such as technical support, how much did Ostrava Foods spend on research "
                "and development in 2024?")
    assert read_query(question, ["Ostrava Foods"]).left_out == frozenset({"relat", "expens"})
    answer = _compose("Ostrava Foods", 2024, text, question)
    assert answer.startswith("Ostrava Foods' spending on research and development was $1.615bn in FY2024 [1]."), \
        answer


BALANCE = """Tamsin Bank Consolidated balance sheets (unaudited)
(in millions) Mar 31, 2025 Dec 31, 2024
Loans $ 901,307 $ 910,000
Allowance for loan losses (21,004) (24,118)
Loans, net of allowance for loan losses 880,303 885,882
"""


def test_an_allowance_the_balance_sheet_deducts_is_stated_as_its_size() -> None:
    question = "How large was Tamsin Bank's allowance for loan losses on the balance sheet as of March 31, 2025?"
    doc = Evidence(source_id="TAMSIN_2025Q1_10Q:p11", chunk_id="TAMSIN_2025Q1_10Q:p11::0", text=BALANCE,
                   company="Tamsin Bank", fiscal_year=2025, title="TAMSIN_2025Q1_10Q", page=11)
    query = read_query(question, ["Tamsin Bank"], [2025])
    assert [f.figure.value for f in choose(facts_for(query, [doc], ["Tamsin Bank"]), query)][:1] == [21004.0]


def test_a_count_outside_the_home_country_is_the_international_one() -> None:
    text = ("At August 31, 2024, Wrenfield operated 640 warehouses worldwide: 432 in the United States and 208 "
            "elsewhere. At the end of 2024, we operated 208 warehouses outside of the U.S., and we plan to continue "
            "expanding our international operations.")
    question = "How many warehouses does Wrenfield operate outside the United States?"
    assert measure_asked(question, ["Wrenfield"]).segment == "International"
    answer = _compose("Wrenfield", 2024, text, question)
    # (said as the question places it, not as the 'International' member it is read as)
    assert answer.startswith("Wrenfield's number of warehouses operated outside the United States was 208 in FY2024 "
                             "[1]."), answer


def test_a_buyback_the_sentence_before_names_is_denied_by_this_programs_sentence() -> None:
    text = ("On January 30, 2024, our Board of Directors authorized a stock repurchase program under which we are "
            "authorized to repurchase up to $1.2 billion of our common stock through January 2026. To date, we have "
            "not repurchased any shares under this program.")
    question = ("Did Calder Games buy back any stock under the $1.2 billion repurchase program its board authorized "
                "in January 2024, as of its fiscal 2024 annual report?")
    answer = _compose("Calder Games", 2024, text, question)
    assert answer.startswith("No. To date, we have not repurchased any shares under this program [1]"), answer


def test_a_bonus_an_employment_agreement_sets_is_read_from_its_terms() -> None:
    text = ("During each year of the Employment Period, Executive shall have the opportunity to earn an annual bonus "
            "under the Annual Incentive Plan equal to, at target, 150 percent of Executive's then-current Base "
            "Salary (the \u201cAnnual Bonus\u201d).")
    question = ("Under the employment agreement Calder Games signed with its incoming CEO in May 2024, what is her "
                "target annual bonus expressed as a share of base salary?")
    query = read_query(question, ["Calder Games"])
    assert query.of_terms and not query.ahead and query.measure.segment is None
    assert "150%" in _compose("Calder Games", 2024, text, question)
    # a report's own account still leaves a contract's wording out
    plain = "What was Calder Games' annual bonus as a share of base salary in 2024?"
    assert "150%" not in _compose("Calder Games", 2024, text, plain)


def test_two_divisions_set_apart_by_dashes_are_compared() -> None:
    pair = members_compared("In Ostrava Foods' first quarter of 2024, which division earned more reported operating "
                            "profit \u2014 Snacks North America or Beverages North America \u2014 and by how much?",
                            ["Ostrava Foods"])
    assert pair is not None
    assert (pair.first, pair.second, pair.measure) == ("Snacks North America", "Beverages North America",
                                                       "reported operating profit")


def test_a_year_over_its_quarters_and_half_heads_three_columns() -> None:
    text = ("Ostrava Foods Condensed Consolidated Statement of Earnings\n"
            "(Unaudited; in Millions Except Per Share Figures) 2024\nQ1 Q2 SIX MONTHS\n"
            "Amount Amount Amount\nResearch and development expense 1,455 1,703 3,158\n")
    row = read_statement(text).rows[-1]
    assert (row.values, row.periods) == ([1455.0, 1703.0, 3158.0], ["Q1 2024", "Q2 2024", "6M FY2024"])
    wide = "(in millions)\nFOURTH QUARTER TWELVE MONTHS\n2024 2023 2024 2023\nSales $ 5,100 $ 4,800 $ 19,000 $ 18,200\n"
    assert read_statement(wide).periods == ["Q4 2024", "Q4 2023", "FY2024", "FY2023"]


def test_profit_that_came_from_a_segment_is_the_segments_profit() -> None:
    asked = measure_asked("How much operating profit came from Ostrava Foods' Convenience segment in fiscal 2024?",
                          ["Ostrava Foods"])
    assert (asked.phrase, asked.segment) == ("operating profit", "Convenience")


def test_a_year_over_year_change_states_the_measure_and_both_years() -> None:
    from app.calc_tools import CalcResult, Figure
    from app.models.providers.offline.composer.results import lead_sentence

    def sga(value: float, year: int) -> Figure:
        return Figure(label="Selling, general, and administrative expenses", value=value, unit="$m",
                      company="Ostrava Foods", fiscal_year=year, period=f"{year}-06-30",
                      source_id="OSTRAVA_2024Q4_EARNINGS:p8")

    result = CalcResult(tool="metric", inputs={"measure_2023": 1284.0, "measure_2024": 1246.0}, result=-2.96,
                        unit="%", expression="((1246 - 1284) / 1284) * 100",
                        sources={"measure_2023": sga(1284.0, 2023), "measure_2024": sga(1246.0, 2024)},
                        formula="year-over-year change = change in measure / prior measure")
    lead = lead_sentence(result)
    assert lead.startswith("Ostrava Foods' selling, general, and administrative expenses fell 2.96% from $1,284m")
    assert "$1,246m" in lead


def test_the_calculator_reads_the_part_the_question_asks_not_its_sources() -> None:
    from app.metric_plans import asks_part_year

    asked = ("What was the year-over-year change in Ostrava Foods' SG&A for fiscal 2024 (twelve months ended June "
             "30, 2024) versus fiscal 2023, per its Q4 FY2024 earnings release?")
    assert asks_part_year(asked) is False
    assert asks_part_year("What was Ostrava Foods' SG&A in Q2 FY2024?") == "Q2"


def test_a_rounding_asked_for_a_rate_leaves_the_amounts_as_stated() -> None:
    from app.models.providers.offline.composer.wording import in_asked_scale

    asked = ("What is Ostrava Foods' year-over-year change in operating income from FY2023 to FY2024 (in units of "
             "percents and round to one decimal place)?")
    assert in_asked_scale(asked, 903095.0, "$k", 2023) == "$903,095k in FY2023"
    assert in_asked_scale(asked, 12.345, "%", 2024) == "12.3% in FY2024 (stated as 12.345%)"


def test_where_a_question_says_it_read_a_figure_is_no_part_of_its_measure() -> None:
    text = ("As of December 31, 2024, we had $38.4 billion in long-term debt outstanding, including unsecured debt "
            "and asset-backed securities.")
    question = ("Per the funding discussion in Tamsin Bank's 2024 Form 10-K, how much long-term debt did the company "
                "have outstanding at December 31, 2024?")
    assert measure_asked(question, ["Tamsin Bank"]).phrase == "long-term debt outstanding"
    assert "$38.4bn in FY2024 [1]" in _compose("Tamsin Bank", 2024, text, question)


def test_not_undertaking_any_new_actions_denies_launching_one() -> None:
    text = ("Restructuring, impairment, and other exit costs totaled $24 million in fiscal 2024 compared to $275 "
            "million in fiscal 2023. We did not undertake any new restructuring actions in fiscal 2024.")
    answer = _compose("Ostrava Foods", 2024, text, "Did Ostrava Foods launch any new restructuring actions during "
                                                   "fiscal 2024?")
    assert answer.startswith("No. We did not undertake any new restructuring actions in fiscal 2024 [1]"), answer


def test_a_two_word_segment_heads_its_table_by_its_initials() -> None:
    from app.facts.query import same_member

    text = ("COMMERCIAL SERVICES\nTABLE 11: CS SELECTED INCOME STATEMENT DATA\nYears Ended December 31,\n"
            "(Millions, except percentages) 2024 2023 2022\nTotal expenses 10,124 8,395 6,930\n"
            "Pretax segment income $ 2,880 $ 2,936 $ 1,013\n")
    assert same_member("Commercial Services", "CS") and not same_member("Consumer Services", "CX")
    answer = _compose("Tamsin Bank", 2024, text, "What pretax income did Tamsin Bank's Commercial Services segment "
                                                 "earn in 2024?")
    assert answer.startswith("Tamsin Bank's Commercial Services (CS) segment pretax income was $2,880m in FY2024"), \
        answer


def test_an_aside_on_the_kind_of_measure_and_a_time_said_first_are_no_part_of_what_is_asked() -> None:
    asked = measure_asked("How did Ostrava Foods' free cash flow, a non-GAAP measure, change in fiscal 2024 relative "
                          "to fiscal 2023?", ["Ostrava Foods"])
    assert asked.phrase == "free cash flow"
    assert read_ask("By the time of its annual report for fiscal 2024, had Calder Games received approval to open "
                    "its own studio?").kind == "yes_no"


def test_an_area_written_as_an_adjective_is_stated_with_its_unit() -> None:
    text = ("Ostrava Foods today announced the opening of a 42,000 square-metre distribution centre at Coventry in "
            "the West Midlands.")
    answer = _compose("Ostrava Foods", 2024, text, "How large is the distribution centre Ostrava Foods opened at "
                                                   "Coventry?")
    assert answer.startswith("42,000 square metres in FY2024"), answer
