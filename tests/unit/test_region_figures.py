"""A region's figure asked ('sales to customers in Europe', 'net revenue in the Europe, Middle East and Africa
region'), read from the tables reports give it in: a change column whose name wraps after its slash ('Increase/'
/ '(decrease) % Change'), with a note mark after a region's name ('EMEA (1)'), and two measures side by side whose
years differ in number ('Sales to Customers' for three years, 'Long-Lived Assets' for two).

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.facts.query import label_match, read_query
from app.models.providers.offline.composer.analyst import Analyst
from app.text.measures import measure_asked
from app.text.statements import measure_group_rows, read_statement, stacked_group_rows
from app.turns import Block

COMPANY = "Ternline"

BY_REGION = """For the Years Ended December 31,
2024 2023
Increase/
(decrease) % Change
Net revenues by geographic region:
Americas $ 3,341 $ 3,880 $ (539) (14)%
EMEA (1) 2,239 2,618 (379) (14)
Asia Pacific 909 1,002 (93) (9)
Total consolidated net revenues $ 6,489 $ 7,500 $ (1,011) (13)"""

SIDE_BY_SIDE = """Sales to Customers Long-Lived Assets
(Dollars in Millions) 2024 2023 2022 2024 2023
United States $ 48,580 47,156 43,133 $ 66,283 48,586
Europe 23,449 23,594 18,980 38,774 43,257
Asia-Pacific, Africa 16,789 17,275 15,136 4,431 5,035
Worldwide total $ 88,818 88,025 77,249 $ 109,488 96,878"""


def _answer(text: str, question: str) -> list[str]:
    block = Block(n=1, kind="report", header=f"[1] {COMPANY} FY2024 p.44", text=text,
                  source_id="TERNLINE_2024_10K:p44", chunk_id="TERNLINE_2024_10K:p44::abc::0", company=COMPANY,
                  fiscal_year=2024, page=44)
    return Analyst({"blocks": [block], "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()


def test_a_change_column_wrapped_after_its_slash_is_one_column() -> None:
    rows = {r.line_item: (r.values, r.periods) for r in read_statement(BY_REGION).rows}
    assert rows["EMEA"] == ([2239.0, 2618.0, -379.0, -14.0], ["FY2024", "FY2023", "change", "% change"])
    assert rows["Americas"][1] == ["FY2024", "FY2023", "change", "% change"]


def test_a_region_the_question_places_its_measure_in_is_the_member_asked() -> None:
    asked = measure_asked("What were Ternline's sales to customers in Europe in 2024?", [COMPANY])
    assert (asked.segment, asked.phrase) == ("Europe", "sales to customers")
    asked = measure_asked("What were Ternline's revenues from the Americas in 2024?", [COMPANY])
    assert (asked.segment, asked.phrase) == ("Americas", "revenues")
    assert measure_asked("What was Ternline's revenue in 2024?", [COMPANY]).segment is None
    asked = measure_asked("How much revenue did Ternline generate in EMEA in fiscal 2024?", [COMPANY])
    assert (asked.segment, asked.phrase) == ("EMEA", "revenue")
    asked = measure_asked("How much revenue did Ternline bring in from the Americas in 2024?", [COMPANY])
    assert (asked.segment, asked.phrase) == ("Americas", "revenue")
    assert measure_asked("How much revenue did Ternline generate in fiscal 2024?", [COMPANY]).segment is None
    sentences = _answer(BY_REGION, "How much net revenue did Ternline generate in the Europe, Middle East and "
                                   "Africa region in 2024?")
    assert "$2,239 in FY2024" in sentences[0] and "EMEA" in sentences[0], sentences


def test_two_measures_side_by_side_for_unlike_numbers_of_years_are_each_read() -> None:
    rows = {(r.line_item, r.columns[0]): (r.values, r.periods) for r in measure_group_rows(SIDE_BY_SIDE)}
    assert rows[("Sales to Customers", "Europe")] == ([23449.0, 23594.0, 18980.0], ["FY2024", "FY2023", "FY2022"])
    assert rows[("Long-Lived Assets", "Europe")] == ([38774.0, 43257.0], ["FY2024", "FY2023"])
    # no row runs the two measures' years together under periods it cannot date
    assert not [r for r in read_statement(SIDE_BY_SIDE).rows if r.periods and "FY?" in r.periods]
    # ('sales to customers' is a measure, not a list of customers asked for)
    sentences = _answer(SIDE_BY_SIDE, "What were Ternline's sales to customers in Europe in 2024?")
    assert sentences[0].startswith("Ternline's Europe sales to customers were $23,449m in FY2024"), sentences


def test_the_stacked_form_reads_unlike_numbers_of_years_too() -> None:
    stacked = "\n".join(["Net Sales", "Long-Lived Assets", "(Millions)", "2024", "2023", "2022", "2024", "2023",
                         "United States", "$", "12,840", "$", "12,372", "$", "12,188", "$", "4,915", "$", "4,891",
                         "Asia Pacific", "10,254", "9,809", "8,847", "1,624", "1,672"])
    rows = {(r.line_item, r.columns[0]): (r.values, r.periods) for r in stacked_group_rows(stacked)}
    assert rows[("Net Sales", "Asia Pacific")] == ([10254.0, 9809.0, 8847.0], ["FY2024", "FY2023", "FY2022"])
    assert rows[("Long-Lived Assets", "Asia Pacific")] == ([1624.0, 1672.0], ["FY2024", "FY2023"])
    # years that do not run on by one are no groups
    assert stacked_group_rows(stacked.replace("2024\n2023\nUnited", "2024\n2021\nUnited")) == []


# regions as columns under a year, named in a run ('(Millions) United States EMEA APAC …'); the segments' own
# tables stand beside it
BY_PLACE = """(Millions) United States EMEA APAC LACC Other Unallocated Consolidated
2024
Total revenues net of interest expense $ 41,396 $ 4,871 $ 3,835 $ 2,917 $ (157) $ 52,862
Pretax income (loss) from continuing operations 10,383 550 376 500 (2,224) 9,585"""


def _segment(number: int, name: str, income: str) -> str:
    return (f"TABLE {number}: {name} SELECTED INCOME STATEMENT DATA\nYears Ended December 31, Change\n"
            f"(Millions, except percentages) 2024 2023 2024 vs. 2023\nPretax segment income $ {income} $ 1,000 $ 5 1 %")


def test_places_run_together_in_a_header_are_split_where_each_is_a_place() -> None:
    from app.text.statements import year_block_rows

    rows = {r.line_item: (r.values, r.columns, r.unit, r.scale) for r in year_block_rows(BY_PLACE)}
    values, columns, unit, scale = rows["Pretax income (loss) from continuing operations"]
    assert columns == ["United States", "EMEA", "APAC", "LACC", "Other Unallocated", "Consolidated"]
    assert values[1] == 550.0 and (unit, scale) == ("$", "millions")


def test_a_region_asked_is_ranked_among_places_and_a_place_left_out_is_not() -> None:
    blocks = [Block(n=k + 1, kind="report", header=f"[{k + 1}] {COMPANY} FY2024 p.{page}", text=text,
                    source_id=f"TERNLINE_2024_10K:p{page}", chunk_id=f"TERNLINE_2024_10K:p{page}::abc::0",
                    company=COMPANY, fiscal_year=2024, page=page)
              for k, (text, page) in enumerate([(BY_PLACE, 155), (_segment(9, "FRS", "5,400"), 54),
                                                (_segment(11, "HFS", "2,880"), 57)])]
    question = "Outside the United States, which Ternline region generated the most pretax income in 2024?"
    assert measure_asked(question, [COMPANY]).segment is None  # the place left out is no member asked
    sentences = Analyst({"blocks": blocks, "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()
    assert sentences[0].startswith("EMEA had the highest pretax income in FY2024: $550m"), sentences
    assert not any("FRS" in s or "10,383" in s for s in sentences), sentences  # segments and the place left out


def test_a_division_table_named_partly_after_places_is_kept_whole_for_a_region_question() -> None:
    from app.facts.members import asked_kind_of_member

    members = [("FLNA", "t1"), ("LatAm", "t1"), ("Europe", "t1"), ("APAC", "t1"), ("Freight", "t2")]
    kept = asked_kind_of_member(members, "Which region had the highest operating profit in 2024?",
                                lambda m: m[0], lambda m: m[1])
    assert kept == members[:4]  # the divisions' table, FLNA with it; not the segments' table


def test_a_ranking_reads_on_from_a_passage_that_announces_its_table_anywhere() -> None:
    from app.evidence import Evidence
    from nodes.inputs import measure_continuations

    def ev(text: str, chunk: int) -> Evidence:
        return Evidence(source_id="TERNLINE_2024_10K:p155", chunk_id=f"TERNLINE_2024_10K:p155::abc::{chunk}",
                        text=text, company=COMPANY, fiscal_year=2024, title="TERNLINE_2024_10K", page=155,
                        doc_type="report")

    lead = ev("GEOGRAPHIC OPERATIONS The following table presents our revenues and pretax income (loss) in different "
              "geographic regions based, in part, upon internal allocations. Prior periods have been recast.", 0)
    table = ev(BY_PLACE, 1)

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return [lead, table] if page == 155 else []

    question = "Which Ternline region generated the most pretax income in 2024?"
    assert [d.chunk_id for d in measure_continuations(question, [lead], page_fn, [COMPANY])] == [table.chunk_id]
    # a figure question reads on only from a passage whose last sentence leads into the table
    assert measure_continuations("What was Ternline's pretax income in 2024?", [lead], page_fn, [COMPANY]) == []


def test_years_that_skip_one_are_no_groups_of_one_year_each() -> None:
    # 'Net Sales Operating Income' over '2024 2022 2020' would split into three one-year 'measures'
    assert measure_group_rows("Net Sales Operating Income\n2024 2022 2020\nFreight 4,210 3,980 3,705") == []
    # the same years repeated are groups, as before
    rows = measure_group_rows("Net Sales Operating Income\n2024 2022 2024 2022\nFreight 4,210 3,705 612 498")
    assert {(r.line_item, tuple(r.values)) for r in rows} == {("Net Sales", (4210.0, 3705.0)),
                                                             ("Operating Income", (612.0, 498.0))}


def test_a_rows_effect_on_the_measure_is_no_figure_of_it() -> None:
    # a currency table under 'EMEA:' ends in 'Total revenue impact': the currencies' effect, not EMEA's revenue
    asked = read_query("How much revenue did Ternline generate in EMEA in fiscal 2024?", [COMPANY], [2024])
    assert label_match("Total revenue impact", asked) == 0.0
    assert label_match("Net sales variance", read_query("What were Ternline's net sales in 2024?", [COMPANY])) == 0.0
    assert label_match("Revenue", asked) > 0.8
    # asked for, the effect is the figure
    impact = read_query("What was the total revenue impact of currencies for Ternline in 2024?", [COMPANY])
    assert label_match("Total revenue impact", impact) > 0.8


SUPPLEMENTAL = """Ternline, Inc. and Subsidiaries
Supplemental Financial Information
(in millions and unaudited)
12 Weeks Ended
3/23/2024 3/25/2023
Net Revenue
North America Freight $ 5,583 $ 4,839
Latin America 1,777 1,474
Europe 1,886 1,797
Total $ 9,246 $ 8,110
Operating Profit/(Loss)
North America Freight $ 1,599 $ 1,296
Latin America 364 323
Europe 71 (136)"""


def _release(question: str) -> list[str]:
    block = Block(n=1, kind="report", header=f"[1] {COMPANY} Q1 FY2024 earnings release, p.5", text=SUPPLEMENTAL,
                  source_id="TERNLINE_2024Q1_EARNINGS:p5", chunk_id="TERNLINE_2024Q1_EARNINGS:p5::abc::0",
                  company=COMPANY, fiscal_year=2024, page=5)
    return Analyst({"blocks": [block], "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()


def test_a_division_row_under_its_measures_heading_in_a_table_titled_by_a_kind_of_data_is_the_division() -> None:
    sentences = _release("What was Ternline's Latin America division net revenue in the first quarter of 2024?")
    assert sentences and "$1,777m" in sentences[0] and "Latin America" in sentences[0], sentences
    sentences = _release("What was Ternline's Latin America division operating profit in the first quarter of 2024?")
    assert sentences and "$364m" in sentences[0], sentences


GROUPED = """Revenue by geographic area (in thousands)
2024 2023
Americas:
United States $ 2,548,024 $ 2,114,369
Other 240,020 200,000
Total Americas 2,788,044 2,314,369
EMEA 1,336,448 1,179,864
APAC:
Japan 347,740 365,570
Other 323,279 287,262
Total APAC 671,019 652,832
Revenue $ 4,795,511 $ 4,147,065"""


def test_a_regions_total_row_under_its_countries_is_the_region_asked() -> None:
    sentences = _answer(GROUPED, "How much revenue did Ternline generate in the APAC region in 2024?")
    assert sentences and "$671,019k" in sentences[0] and "APAC" in sentences[0], sentences


def test_a_measure_asked_outside_the_home_country_is_the_non_home_row_never_the_total() -> None:
    from app.models.providers.offline.composer import compose_offline

    text = ("The following table provides financial information by geographic area:\nFiscal Year\n"
            "In Millions 2024 2023 2022\nNet sales:\nUnited States $ 13,364.5 $ 12,462.8 $ 11,115.6\n"
            "Non-United States 4,262.1 4,402.4 4,624.8\nTotal $ 17,626.6 $ 16,865.2 $ 15,740.4")
    assert measure_asked(f"What were {COMPANY}'s net sales outside the United States in fiscal 2024?",
                         [COMPANY]).segment == "International"
    block = Block(n=1, kind="report", header=f"[1] {COMPANY} FY2024, p.91", text=text,
                  source_id="TERNLINE_2024_10K:p91", chunk_id="t-91", company=COMPANY, fiscal_year=2024, page=91)
    answer = compose_offline({"question": f"What were {COMPANY}'s net sales outside the United States in fiscal 2024?",
                              "companies": [COMPANY], "fiscal_years": [2024], "blocks": [block]})
    assert answer.startswith(f"{COMPANY}'s Non-United States net sales were $4,262.1m in FY2024 [1]"), answer
