"""Held-out misses, read generally (fourth set): 'pre-tax profit' and its kin naming pretax income; a member a
filing's tables name by its initials ('USCS') read by the words it is defined with ('U.S. Consumer Services
(USCS)'), and a list of segments with a dotted initialism and a name holding an 'and' of its own; a segment asked
in lower case ('its pharma segment') sharing the start of a member's word ('Pharmaceutical'); a pharma segment's
earnings 'before tax'; 'paying in operating lease costs … going by the June 2023 quarter'; '&' initials
written out ('R&D spend'), a revenue's 'jump'; a segment's sales asked with ', and how did it do organically?';
a 'Six Months Ended' header over four columns whose 'Three Months Ended' title chunking cut off; a lease cost row
saying where it is booked; 'Pretax segment income' of a segment; amounts per share never given the filing's scale;
'jumped', 'climbed', 'surged' and 'soared' asking a rise.

Functions added by the changes under test are imported inside their tests, so that each test fails on its own on
the code before them.

Every company, page and figure here is made up (Pellmont, a packaging and pharma group also written 'Pellmont
Group'; Harrowgate Financial, a card issuer whose segments go by their initials).
"""

from __future__ import annotations

import re

from app.calc_tools import Figure
from app.evidence import Evidence
from app.facts.members import named_segments
from app.facts.query import Fact, facts_for, label_match, read_query
from app.metrics import items_named, resolve_item
from app.text.measures import first_part, implied_words, measure_asked
from app.text.statements import read_statement

CO = "Pellmont"
GROUP = "Pellmont Group"
CARDS = "Harrowgate"

# --- 1. 'pre-tax profit' and its kin name pretax income ---------------------------------------------------------------


def test_pre_tax_profit_and_its_kin_resolve_to_pretax_income() -> None:
    """'pre-tax profit', 'pretax profit', 'pre-tax earnings' and 'income before tax' are each pretax income."""
    for phrase in ("pre-tax profit", "pretax profit", "pre-tax earnings", "income before tax"):
        assert resolve_item(phrase) == "pretax_income", phrase


def test_a_question_asking_pre_tax_profit_names_pretax_income() -> None:
    """The question's words are read apart at the hyphen ('pre tax profit'), and the name is kept so too."""
    assert items_named(f"How much pre-tax profit did {CO} make in 2022?") == ["pretax_income"]


def test_profit_alone_is_still_no_pretax_income() -> None:
    """'operating profit' is not read as pretax income (behaviour kept)."""
    assert resolve_item("operating profit") != "pretax_income"
    assert "pretax_income" not in items_named(f"How much operating profit did {CO} make in 2022?")


# --- 2. a member named by its initials, read by the words the filing defines them with --------------------------------

SEGMENTS_TEXT = (f"{CARDS} Financial has four reportable operating segments: U.S. Consumer Services (USCS), "
                 "Commercial Services (CS), International Card Services (ICS) and Global Merchant and Network "
                 "Services (GMNS).")


def test_an_initialism_is_spelled_out_by_the_words_defining_it() -> None:
    """'USCS' is 'U.S. Consumer Services' (its dotted initialism counted as the 'US'); 'GMNS' is 'Global Merchant
    and Network Services' (the 'and' counted as no initial)."""
    from app.facts.query import member_spelled_out

    assert member_spelled_out("USCS", SEGMENTS_TEXT) == "U.S. Consumer Services"
    assert member_spelled_out("GMNS", SEGMENTS_TEXT) == "Global Merchant and Network Services"
    assert member_spelled_out("ICS", SEGMENTS_TEXT) == "International Card Services"


def test_an_initialism_defined_in_quotes_is_spelled_out() -> None:
    """'Consumer & Community Banking ("CCB")': the '&' is no initial, the quotes no part of the name."""
    from app.facts.query import member_spelled_out

    text = ('The Firm reports its results in two segments: Consumer & Community Banking ("CCB") and Wholesale '
            'Lending ("WL").')
    assert member_spelled_out("CCB", text) == "Consumer & Community Banking"


def test_a_member_that_is_no_initialism_or_not_defined_is_spelled_out_as_none() -> None:
    """'Flexibles' is a word, not initials; 'ZQX' is defined nowhere in the text."""
    from app.facts.query import member_spelled_out

    assert member_spelled_out("Flexibles", SEGMENTS_TEXT) is None
    assert member_spelled_out("ZQX", SEGMENTS_TEXT) is None


def _card_segment(member: str, pretax: int, before: int, page: int) -> Evidence:
    text = (f"{member} Segment\n(in millions)\nYear Ended December 31,\n2022 2021\n"
            f"Total revenues net of interest expense $ {pretax * 5:,} $ {before * 5:,}\n"
            f"Pretax segment income $ {pretax:,} $ {before:,}\n")
    return Evidence(chunk_id=f"HARROWGATE_2022_10K:p{page}::0", source_id=f"HARROWGATE_2022_10K:p{page}",
                    company=CARDS, fiscal_year=2022, page=page, is_table=True, text=text)


def test_a_segment_asked_in_words_is_the_member_its_initials_stand_for() -> None:
    """'its U.S. consumer business', where the tables name members 'USCS', 'ICS' and 'GMNS' and the filing defines
    'U.S. Consumer Services (USCS)': the member 'USCS'."""
    from app.facts.query import segment_by_word

    docs = [Evidence(chunk_id="HARROWGATE_2022_10K:p5::0", source_id="HARROWGATE_2022_10K:p5", company=CARDS,
                     fiscal_year=2022, page=5, text=SEGMENTS_TEXT),
            _card_segment("USCS", 3950, 3410, 90), _card_segment("ICS", 610, 540, 91),
            _card_segment("GMNS", 2270, 2010, 92)]
    query = read_query(f"What was the pre-tax profit of {CARDS}'s U.S. consumer business in 2022?", [CARDS])
    assert query.measure.segment == "U.S. consumer"
    assert segment_by_word(query, docs, [CARDS]).measure.segment == "USCS"


# --- 3. the segments a filing lists in words ----------------------------------------------------------------------


def test_named_segments_keeps_a_dotted_initialism_and_splits_the_last_two() -> None:
    """All four names, in order: 'U.S. Consumer Services' whole (its dots end no sentence), and 'International Card
    Services and Global Merchant and Network Services' split at the 'and' that joins two names."""
    assert named_segments([SEGMENTS_TEXT]) == ["U.S. Consumer Services", "Commercial Services",
                                               "International Card Services", "Global Merchant and Network Services"]


def test_named_segments_still_splits_a_plain_last_pair() -> None:
    """'three reportable segments: Flexibles, Rigid Packaging and Other.' is still three (behaviour kept)."""
    assert named_segments([f"{CO} has three reportable segments: Flexibles, Rigid Packaging and Other."]) == [
        "Flexibles", "Rigid Packaging", "Other"]


# --- 4. a word shared by its start ------------------------------------------------------------------------------


def test_a_word_of_five_letters_or_more_is_shared_with_a_word_it_starts() -> None:
    """'pharma' is the start of 'pharmaceutical'; 'phar' (four letters) is too short to tell."""
    from app.facts.query import _shared

    assert _shared({"pharma"}, {"pharmaceutical"}) == {"pharma"}
    assert _shared({"phar"}, {"pharmaceutical"}) == set()
    assert _shared({"pharma", "segment"}, {"pharmaceutical", "products"}) == {"pharma"}


# --- 5. a part named in lower case ------------------------------------------------------------------------------


def test_a_lower_case_segment_earning_before_tax_asks_its_income_before_tax() -> None:
    """"What did Pellmont Group's pharma segment earn before tax": the owner's name ends the part's ('pharma'),
    and what it earned before tax is its income before tax."""
    asked = measure_asked(f"What did {GROUP}'s pharma segment earn before tax in 2022?", [CO, GROUP])
    assert asked.segment == "pharma"
    assert asked.phrase == "income before tax"


def test_a_lower_case_segment_earning_asks_its_net_income() -> None:
    """'What did its pharma segment earn': the part is 'pharma', what it earned its net income."""
    asked = measure_asked("What did its pharma segment earn in 2022?", [CO])
    assert asked.segment == "pharma"
    assert asked.phrase == "net income"


def test_words_saying_which_business_name_no_segment() -> None:
    """'its core business' and 'its largest segment' say which, not what it is called: no segment."""
    assert measure_asked("How big is its core business?", [CO]).segment is None
    assert measure_asked("What was revenue of its largest segment?", [CO]).segment is None


# --- 6. 'paying in operating lease costs …, going by the June 2023 quarter' ------------------------------------------


def test_paying_in_a_cost_going_by_a_quarter_asks_the_cost() -> None:
    """'is Pellmont paying in operating lease costs' asks the costs; ', going by the June 2023 quarter' is the
    period read, no word of the measure."""
    asked = measure_asked(f"How much more is {CO} paying in operating lease costs than a year ago, going by the "
                          "June 2023 quarter?", [CO])
    assert asked.phrase == "operating lease costs"
    assert asked.segment is None


# --- 7. '&' initials written out ------------------------------------------------------------------------


def test_r_and_d_spend_asks_research_and_development() -> None:
    """'R&D spend' is written out as reports write it."""
    assert measure_asked(f"What was {CO}'s R&D spend in 2018?", [CO]).phrase == "research and development"


def test_a_revenue_jump_asks_the_revenue_not_the_jump() -> None:
    """'How much did its FX-related revenue jump': 'jump' is the verb of its rise, no word of the measure."""
    phrase = measure_asked(f"How much did {CO}'s FX-related revenue jump in 2022?", [CO]).phrase
    assert phrase == "FX-related revenue"


def test_a_question_without_initials_implies_no_spelled_words() -> None:
    """'What was Pellmont's revenue in 2022?' implies nothing (behaviour kept)."""
    assert implied_words(f"What was {CO}'s revenue in 2022?", [CO], "revenue 2022") == []


# --- 8. ', and how did it do organically?' ------------------------------------------------------------------------

ORGANIC = f"What did {CO}'s Electronics and Energy segment sell in 2018, and how did it do organically?"


def test_a_segments_sales_asked_with_how_it_did_is_its_net_sales() -> None:
    """The segment is 'Electronics and Energy' (its 'and' its own), what it sold its net sales."""
    asked = measure_asked(ORGANIC, [CO])
    assert asked.phrase == "net sales"
    assert asked.segment == "Electronics and Energy"


def test_first_part_cuts_at_how_it_did() -> None:
    """The second ask starts at ', and how did it do'."""
    assert first_part(ORGANIC) == f"What did {CO}'s Electronics and Energy segment sell in 2018"


# --- 9. a 'Six Months Ended' header whose 'Three Months Ended' title was cut off --------------------------------

LEASE_ROW = "Operating lease cost $ 575,472 $ 488,987 $ 1,156,460 $ 760,836\n"
QUARTER_AND_HALF = ["3M 2023-06-30", "3M 2022-06-30", "6M 2023-06-30", "6M 2022-06-30"]


def test_six_months_over_four_columns_is_the_quarter_then_the_half() -> None:
    """'Six Months Ended' over '2023 2022 2023 2022' (the chunk starting after 'Three Months Ended'): the first
    pair is the quarter's, the second the half's."""
    statement = read_statement(f"Six Months Ended\nJune 30,\n2023 2022 2023 2022\n(In thousands)\n{LEASE_ROW}", [])
    rows = [r for r in statement.rows if r.line_item == "Operating lease cost"]
    assert len(rows) == 1
    assert rows[0].periods == QUARTER_AND_HALF
    assert rows[0].values == [575472.0, 488987.0, 1156460.0, 760836.0]


def test_both_titles_present_read_the_same_periods() -> None:
    """With 'Three Months Ended Six Months Ended' both written, the periods are the same."""
    statement = read_statement("Three Months Ended Six Months Ended\nJune 30,\n2023 2022 2023 2022\n"
                               f"(In thousands)\n{LEASE_ROW}", [])
    row = next(r for r in statement.rows if r.line_item == "Operating lease cost")
    assert row.periods == QUARTER_AND_HALF


def test_six_months_over_two_columns_stays_the_half() -> None:
    """'Six Months Ended' over just '2023 2022' is the half of each year (behaviour kept)."""
    statement = read_statement("Six Months Ended\nJune 30,\n2023 2022\n(In thousands)\n"
                               "Operating lease cost $ 1,156,460 $ 760,836\n", [])
    row = next(r for r in statement.rows if r.line_item == "Operating lease cost")
    assert row.periods == ["6M 2023-06-30", "6M 2022-06-30"]


# --- 10. a row saying where its amount is booked -----------------------------------------------------------------


def test_a_row_saying_where_it_is_booked_names_the_measure_fully() -> None:
    """'Operating lease cost, primarily classified within “General and administrative”' names operating lease costs
    as fully as 'Operating lease cost' does."""
    query = read_query(f"What were {CO}'s operating lease costs in the second quarter of 2023?", [CO])
    plain = label_match("Operating lease cost", query)
    booked = label_match("Operating lease cost, primarily classified within “General and administrative”", query)
    assert plain >= 0.9
    assert booked >= 0.9
    assert booked >= plain - 1e-9


# --- 11. 'Pretax segment income' of a segment ------------------------------------------------------------------


def test_pretax_segment_income_is_a_segments_pre_tax_profit() -> None:
    """Asked the pre-tax profit of a segment, 'Pretax segment income' is its line ('segment' inside the label is
    the kind of line, no word of its own)."""
    query = read_query(f"What was the pre-tax profit of {CARDS}'s Consumer Services segment in 2022?", [CARDS])
    assert query.measure.segment == "Consumer Services"
    assert label_match("Pretax segment income", query) >= 0.9


# --- 12. amounts per share never given the filing's scale --------------------------------------------------------

EARNINGS = ("Consolidated Statements of Earnings\n(In Millions, Except per Share Data)\nFiscal Year 2020 2019\n"
            "Net sales $ 17,627.8 $ 16,865.2\nCost of sales 11,496.7 11,108.4\nNet earnings $ 2,181.2 $ 1,752.7\n"
            "Earnings per share - diluted $ 3.56 $ 2.90\n")
FILING = "PELLMONT_2020_10K"


def _earnings_doc(text: str, page: int) -> Evidence:
    return Evidence(chunk_id=f"{FILING}:p{page}::0", source_id=f"{FILING}:p{page}", company=CO, fiscal_year=2020,
                    page=page, is_table=True, text=text)


def _fact(label: str, value: float, unit: str, page: int, origin: str = "table") -> Fact:
    figure = Figure(label=label, value=value, unit=unit, company=CO, fiscal_year=2020, period="FY2020",
                    source_id=f"{FILING}:p{page}", chunk_id=f"{FILING}:p{page}::0")
    return Fact(figure=figure, origin=origin, match=1.0, filed_year=2020)


def test_the_statement_reads_earnings_per_share_unscaled() -> None:
    """The statement's own reading: net sales in millions, diluted earnings per share in dollars per share."""
    statement = read_statement(EARNINGS, [])
    assert statement.periods == ["FY2020", "FY2019"]
    eps = next(r for r in statement.rows if r.line_item == "Earnings per share - diluted")
    assert eps.values == [3.56, 2.9]
    assert eps.scale is None
    sales = next(r for r in statement.rows if r.line_item == "Net sales")
    assert sales.scale == "millions"


def test_facts_of_earnings_per_share_are_dollars_not_millions() -> None:
    """Asked whether earnings per share grew, every fact labelled per share is in '$' ($3.56 and $2.90), never
    '$m'."""
    query = read_query(f"Did {CO} grow its earnings per share in fiscal 2020?", [CO])
    facts = facts_for(query, [_earnings_doc(EARNINGS, 50)], [CO])
    per_share = [f for f in facts if re.search(r"(?i)per\s+share", f.figure.label)]
    assert {f.figure.value for f in per_share} >= {3.56, 2.9}
    assert all(f.figure.unit == "$" for f in per_share), [(f.figure.label, f.figure.unit) for f in per_share]


def test_the_filing_scale_is_not_given_when_earnings_per_share_is_asked() -> None:
    """Where the same filing gives a measure in $m, a bare '$ 3.56' of earnings per share stays '$' when earnings
    per share is asked."""
    from app.facts.query import _with_filing_scale

    query = read_query(f"Did {CO} grow its earnings per share in fiscal 2020?", [CO])
    facts = [_fact("Net earnings", 2181.2, "$m", 50, "statement"), _fact("Diluted", 3.56, "$", 80)]
    units = {f.figure.label: f.figure.unit for f in _with_filing_scale(facts, query)}
    assert units == {"Net earnings": "$m", "Diluted": "$"}


def test_a_per_share_row_keeps_its_dollars_while_other_bare_rows_take_the_filing_scale() -> None:
    """Asked net earnings, a bare '$' row of the filing takes its '$m' (behaviour kept), but one labelled per share
    ('Net earnings per share - diluted') stays '$'."""
    from app.facts.query import _with_filing_scale

    query = read_query(f"What were {CO}'s net earnings in fiscal 2020?", [CO])
    assert query.kind == "money"
    facts = [_fact("Net earnings", 2181.2, "$m", 50, "statement"), _fact("Net earnings", 2181.2, "$", 80),
             _fact("Net earnings per share - diluted", 3.56, "$", 81)]
    units = [f.figure.unit for f in _with_filing_scale(facts, query)]
    assert units == ["$m", "$m", "$"]


# --- 13. more words of a rise ---------------------------------------------------------------------------------


def test_up_words_match_jumped_climbed_surged_and_soared() -> None:
    """'jumped', 'climbed', 'surged' and 'soared' each ask a rise; 'slumped' does not."""
    from app.text.measures import UP_WORDS

    for word in ("jumped", "climbed", "surged", "soared", "jumps", "climbing"):
        assert re.fullmatch(UP_WORDS, word), word
    assert re.fullmatch(UP_WORDS, "slumped") is None
