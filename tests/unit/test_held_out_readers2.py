"""Held-out misses, read generally (second set): a bank's operating costs as its noninterest expense; a table
titled '… performance of <the company>' being the whole firm's; a result's amount asked with a verb of its own
('did it squeeze out of', 'rake in', 'lose') reading only the measure; a part's sales asked as 'what did its Vision
franchise sell'; 'bring its tax rate down' and 'lose margin' asking a fall; 'the October-December 2022 quarter';
two measures' growths compared ('did its sales and marketing spending grow faster than its revenue') and the
calculator's growth of each; a company's initials and a part of the year being no topic words; 'console' being no
'consolidated'; 'Console net revenues' stating console revenue; a split sales schedule whose years line chunking
cut short; a bare margin asked being any margin row ('as a percentage of net sales'); the draft reading a row under
its chunk's title and the heading above it; a segment named in words of its own being the one member sharing a
distinctive word with it.

Functions added by the change under test are imported inside their tests, so that each test fails on its own on
the code before it.

Every company, page and figure here is made up (Quillmore Bank, a lender; Harlow, a media, optics and packaging
group; Harlow & Quinn, its long name where the question writes 'H&Q').
"""

from __future__ import annotations

from app.calc_tools import Figure
from app.evidence import Evidence
from app.facts.query import NAMES_MEASURE, _segment_title, label_match, read_query
from app.text.dates import period_end_months
from app.text.measures import measure_asked
from app.text.question_kinds import read_ask
from app.text.questions import states_measure
from app.text.statements import regional_split_rows
from app.text.terms import topic_terms
from nodes.verify import spelled_quarters

BANK = "Quillmore Bank"
CO = "Harlow"

# --- 1. a bank's operating costs: its noninterest expense ---------------------------------------------------------


def test_operating_expenses_are_a_line_item_whose_names_include_a_banks_noninterest_expense() -> None:
    """'operating_expenses' is in the catalogue, and 'Total noninterest expense' is one of its names."""
    from app.metrics import LINE_ITEMS
    from app.metrics import label_match as item_match

    assert "operating_expenses" in LINE_ITEMS
    assert item_match("Total noninterest expense", "operating_expenses") is not None


def test_a_question_about_operating_costs_names_the_operating_expenses_item() -> None:
    """'By how much did its operating costs rise': the query's line item is operating expenses."""
    query = read_query(f"By how much did {BANK}'s operating costs rise in 2021?", [BANK])
    assert "operating_expenses" in query.items
    assert query.years == (2021,)


# --- 2. a table titled '… performance of <the company>' is the whole firm's --------------------------------------


def test_a_title_naming_the_company_after_of_names_no_member() -> None:
    """'Financial performance of Quillmore Bank' heads the whole firm's table: no member 'Financial'."""
    query = read_query(f"What was {BANK}'s net income in 2021?", [BANK])
    assert _segment_title(f"Financial performance of {BANK}", query, BANK) is None


def test_a_members_own_results_title_still_names_that_member() -> None:
    """'Wireless financial results' still names the member 'Wireless' (behaviour kept)."""
    query = read_query(f"What was {BANK}'s net income in 2021?", [BANK])
    assert _segment_title("Wireless financial results", query, BANK) == "Wireless"


# --- 3. a result's amount asked with a verb of its own ------------------------------------------------------------


def test_squeeze_out_of_its_business_reads_the_measure_and_the_segment() -> None:
    """'did it still squeeze out of its DVD-by-mail business': the measure is the contribution profit, the
    business its segment; the verb is no word of the measure."""
    asked = measure_asked(f"How much contribution profit did {CO} still squeeze out of its DVD-by-mail business "
                          "in 2015?", [CO])
    assert asked.phrase == "contribution profit"
    assert asked.segment == "DVD-by-mail"


def test_rake_in_is_no_word_of_the_measure() -> None:
    """'How much operating income did it rake in': only 'operating income'."""
    asked = measure_asked(f"How much operating income did {CO} rake in during 2022?", [CO])
    assert asked.phrase == "operating income"
    assert asked.segment is None


def test_expect_stays_a_word_of_a_forward_measure() -> None:
    """'How much revenue does it expect': the forward word stays in the phrase (it asks guidance)."""
    asked = measure_asked(f"How much revenue does {CO} expect in 2023?", [CO])
    assert "expect" in asked.phrase.split()
    assert "revenue" in asked.phrase.split()


def test_lose_is_no_word_of_the_measure() -> None:
    """'How much console revenue did it lose': the measure is 'console revenue'."""
    asked = measure_asked(f"How much console revenue did {CO} lose in 2019?", [CO])
    assert asked.phrase == "console revenue"
    assert asked.segment is None


def test_what_did_its_franchise_sell_asks_the_franchises_net_sales() -> None:
    """'What did its Vision franchise sell over the first half of 2023?': the Vision part's net sales."""
    asked = measure_asked(f"What did {CO}'s Vision franchise sell over the first half of 2023?", [CO])
    assert asked.phrase == "net sales"
    assert asked.segment == "Vision"


# --- 4. the kind of answer asked ----------------------------------------------------------------------------------


def test_how_much_did_it_lose_asks_a_change() -> None:
    """'How much console revenue did it lose in 2019?': the change (the fall), not the level."""
    assert read_ask(f"How much console revenue did {CO} lose in 2019?").kind == "change"


def test_bring_its_tax_rate_down_asks_whether_it_fell() -> None:
    """'Did it manage to bring its tax rate down': a yes/no change, downwards."""
    ask = read_ask(f"Did {CO} manage to bring its tax rate down in fiscal 2015?")
    assert (ask.kind, ask.direction) == ("yes_no_change", -1)


def test_lose_margin_asks_whether_the_margin_fell() -> None:
    """'Did its Flexibles business lose margin in the October-December 2022 quarter?': a yes/no fall."""
    ask = read_ask(f"Did {CO}'s Flexibles business lose margin in the October-December 2022 quarter?")
    assert (ask.kind, ask.direction) == ("yes_no_change", -1)


def test_what_did_its_franchise_sell_asks_a_figure_not_a_list() -> None:
    """'What did its Vision franchise sell in 2023?': one figure (the sales), no list of products."""
    assert read_ask(f"What did {CO}'s Vision franchise sell in 2023?").kind == "figure"


# --- 5. a quarter named by its months ------------------------------------------------------------------------------


def test_a_quarter_named_by_its_months_ends_in_its_last_month() -> None:
    """'the October-December 2022 quarter' ends in December 2022 (its 'December 2022 quarter' was read before)."""
    assert period_end_months("in the October-December 2022 quarter") == [(2022, 12)]


def test_a_span_of_months_names_the_period_it_ends_in_whatever_the_period_is_called() -> None:
    """'the July-September 2022 period' and 'the October-December, 2022 quarter' (a comma before the year) end in
    their last month too: the span's months are read, not only a month written right before the year."""
    assert period_end_months("in the July-September 2022 period") == [(2022, 9)]
    assert period_end_months("in the October-December, 2022 quarter") == [(2022, 12)]


# --- 6. two measures' growths compared ------------------------------------------------------------------------------


def test_grow_faster_than_names_both_measures_and_the_order() -> None:
    """'Did its sales and marketing spending grow faster than its revenue': the two measures, faster."""
    from app.text.measures import growths_compared

    pair = growths_compared(f"Did {CO}'s sales and marketing spending grow faster than its revenue in fiscal 2016?",
                            [CO])
    assert pair is not None
    assert "sales and marketing" in pair.first
    assert "revenue" in pair.second and "marketing" not in pair.second
    assert CO not in pair.first and "2016" not in pair.first and "2016" not in pair.second
    assert pair.faster is True


def test_rise_more_slowly_than_asks_the_slower_growth() -> None:
    """'Did its SG&A rise more slowly than its net sales': faster is False."""
    from app.text.measures import growths_compared

    pair = growths_compared(f"Did {CO}'s SG&A rise more slowly than its net sales in 2021?", [CO])
    assert pair is not None
    assert pair.first == "SG&A"
    assert pair.second == "net sales"
    assert pair.faster is False


def test_a_question_with_no_than_comparison_compares_no_growths() -> None:
    """'Did its revenue grow in 2021?': no two measures compared."""
    from app.text.measures import growths_compared

    assert growths_compared(f"Did {CO}'s revenue grow in 2021?", [CO]) is None


# --- 7. the calculator's growth of each measure ---------------------------------------------------------------------

_GROWTHS_ASKED = f"Did {CO}'s sales and marketing spending grow faster than its revenue in fiscal 2016?"


def _figure(label: str, value: float, year: int) -> Figure:
    return Figure(label=label, value=value, unit="$m", company=CO, fiscal_year=year, source_id="HW_2016_10K")


def test_the_calculator_plans_each_measures_growth_between_the_two_years() -> None:
    """Each measure's per cent change from 2015 to 2016, the year asked and the one before it; the 2014 row
    is no part of either."""
    from app.models.providers.offline.calculator import plan_growths_compared

    figures = [_figure("Sales and marketing", 824.1, 2016), _figure("Sales and marketing", 607.2, 2015),
               _figure("Total revenue", 6779.5, 2016), _figure("Total revenue", 5504.7, 2015),
               _figure("Total revenue", 4374.6, 2014)]
    plan = plan_growths_compared(_GROWTHS_ASKED, figures)
    assert plan == [("percentage_change", {"old": 607.2, "new": 824.1}),
                    ("percentage_change", {"old": 5504.7, "new": 6779.5})]


def test_the_calculator_plans_nothing_with_only_one_measures_figures() -> None:
    """With only the revenue's figures there is no comparison to make: no plan."""
    from app.models.providers.offline.calculator import plan_growths_compared

    figures = [_figure("Total revenue", 6779.5, 2016), _figure("Total revenue", 5504.7, 2015)]
    assert plan_growths_compared(_GROWTHS_ASKED, figures) == []


# --- 8. a company's initials and a part of the year are no topic words ----------------------------------------------


def test_initials_and_a_part_of_the_year_are_no_topic_terms() -> None:
    """"What did H&Q's Vision franchise sell over the first half of 2023?" of Harlow & Quinn: neither 'H&Q'
    (its letters) nor 'first half' nor 'over' is a topic; 'Vision' is."""
    terms = topic_terms("What did H&Q's Vision franchise sell over the first half of 2023?", ["Harlow & Quinn"])
    assert not terms & {"h", "q", "s", "first", "half", "over"}
    assert "vision" in terms


# --- 9. 'console' is no 'consolidated' -------------------------------------------------------------------------------


def test_console_and_consolidated_are_false_friends() -> None:
    """The stems 'consol' and 'consolid' start alike but are two words."""
    from app.text.terms import false_friends

    assert false_friends("consol", "consolid") is True


def test_a_consolidated_revenue_row_does_not_name_console_revenue() -> None:
    """'Total consolidated net revenues' is no row of the console revenue asked."""
    query = read_query(f"How much console revenue did {CO} make in 2019?", [CO])
    assert label_match("Total consolidated net revenues", query) < NAMES_MEASURE


# --- 10. 'net' between a name's words ----------------------------------------------------------------------------------


def test_net_between_the_names_words_still_states_the_measure() -> None:
    """'Console net revenues by platform' states console revenue ('net' qualifies the noun that follows)."""
    assert states_measure([{"consol", "revenu"}], "Console net revenues by platform") is True


def test_another_word_between_two_words_still_states_no_measure() -> None:
    """'Total current assets' does not state total assets (kept)."""
    assert states_measure([{"total", "asset"}], "Total current assets") is False


# --- 11. a split sales schedule whose years line chunking cut short --------------------------------------------------

SPLIT = "\n".join([
    "REPORTED SALES vs. PRIOR PERIOD ($MM)",
    "SECOND QUARTER SIX MONTHS",
    "2023 2022",
    "LENSWORKS",
    "US 529 496 6.6% 6.6% - 1,087 1,017 6.9% 6.9% -",
    "Intl 778 745 4.6% 7.1% -2.5% 1,521 1,481 2.7% 7.5% -4.8%",
    "WW 1,308 1,241 5.4% 6.9% -1.5% 2,608 2,498 4.4% 7.2% -2.8%",
])


def test_a_split_schedule_with_one_years_line_reads_the_worldwide_row_for_both_spans() -> None:
    """The years line gives one pair ('2023 2022') for both spans: the heading's worldwide row is read, its
    quarter's and half's levels in order, the change columns left out."""
    rows = regional_split_rows(SPLIT)
    assert [r.line_item for r in rows] == ["LENSWORKS"]
    assert rows[0].values == [1308, 1241, 2608, 2498]
    assert rows[0].periods == ["Q2 2023", "Q2 2022", "H1 2023", "H1 2022"]


def test_the_claim_check_reads_the_half_a_cut_schedule_heads() -> None:
    """The claim check spells the schedule's spans out: a claim about H1 2023 has it in the evidence."""
    assert "H1 2023" in spelled_quarters(SPLIT)


# --- 12. a bare margin asked is any margin row -------------------------------------------------------------------------


def test_a_result_as_a_percentage_of_net_sales_is_its_margin() -> None:
    """'Adjusted EBIT as a percentage of net sales' is the Adjusted EBIT margin."""
    from app.facts.query import as_margin

    assert as_margin("Adjusted EBIT as a percentage of net sales") == "Adjusted EBIT margin"
    assert as_margin("Adjusted EBIT") == "Adjusted EBIT"


def test_a_margin_row_written_as_a_percentage_names_the_margin_asked() -> None:
    """'Did its Flexibles business lose margin': the row 'Adjusted EBIT as a percentage of net sales' names it."""
    query = read_query(f"Did {CO}'s Flexibles business lose margin in 2022?", [CO])
    assert label_match("Adjusted EBIT as a percentage of net sales", query) >= NAMES_MEASURE


# --- 13. the draft reads a row under its chunk's title and the heading above it ---------------------------------------


def test_a_chunks_first_line_title_is_its_context() -> None:
    """A chunk opening on 'Domestic Tape Segment' over rows that name no segment stands under that title."""
    from nodes.draft import chunk_context

    evidence = Evidence(chunk_id="HW_2015_10K:p30::0", source_id="HW_2015_10K:p30", company=CO, fiscal_year=2015,
                        page=30, text="Domestic Tape Segment\n(in thousands)\nContribution profit 321,829 368,279")
    assert "Domestic Tape Segment" in chunk_context(evidence)


def test_a_first_line_with_figures_is_no_title() -> None:
    """A chunk whose first line is a row of figures has no title for its context."""
    from nodes.draft import chunk_context

    evidence = Evidence(chunk_id="HW_2015_10K:p31::0", source_id="HW_2015_10K:p31", company=CO, fiscal_year=2015,
                        page=31, text="Contribution profit 321,829 368,279\nDomestic Tape Segment")
    assert chunk_context(evidence) == ""


def test_the_heading_above_a_row_is_read() -> None:
    """'WW 1,308 1,241' stands under the heading 'LENSWORKS' above it, not the schedule's title."""
    from nodes.draft import heading_of

    evidence = Evidence(chunk_id="HW_2023Q2:p7::0", source_id="HW_2023Q2:p7", company=CO, fiscal_year=2023, page=7,
                        text="REPORTED SALES ($MM)\nLENSWORKS\nWW 1,308 1,241")
    assert heading_of(evidence, "WW 1,308 1,241") == "LENSWORKS"


# --- 14. a segment named in words of its own ---------------------------------------------------------------------------
# (the question writes the business capitalised, 'VHS-by-mail', as the segment reader reads a named part; a
# lower-case 'tape-by-mail' is read as words of the measure and names no segment at all)

_VHS = """Domestic VHS Segment
(in thousands)
Year Ended December 31,
2015 2014 2013
Members at end of period 4,904 5,767 6,930
Revenues $ 645,737 $ 765,161 $ 910,797
Cost of revenues 323,908 396,882 471,523
Contribution profit 321,829 368,279 439,274"""
_STREAMING = """Domestic Streaming Segment
(in thousands)
Year Ended December 31,
2015 2014 2013
Revenues $ 4,180,339 $ 3,431,434 $ 2,751,375
Cost of revenues 2,487,193 2,201,761 1,863,376
Contribution profit 1,375,500 936,104 639,383"""
_SEGMENT_ASKED = f"How much contribution profit did {CO} make from its VHS-by-mail business in 2015?"


def _segment_doc(text: str, page: int) -> Evidence:
    return Evidence(chunk_id=f"HW_2015_10K:p{page}::0", source_id=f"HW_2015_10K:p{page}", company=CO,
                    fiscal_year=2015, page=page, is_table=True, text=text)


def test_a_segment_named_in_words_of_its_own_is_the_member_sharing_a_distinctive_word() -> None:
    """'its VHS-by-mail business' is the 'Domestic VHS' member (they share 'VHS'); 'Domestic' alone tells
    nothing, so 'Domestic Streaming' is not it."""
    from app.facts.query import segment_by_word

    query = read_query(_SEGMENT_ASKED, [CO])
    assert query.measure.segment == "VHS-by-mail"
    resolved = segment_by_word(query, [_segment_doc(_STREAMING, 29), _segment_doc(_VHS, 30)], [CO])
    assert resolved.measure.segment == "Domestic VHS"
    assert resolved.measure.phrase == "contribution profit"


def test_two_members_sharing_the_word_leave_the_segment_as_asked() -> None:
    """When two members share the distinctive word ('Domestic VHS', 'International VHS') neither is chosen."""
    from app.facts.query import segment_by_word

    international = _VHS.replace("Domestic VHS Segment", "International VHS Segment").replace("321,829", "98,765")
    query = read_query(_SEGMENT_ASKED, [CO])
    docs = [_segment_doc(_VHS, 30), _segment_doc(international, 31)]
    assert segment_by_word(query, docs, [CO]).measure.segment == "VHS-by-mail"
