"""Two members compared where each has a review of its own ('CORPORATE & MARINE FINANCE' over 'Selected income
statement data' / 'Total net revenue …'), or where one table gives every member a group of columns ('Three months
ended March 31, Retail & Card Banking Corporate & Marine Finance Commercial Banking' / '(in millions, except
ratios) 2024 2023 Change …'). Every company, page and figure here is made up (Ternline Bancorp)."""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import member_facts, members_query, read_query
from app.models.providers.offline.composer import compose_offline
from app.models.providers.offline.composer.analyst import Analyst
from app.text.measures import members_compared
from app.text.statements import member_group_rows
from app.turns import Block

CO = "Ternline Bancorp"
QUESTION = (f"In the first quarter of 2024, how did {CO}'s Corporate & Marine Finance net revenue compare with that "
            "of Retail & Card Banking?")
GROUPED = """Segment results – managed basis
Three months ended March 31, Retail & Card Banking Corporate & Marine Finance Commercial Banking
(in millions, except ratios) 2024 2023 Change 2024 2023 Change 2024 2023 Change
Total net revenue $ 2,517 $ 2,287  10 % $ 4,605 $ 4,003  15 % $ 393 $ 365  8 %
Provision for credit losses  (602)  772 NM  (31)  101 NM  (18)  10 NM
Net income/(loss)  728  197 NM  1,740  1,485  17  168  139  21"""
REVIEW = """{name}
Refer to pages 67–70 of the 2023 Form 10-K for a further discussion of the business.
Selected income statement data
Three months ended March 31,
(in millions) 2024 2023 Change
Total net revenue $ {now} $ {before} {change} %
Total noninterest expense 1,202 1,169 3"""


def _ev(text: str, page: int) -> Evidence:
    return Evidence(source_id=f"TERNLINE_2024Q1_10Q:p{page}", chunk_id=f"TERNLINE_2024Q1_10Q:p{page}::0", text=text,
                    company=CO, fiscal_year=2024, title="TERNLINE_2024Q1_10Q", page=page)


def test_a_name_and_measure_against_that_of_a_name_alone_are_two_members() -> None:
    pair = members_compared(QUESTION, [CO])
    assert pair is not None and (pair.first, pair.second, pair.measure) == (
        "Corporate & Marine Finance", "Retail & Card Banking", "net revenue")


def test_each_member_has_a_group_of_columns_under_its_name() -> None:
    rows = member_group_rows(GROUPED, ["Corporate & Marine Finance", "Retail & Card Banking"])
    revenue = {r.columns[0]: (r.values, r.periods) for r in rows if r.line_item == "Total net revenue"}
    assert revenue["Corporate & Marine Finance"] == ([4605.0, 4003.0, 15.0],
                                                     ["3M 2024-03-31", "3M 2023-03-31", "% change"])
    assert revenue["Commercial Banking"][0] == [393.0, 365.0, 8.0]
    # 'NM' is no value, and the row is read with a gap
    income = {r.columns[0]: r.values for r in rows if r.line_item == "Net income/(loss)"}
    assert income["Retail & Card Banking"] == [728.0, 197.0, None]
    # names that run together split only with the names known
    assert member_group_rows(GROUPED) == []


def test_each_members_review_gives_its_own_rows() -> None:
    reviews = [_ev(REVIEW.format(name="RETAIL & CARD BANKING", now="2,517", before="2,287", change="10"), 20),
               _ev(REVIEW.format(name="CORPORATE & MARINE FINANCE", now="4,605", before="4,003", change="15"), 23)]
    query = members_query(read_query(QUESTION, [CO], [2024]), "net revenue", [CO])
    found = {(f.segment, f.figure.value) for f in member_facts(query, reviews, [CO],
                                                                known=("Corporate & Marine Finance",
                                                                       "Retail & Card Banking"))}
    assert {("Corporate & Marine Finance", 4605.0), ("Retail & Card Banking", 2517.0)} <= found, found
    blocks = [Block(n=k, kind="report", header=f"[{k}] {CO} Q1 FY2024 10-Q, p.{e.page} [text]", text=e.text,
                    source_id=e.source_id, chunk_id=e.chunk_id, company=CO, fiscal_year=2024, page=e.page)
              for k, e in enumerate(reviews, 1)]
    said = Analyst({"blocks": blocks, "companies": [CO], "fiscal_years": [2024]}, QUESTION).change_answer()
    assert said and said[0].startswith("Corporate & Marine Finance net revenue was higher than Retail & Card Banking "
                                       "net revenue in the three months ended 31 March 2024: $4,605m against "
                                       "$2,517m"), said


SEGMENT_RESULTS = """Our operating segment results were as follows:
Fiscal Year
In Millions 2024 2023 2022
Net sales:
Harbour Retail $ 10,750.5 $ 9,925.2 $ 10,115.4
Pacific Foods 1,838.9 1,886.7 1,984.6
Total $ 12,589.4 $ 11,811.9 $ 12,100.0
Operating profit:
Harbour Retail $ 2,627.0 $ 2,277.2 $ 2,217.4
Pacific Foods 113.8 123.3 142.1
Total segment operating profit $ 2,740.8 $ 2,400.5 $ 2,359.5
"""


def test_a_members_figure_is_the_one_under_the_sub_heading_of_the_measure_asked() -> None:
    block = Block(n=1, kind="report", header="[1] Kestrel FY2024, p.90 [table]", source_id="KESTREL_2024_10K:p90",
                  chunk_id="k-90", company="Kestrel", fiscal_year=2024, page=90, text=SEGMENT_RESULTS)
    state = {"companies": ["Kestrel"], "fiscal_years": [2024], "blocks": [block]}
    profit = compose_offline({**state, "question": "What segment operating profit did Kestrel's Harbour Retail segment "
                                                   "report for fiscal 2024?"})
    assert profit.startswith("Kestrel's Harbour Retail segment operating profit was $2,627.0m in FY2024 [1]"), profit
    sales = compose_offline({**state, "question": "What were Kestrel's Harbour Retail net sales in fiscal 2024?"})
    assert sales.startswith("Kestrel's Harbour Retail net sales were $10,750.5m in FY2024 [1]"), sales
