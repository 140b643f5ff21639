"""Product schedules and wrapped segment headers (app/text/statements, app/facts/query, app/text/question_kinds,
app/text/measures, app/text/periods, the offline Analyst):

- a quarterly sales schedule that splits each product or franchise by region ('VELORIN' / 'US …' / 'Intl …' /
  'WW 462 647 …') under 'SECOND QUARTER SIX MONTHS' and '2023 2022 Reported Operational (1) Currency …' reads each
  heading's worldwide row as a row of its own (`regional_split_rows`), its regions never rows of their own, and only
  with the header's years; a chunk of the schedule's rows is joined with the chunk that holds its header
  (`continues_regional_split`, `split_tables`), so a product's quarter sales are read from the two together, and a
  change read from them is cited to both;
- a year-block segment table whose names wrap over lines ('Cloud Media' / 'Cloud' / 'Services Print and Publishing
  Total') above 'Fiscal 2017' blocks is split with the names the question gives, and the tail of a block that
  chunking cut, under a carried 'Fiscal 2017' line, is no block of 2017;
- 'How fast / how quickly is X falling / eroding' asks a change, and the name before the measure is the member;
- 'going into fiscal 2016' is the end of fiscal 2015 and no word of the measure; 'buying back its own shares' asks
  share repurchases; an authorised 'up to' amount is a limit, not an amount spent; a diluted-EPS 'shares
  repurchased under treasury stock method' row is a share count.

Every company, product, page and figure here is made up (Harlow Pharma and its VELORIN, TESSAMAB and ONCOLOGY
lines; Corvane Software and its Cloud Media / Cloud Services segments; Harlow & Pike, a consumer-goods group).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import choose, facts_for, member_facts, read_query, text_facts
from app.text.measures import measure_asked
from app.text.question_kinds import read_ask
from app.text.statements import read_statement, year_block_rows
from app.turns import Block

PHARMA = "Harlow Pharma"

_TITLE = "REPORTED SALES vs. PRIOR PERIOD ($MM)"
_YEARS = ("PHARMACEUTICAL SEGMENT (2,3) 2023 2022 Reported Operational (1) Currency "
          "2023 2022 Reported Operational (1) Currency")
_ONCOLOGY = ("ONCOLOGY\n"
             "US 3,142$ 3,018 4.1% 4.1% - 6,055$ 5,902 2.6% 2.6% -\n"
             "Intl 1,724 1,690 2.0% 3.9% -1.9% 3,410 3,377 1.0% 5.1% -4.1%\n"
             "WW 4,866 4,708 3.4% 4.1% -0.7% 9,465 9,279 2.0% 3.6% -1.6%\n")
_VELORIN = ("VELORIN\n"
            "US 288 402 -28.4% -28.4% - 601 815 -26.3% -26.3% -\n"
            "Intl 174 245 -29.0% -26.1% -2.9% 348 495 -29.7% -26.2% -3.5%\n"
            "WW 462 647 -28.6% -27.6% -1.0% 949 1,310 -27.5% -26.3% -1.2%\n")
_TESSAMAB = ("TESSAMAB (4)\n"
             "US 1,205 1,111 8.5% 8.5% - 2,330 2,150 8.4% 8.4% -\n"
             "Intl 610 580 5.2% 7.0% -1.8% 1,190 1,150 3.5% 6.9% -3.4%\n"
             "WW 1,815 1,691 7.3% 8.0% -0.7% 3,520 3,300 6.7% 7.9% -1.2%\n")
SCHEDULE = f"{_TITLE}\nSECOND QUARTER SIX MONTHS\n{_YEARS}\n{_ONCOLOGY}{_VELORIN}{_TESSAMAB}"

# the same schedule cut by chunking after its first franchise: the next chunk repeats the title and the spans,
# never the years line
HEAD = f"{_TITLE}\nSECOND QUARTER SIX MONTHS\n{_YEARS}\n{_ONCOLOGY}"
ROWS = f"{_TITLE}\nSECOND QUARTER SIX MONTHS\n{_VELORIN}"

QUARTER_PERIODS = ["Q2 2023", "Q2 2022", "H1 2023", "H1 2022"]
VELORIN_ASKED = f"What were {PHARMA}'s Velorin sales in the second quarter of 2023?"


def _evidence(text: str, chunk: int) -> Evidence:
    return Evidence(chunk_id=f"HARLOW_2023Q2_RELEASE:p7::{chunk}", source_id="HARLOW_2023Q2_RELEASE:p7",
                    company=PHARMA, fiscal_year=2023, page=7, text=text)


def _block(n: int, text: str, chunk: int) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {PHARMA} FY2023, p.7 [text]", source_id="HARLOW_2023Q2_RELEASE:p7",
                 chunk_id=f"HARLOW_2023Q2_RELEASE:p7::{chunk}", company=PHARMA, fiscal_year=2023, page=7, text=text)


# --- the regional split schedule ----------------------------------------------------------------------------------

def test_each_headings_worldwide_row_is_a_row_with_the_quarter_and_the_half_year() -> None:
    from app.text.statements import regional_split_rows

    rows = regional_split_rows(SCHEDULE)
    assert [r.line_item for r in rows] == ["ONCOLOGY", "VELORIN", "TESSAMAB"]  # the note mark '(4)' left off
    by_name = {r.line_item: r for r in rows}
    velorin = by_name["VELORIN"]
    # the levels only, the change columns left out: [quarter now, quarter before, half now, half before]
    assert velorin.values == [462.0, 647.0, 949.0, 1310.0]
    assert velorin.periods == QUARTER_PERIODS
    assert velorin.scale == "millions"
    # a '$' the PDF moved behind a value ('3,142$ 3,018') is no value of its own; the worldwide row is the one read
    assert by_name["ONCOLOGY"].values == [4866.0, 4708.0, 9465.0, 9279.0]
    assert by_name["TESSAMAB"].values == [1815.0, 1691.0, 3520.0, 3300.0]


def test_the_regions_under_a_heading_are_no_rows_of_their_own() -> None:
    from app.text.statements import regional_split_rows

    rows = regional_split_rows(SCHEDULE)
    assert len(rows) == 3
    assert not any(r.line_item.upper() in ("US", "INTL", "WW") for r in rows)
    # neither the US (288) nor the international (174) quarter of VELORIN is read as its sales
    assert not any(r.values[0] in (288.0, 174.0, 3142.0, 1724.0) for r in rows)


def test_a_fourth_quarter_and_twelve_months_schedule_gives_the_quarter_and_the_fiscal_year() -> None:
    from app.text.statements import regional_split_rows

    text = ("REPORTED SALES vs. PRIOR PERIOD ($MM)\nFOURTH QUARTER TWELVE MONTHS\n"
            "PHARMACEUTICAL SEGMENT (2) 2022 2021 Reported Operational (1) Currency "
            "2022 2021 Reported Operational (1) Currency\n"
            "VELORIN\n"
            "US 301 455 -33.8% -33.8% - 1,402 1,890 -25.8% -25.8% -\n"
            "WW 505 742 -31.9% -30.6% -1.3% 2,210 2,904 -23.9% -22.0% -1.9%\n")
    [row] = regional_split_rows(text)
    assert row.line_item == "VELORIN"
    assert row.periods == ["Q4 2022", "Q4 2021", "FY2022", "FY2021"]
    assert row.values == [505.0, 742.0, 2210.0, 2904.0]


def test_no_schedule_row_is_read_without_its_years_line() -> None:
    from app.text.statements import regional_split_rows

    assert regional_split_rows(ROWS) == []
    assert regional_split_rows(SCHEDULE.replace(f"{_YEARS}\n", "")) == []
    assert regional_split_rows(SCHEDULE.replace("SECOND QUARTER SIX MONTHS\n", "")) == []


def test_read_statement_holds_the_schedules_dated_rows() -> None:
    dated = [r for r in read_statement(SCHEDULE).rows if r.periods]
    assert [(r.line_item, r.values, r.periods) for r in dated] == [
        ("ONCOLOGY", [4866.0, 4708.0, 9465.0, 9279.0], QUARTER_PERIODS),
        ("VELORIN", [462.0, 647.0, 949.0, 1310.0], QUARTER_PERIODS),
        ("TESSAMAB", [1815.0, 1691.0, 3520.0, 3300.0], QUARTER_PERIODS)]


# --- a schedule cut between two chunks ----------------------------------------------------------------------------

def test_a_chunk_of_the_schedules_rows_goes_on_from_the_chunk_with_its_header() -> None:
    from app.text.statements import continues_regional_split

    assert continues_regional_split(HEAD, ROWS)
    assert not continues_regional_split(ROWS, HEAD)  # the rows' chunk heads nothing
    assert not continues_regional_split(HEAD, SCHEDULE)  # a chunk with its own years line reads on its own
    assert not continues_regional_split(HEAD, "Net sales rose on the launch of TESSAMAB in Europe.")


def test_split_tables_joins_the_rows_chunk_to_the_next_one_only() -> None:
    from app.facts.query import split_tables

    [joined] = split_tables([_evidence(HEAD, 0), _evidence(ROWS, 1)])
    assert joined.chunk_id.endswith("::1") and joined.head_chunk_id.endswith("::0")
    assert "VELORIN" in joined.text and "2023 2022 Reported" in joined.text
    assert split_tables([_evidence(HEAD, 0), _evidence(ROWS, 2)]) == []  # not the next chunk: no join


def test_a_products_quarter_sales_are_read_from_the_two_chunks() -> None:
    query = read_query(VELORIN_ASKED, [PHARMA])
    docs = [_evidence(HEAD, 0), _evidence(ROWS, 1)]
    facts = facts_for(query, docs, [PHARMA])
    quarter = {(f.figure.value, f.figure.fiscal_year) for f in facts if f.figure.period == "Q2 2023"}
    assert (462.0, 2023) in quarter
    assert [f.figure.value for f in choose(facts, query)][:1] == [462.0]
    members = member_facts(query, docs, [PHARMA])
    velorin = {(f.figure.value, f.figure.period) for f in members if (f.segment or "").upper() == "VELORIN"}
    assert (462.0, "Q2 2023") in velorin and (647.0, "Q2 2022") in velorin
    # the rows' chunk alone dates nothing: no figure of 2023's second quarter
    alone = facts_for(query, [_evidence(ROWS, 1)], [PHARMA])
    assert not any(f.figure.value == 462.0 and f.figure.period == "Q2 2023" for f in alone)


def test_a_change_read_from_the_two_chunks_is_cited_to_both() -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.models.providers.offline.composer.analyst import Analyst

    blocks = [_block(1, HEAD, 0), _block(2, ROWS, 1)]
    answer = compose_offline({"question": "How fast did Velorin sales fall in the second quarter of 2023?",
                              "companies": [PHARMA], "fiscal_years": [2023], "blocks": blocks})
    assert "$647m" in answer and "$462m" in answer and "[1][2]" in answer, answer
    analyst = Analyst({"blocks": blocks, "companies": [PHARMA], "fiscal_years": [2023]}, VELORIN_ASKED)
    best = choose(facts_for(analyst.query, analyst.reports, [PHARMA]), analyst.query)
    assert best and best[0].figure.value == 462.0
    # the rows' block with the block that heads its table, each once
    assert analyst.refs([best[0], None, best[0]]) == [1, 2]


# --- a wrapped segment header over 'Fiscal 2017' blocks -----------------------------------------------------------

_WRAPPED = "Cloud Media\nCloud\nServices Print and Publishing Total\n"
SEGMENTS = (_WRAPPED + "Fiscal 2017\n"
            "Revenue $ 5,010.4 $ 2,230.8 $ 71.9 $ 7,313.1\n"
            "Cost of revenue 318.2 792.5 11.7 1,122.4\n"
            "Gross profit $ 4,692.2 $ 1,438.3 $ 60.2 $ 6,190.7\n"
            "Fiscal 2016\n"
            "Revenue $ 4,110.6 $ 1,905.3 $ 78.4 $ 6,094.3\n"
            "Cost of revenue 261.9 740.8 13.6 1,016.3\n"
            "Gross profit $ 3,848.7 $ 1,164.5 $ 64.8 $ 5,078.0\n")
# the next chunk of the page: the header and its first year line carried over the tail of 2016's block (its
# 'Revenue' row left in the chunk before), then 2015's whole block
CARRIED = (_WRAPPED + "Fiscal 2017\n"
           "Cost of revenue 261.9 740.8 13.6 1,016.3\n"
           "Gross profit $ 3,848.7 $ 1,164.5 $ 64.8 $ 5,078.0\n"
           "Fiscal 2015\n"
           "Revenue $ 3,095.2 $ 1,508.9 $ 86.1 $ 4,690.2\n"
           "Cost of revenue 220.4 693.1 14.9 928.4\n"
           "Gross profit $ 2,874.8 $ 815.8 $ 71.2 $ 3,761.8\n")
SEGMENT_NAMES = ["Cloud Media", "Cloud Services", "Print and Publishing", "Total"]


def test_wrapped_names_over_fiscal_year_blocks_split_with_the_names_asked() -> None:
    rows = year_block_rows(SEGMENTS, ["Cloud Services"])
    assert [(r.line_item, r.periods[0]) for r in rows] == [
        ("Revenue", "FY2017"), ("Cost of revenue", "FY2017"), ("Gross profit", "FY2017"),
        ("Revenue", "FY2016"), ("Cost of revenue", "FY2016"), ("Gross profit", "FY2016")]
    assert all(r.columns == SEGMENT_NAMES for r in rows)
    assert rows[0].values == [5010.4, 2230.8, 71.9, 7313.1]
    assert rows[3].values == [4110.6, 1905.3, 78.4, 6094.3]
    assert all(set(r.periods) == {r.periods[0]} for r in rows)


def test_the_tail_of_a_cut_block_under_a_carried_year_line_is_no_block_of_that_year() -> None:
    rows = year_block_rows(CARRIED, ["Cloud Services"])
    # 2016's cost of revenue (261.9 …) is never read as 2017's
    assert not any(r.periods[0] == "FY2017" for r in rows)
    assert not any(r.values[0] in (261.9, 3848.7) for r in rows)
    # the whole 2015 block under it is read
    assert [(r.line_item, r.periods[0]) for r in rows] == [
        ("Revenue", "FY2015"), ("Cost of revenue", "FY2015"), ("Gross profit", "FY2015")]
    assert rows[0].values == [3095.2, 1508.9, 86.1, 4690.2] and rows[0].columns == SEGMENT_NAMES
    assert not any("FY2017" in r.periods for r in read_statement(CARRIED, ["Cloud Services"]).rows)


# --- questions ----------------------------------------------------------------------------------------------------

def test_how_fast_or_how_quickly_a_product_falls_asks_a_change() -> None:
    assert read_ask("How fast did Velorin sales fall in the second quarter of 2023?").kind == "change"
    assert read_ask("How quickly is Velorin eroding - what happened to its sales in the second quarter of "
                    "2023?").kind == "change"
    assert read_ask("How fast is the company?").kind != "change"


def test_the_name_before_the_measure_after_how_fast_is_the_member_asked() -> None:
    asked = measure_asked("How fast did Velorin sales fall in the second quarter of 2023?", [PHARMA])
    assert (asked.segment, asked.phrase) == ("Velorin", "sales")


def test_going_into_a_fiscal_year_is_the_end_of_the_year_before() -> None:
    from app.text.periods import into_year_as_end

    assert into_year_as_end("going into fiscal 2016") == "at the end of 2015"
    assert into_year_as_end("heading into 2023") == "at the end of 2022"
    assert into_year_as_end("in fiscal 2016") == "in fiscal 2016"


def test_going_into_a_fiscal_year_is_no_word_of_the_measure() -> None:
    asked = measure_asked("How many paid Cloud subscriptions did Corvane Software have going into fiscal 2016?",
                          ["Corvane Software"])
    words = asked.phrase.lower().split()
    assert "subscriptions" in words
    assert not {"go", "going", "into"} & set(words), asked.phrase


def test_buying_back_its_own_shares_asks_share_repurchases() -> None:
    asked = measure_asked("How much did H&P spend buying back its own shares in fiscal 2022?", ["Harlow & Pike"])
    assert asked.phrase == "share repurchases"


# --- limits and share counts --------------------------------------------------------------------------------------

_AUTHORISED = ("In March 2022, the Board of Directors approved a share repurchase program, authorizing the Company "
               "to purchase up to $5.0 billion of its common stock.")


def test_an_authorised_up_to_amount_is_a_limit_not_spending() -> None:
    from app.facts.query import _BOUND

    assert _BOUND.search("approved a share repurchase program, authorizing the Company to purchase up to $5.0 "
                         "billion")
    assert _BOUND.search(_AUTHORISED)
    assert not _BOUND.search("During fiscal 2022, the Company spent $2.1 billion on share repurchases.")
    co = "Harlow & Pike"
    doc = Evidence(chunk_id="HP_2022_10K:p40::0", source_id="HP_2022_10K:p40", company=co, fiscal_year=2022, page=40,
                   text=f"{_AUTHORISED} During fiscal 2022, the Company spent $2.1 billion on share repurchases "
                        "under the program.")
    query = read_query("How much did Harlow & Pike spend on share repurchases in fiscal 2022?", [co])
    by_value = {f.figure.value: f for f in text_facts(query, doc)}
    assert by_value[5.0].forward and not by_value[2.1].forward
    assert [f.figure.value for f in choose(facts_for(query, [doc], [co]), query)][:1] == [2.1]


def test_shares_repurchased_under_the_treasury_stock_method_are_a_share_count() -> None:
    text = ("(In Millions Except Per Share Amounts) 2022 2021 2020\n"
            "Basic net earnings per share $ 6.83 7.93 5.59\n"
            "Average shares outstanding — basic 2,625.2 2,632.1 2,632.8\n"
            "Less: shares repurchased under treasury stock method (101.4) (96.1) (80.4)\n")
    rows = {r.line_item: r for r in read_statement(text).rows}
    treasury = rows["Less: shares repurchased under treasury stock method"]
    assert treasury.unit == "shares"
    assert treasury.values == [-101.4, -96.1, -80.4] and treasury.periods == ["FY2022", "FY2021", "FY2020"]
    assert rows["Average shares outstanding — basic"].unit == "shares"
    assert rows["Basic net earnings per share"].unit != "shares"


# --- added with the fixes found on the earlier probes' answers ----------------------------------------------------

def test_a_product_schedules_rows_are_never_ranked_as_members() -> None:
    from app.models.providers.offline.composer import compose_offline

    # a franchise ('ONCOLOGY') and its brands stand one heading a line: no complete set of members to rank
    blocks = [_block(1, HEAD, 0), _block(2, ROWS, 1)]
    answer = compose_offline({"question": f"Which of {PHARMA}'s brands had the lowest worldwide sales in the second "
                                          "quarter of 2023?", "companies": [PHARMA], "fiscal_years": [2023],
                              "blocks": blocks})
    assert "had the lowest" not in answer, answer


def test_a_wrapped_headers_rows_take_the_scale_its_lead_in_declares() -> None:
    lead = "Our segment results for fiscal 2017 and 2016 were as follows (dollars in thousands):\n"
    rows = year_block_rows(lead + SEGMENTS, ["Cloud Services"])
    assert rows and all(r.scale == "thousands" for r in rows)
    assert all(r.scale is None for r in year_block_rows(SEGMENTS, ["Cloud Services"]))
