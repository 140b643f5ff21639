"""nodes/inputs.py: the statement rows a question's figures need are fetched by line item when grading admitted
none that holds them. Companies and figures are invented; statements are in the layout pypdf extracts."""

from __future__ import annotations

from typing import Any

from app.models.providers.offline import OfflineGrader
from graphs.retrieval import Evidence, build_retrieval_graph
from nodes.inputs import figures_held

CO = "Tamsin Rail"

PROSE = Evidence(
    chunk_id="t-mdna", source_id="TAMSIN_2024_10K:p30", company=CO, fiscal_year=2024, page=30, score=0.05,
    text="Liquidity and capital resources. We believe our operating cash flow ratio shows healthy liquidity, and "
         "we expect cash from operations to fund our capital needs in fiscal 2025.",
)
CASH_FLOW = Evidence(
    chunk_id="t-cf", source_id="TAMSIN_2024_10K:p61", company=CO, fiscal_year=2024, page=61, score=0.01,
    text="TAMSIN RAIL, INC.\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n(in millions)\nYears Ended December 31,\n"
         "2024\n2023 2022 Cash flows from operating activities:\nNet income\n$ 412  $ 388  $ 301 Depreciation\n"
         "120  110  98 Net cash provided by operating activities\n1,210  1,105  950 Purchases of property and "
         "equipment\n(300) (280) (250)",
)
BALANCE = Evidence(
    chunk_id="t-bs", source_id="TAMSIN_2024_10K:p59", company=CO, fiscal_year=2024, page=59, score=0.01,
    text="TAMSIN RAIL, INC.\nCONSOLIDATED BALANCE SHEETS\n(in millions)\nAs of December 31,\n2024  2023 "
         "Current liabilities:\nAccounts payable\n 610  580 Accrued expenses\n 390  350 Total current liabilities\n"
         " 1,000  930 Long-term debt\n 2,100  2,300 Total liabilities\n 3,100  3,230",
)
BALANCE_NOTE = Evidence(  # names the line item but gives no figure for it
    chunk_id="t-note", source_id="TAMSIN_2024_10K:p80", company=CO, fiscal_year=2024, page=80, score=0.02,
    text="Total current liabilities include the current portion of operating lease liabilities.",
)


class LineItemSearch:
    """The question's own queries find the prose; a line item's names find its statement page (after a note
    that names the item without a figure)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None, int | None, int]] = []

    def __call__(self, query: str, company: str | None, fiscal_year: int | None, k: int) -> list[Evidence]:
        self.calls.append((query, company, fiscal_year, k))
        if company != CO:
            return []
        if "operating activities" in query:
            return [CASH_FLOW]
        if "current liabilities" in query:
            return [BALANCE_NOTE, BALANCE]
        return [PROSE]


def run(question: str, search: Any, companies: list[str] | None = None) -> Any:
    graph = build_retrieval_graph(search, grader=OfflineGrader()).compile()
    return graph.invoke({"question": question, "companies": companies or [CO], "fiscal_years": [2024]})


def test_a_metrics_inputs_are_fetched_by_line_item_and_said_why():
    search = LineItemSearch()
    result = run("What is Tamsin Rail's FY2024 operating cash flow ratio?", search)["retrieval_result"]
    assert result.fetched == ["t-cf", "t-bs"]  # not the note: it gives no figure for the line
    by_id = {d.chunk_id: d for d in result.evidence}
    assert "cash from operations for FY2024" in by_id["t-cf"].why
    assert "current liabilities for FY2024" in by_id["t-bs"].why
    held = figures_held(result.evidence)
    assert {(CO.casefold(), "cfo", 2024), (CO.casefold(), "current_liabilities", 2024)} <= held
    lookups = [c for c in search.calls if c[0].startswith(("net cash provided", "total current liabilities"))]
    assert len(lookups) == 2  # each line item once, though the prose-only draft is retried


def test_nothing_is_fetched_when_the_admitted_evidence_holds_the_rows():
    def search(query: str, company: str | None, fiscal_year: int | None, k: int) -> list[Evidence]:
        calls.append(query)
        return [CASH_FLOW, BALANCE] if company == CO else []

    calls: list[str] = []
    result = run("What is Tamsin Rail's FY2024 operating cash flow ratio?", search)["retrieval_result"]
    assert result.fetched == []
    assert not [q for q in calls if q.startswith(("net cash provided", "total current liabilities"))]


def test_a_company_whose_search_found_nothing_is_not_looked_up():
    search = LineItemSearch()
    run("What is Other Co's FY2024 operating cash flow ratio?", search, companies=["Other Co"])
    assert {c[0] for c in search.calls}.isdisjoint({"net cash provided by operating activities net cash from "
                                                    "operating activities cash provided by operating activities"})


def without_a_year(search: Any) -> Any:
    graph = build_retrieval_graph(search, grader=OfflineGrader()).compile()
    return graph.invoke({"question": "What is Tamsin Rail's operating cash flow ratio?", "companies": [CO],
                         "fiscal_years": []})["retrieval_result"]


def test_a_question_without_a_year_reads_the_latest_annual_filing_its_search_found():
    search = LineItemSearch()
    result = without_a_year(search)
    assert result.fetched == ["t-cf", "t-bs"]
    assert "cash from operations for FY2024" in {d.chunk_id: d for d in result.evidence}["t-cf"].why
    assert {c[2] for c in search.calls if c[0].startswith("net cash provided")} == {2024}


def test_a_half_year_report_is_not_the_latest_year_reported_unless_the_question_asks_for_a_half():
    from nodes.inputs import latest_reported

    half = PROSE.model_copy(update={"chunk_id": "t-h1", "source_id": "TAMSIN_2025H1_HY:p5", "title": "TAMSIN_2025H1_HY",
                                    "fiscal_year": 2025})
    news = PROSE.model_copy(update={"chunk_id": "t-n", "doc_type": "news", "fiscal_year": 2026})
    assert latest_reported([PROSE, half, news], CO, "What is Tamsin Rail's cash flow from operations?") == [2024]
    assert latest_reported([PROSE, half], CO, "What was Tamsin Rail's first-half cash flow?") == [2025]
    assert latest_reported([half], CO, "What is Tamsin Rail's cash flow from operations?") == [2025]
    assert latest_reported([news], CO, "What is Tamsin Rail's cash flow?") == []


def test_a_question_without_a_year_whose_search_found_only_news_fetches_nothing():
    def search(query: str, company: str | None, fiscal_year: int | None, k: int) -> list[Evidence]:
        calls.append(query)
        return [PROSE.model_copy(update={"doc_type": "news", "fiscal_year": None})] if company == CO else []

    calls: list[str] = []
    result = without_a_year(search)
    assert result.fetched == []  # which filing is the latest would be a guess
    assert not [q for q in calls if q.startswith(("net cash provided", "total current liabilities"))]


BALANCE_TOP = Evidence(
    chunk_id="t-bs-0", source_id="TAMSIN_2024_10K:p59", company=CO, fiscal_year=2024, page=59, score=0.03,
    text="TAMSIN RAIL, INC.\nCONSOLIDATED BALANCE SHEETS\n(in millions)\nAs of December 31,\n2024  2023\n"
         "Current assets:\nCash\n 410  380 Receivables\n 290  270 Inventories\n 120  110 Other\n 15  12 "
         "Total current assets\n 835  772",
)
BALANCE_REST = BALANCE.model_copy(update={"chunk_id": "t-bs-1"})
PARENT = Evidence(
    chunk_id="t-parent", source_id="TAMSIN_2024_10K:p90", company=CO, fiscal_year=2024, page=90, score=0.02,
    text="Parent company information\nThe parent company's own balance sheet.\n(in millions)\n2024 2023\n"
         "Total current liabilities 58 61\nTotal assets 3,118 3,204",
)


def test_the_rest_of_an_admitted_statement_page_is_read_before_a_search_that_finds_a_parent_note():
    calls: list[str] = []

    def search(query: str, company: str | None, fiscal_year: int | None, k: int) -> list[Evidence]:
        calls.append(query)
        if company != CO:
            return []
        return [PARENT] if "current liabilities" in query else [BALANCE_TOP]

    def pages(source_id: str, page: int) -> list[Evidence]:
        return [BALANCE_TOP, BALANCE_REST] if (source_id, page) == (BALANCE.source_id, 59) else []

    graph = build_retrieval_graph(search, grader=OfflineGrader(), page_fn=pages).compile()
    result = graph.invoke({"question": "What is Tamsin Rail's FY2024 current ratio?", "companies": [CO],
                           "fiscal_years": [2024]})["retrieval_result"]
    assert "t-bs-1" in result.fetched and "t-parent" not in result.fetched


def test_a_list_that_runs_to_the_end_of_its_page_is_read_on_into_the_next_page():
    from nodes.inputs import list_continuations

    first = Evidence(chunk_id="t-p4-0", source_id="TAMSIN_2024_10K:p4", company=CO, fiscal_year=2024, page=4,
                     score=0.2, text="Our Operations\nWe are organized into four reportable segments, as follows:\n"
                                     "1) Freight, which includes our rail freight business;\n"
                                     "2) Passenger, which includes our commuter services;\n4")
    rest = Evidence(chunk_id="t-p5-0", source_id="TAMSIN_2024_10K:p5", company=CO, fiscal_year=2024, page=5,
                    score=0.0, text="3) Maintenance, which includes our depots;\n4) Leasing, which rents rolling stock.")
    pages = {("TAMSIN_2024_10K:p4", 4): [first], ("TAMSIN_2024_10K:p5", 5): [rest]}

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return pages.get((source_id, page), [])

    [added] = list_continuations("What are Tamsin Rail's reportable segments?", [first], page_fn)
    assert added.chunk_id == "t-p5-0" and "continues the list" in added.why
    assert list_continuations("What was Tamsin Rail's revenue in 2024?", [first], page_fn) == []  # no list asked
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block

    blocks = [Block(n=i, kind="report", header=f"[{i}] {CO} FY2024, p.{e.page} [text]", source_id=e.source_id,
                    chunk_id=e.chunk_id, company=CO, fiscal_year=2024, page=e.page, text=e.text)
              for i, e in enumerate([first, added], start=1)]
    answer = compose_offline({"question": "What are Tamsin Rail's reportable segments?", "companies": [CO],
                              "blocks": blocks})
    assert answer == ("Tamsin Rail's report lists under 'We are organized into four reportable segments, as "
                      "follows': Freight; Passenger; Maintenance and Leasing [1][2].")


def test_a_question_that_ranks_a_statements_rows_reads_the_rest_of_its_page():
    from app.facts.query import row_members, read_query
    from nodes.inputs import statement_continuations

    pages = {(BALANCE.source_id, 59): [BALANCE_TOP, BALANCE_REST]}

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return pages.get((source_id, page), [])

    question = "What was the largest liability on Tamsin Rail's balance sheet in 2024?"
    [added] = statement_continuations(question, [BALANCE_TOP], page_fn)
    assert added.chunk_id == "t-bs-1" and "the rest of the statement page" in added.why
    assert statement_continuations("What was Tamsin Rail's revenue in 2024?", [BALANCE_TOP], page_fn) == []
    # the page read whole, its liabilities add up to their total and the largest is ranked
    rows = row_members("liability", read_query(question, [CO], (2024,)), [BALANCE_TOP, added], [CO], question)
    in_2024 = {f.segment: f.figure.value for f in rows if f.figure.fiscal_year == 2024}
    assert max(in_2024, key=in_2024.get) == "Long-term debt" and sum(in_2024.values()) == 3100.0


def test_a_did_it_mention_question_reads_what_a_text_search_finds_or_declares_no():
    from app.evidence import RetrievalResult
    from nodes.generate import validate_citations
    from nodes.inputs import mention_check
    from prompts.answer import INSUFFICIENT_EVIDENCE

    question = "Did Tamsin Rail mention any layoffs in the annual report? If there is no mention, return False."
    said = Evidence(chunk_id="t-p31-0", source_id="TAMSIN_2024_10K:p31", company=CO, fiscal_year=2024, page=31,
                    score=0.0, text="Restructuring. We recorded $12 million of redundancy costs for 140 roles.")
    plan = Evidence(chunk_id="t-p210-0", source_id="TAMSIN_2024_10K:p210", company=CO, fiscal_year=2024, page=210,
                    score=0.0, text="A Participant on layoff shall be deemed to have terminated under this Plan.")
    asked: list[list[list[str]]] = []

    def mentions(found: list[Evidence]):
        def fn(company: str, groups: list[list[str]]) -> list[Evidence]:
            asked.append(groups)
            return found
        return fn

    state = {"question": question, "companies": [CO], "graded": [BALANCE], "unheld": {}}
    admitted, unmentioned = mention_check(state, mentions([plan, said]))  # type: ignore[arg-type]
    assert [d.chunk_id for d in admitted] == ["t-p31-0"] and "text search" in admitted[0].why
    assert unmentioned == {} and len(asked[-1]) == 1 and {"layoff", "redund", "job+cut"} <= set(asked[-1][0])
    # a plan's terms filed as an exhibit are no mention by the company: the answer is a declared No
    admitted, unmentioned = mention_check(state, mentions([plan]))  # type: ignore[arg-type]
    assert admitted == [] and unmentioned == {CO: ["layof/redun/retre"]}
    assert mention_check({**state, "question": "What was Tamsin Rail's revenue?"}, mentions([said])) == ([], {})
    result = RetrievalResult(status="insufficient", unmentioned=unmentioned, attempts=1, found={CO: False})
    out = validate_citations({"question": question, "companies": [CO], "draft": INSUFFICIENT_EVIDENCE,
                              "retrieval_result": result, "blocks": []})  # type: ignore[typeddict-item]
    assert out["status"] == "answered" and out["draft"].startswith("No. Tamsin Rail's reports held here do not "
                                                                   "mention layoffs")
    # a search that found it mentioned leaves a draft it could not make insufficient, never a No
    found = result.model_copy(update={"unmentioned": {}})
    out = validate_citations({"question": question, "companies": [CO], "draft": INSUFFICIENT_EVIDENCE,
                              "retrieval_result": found, "blocks": []})  # type: ignore[typeddict-item]
    assert out["status"] == "insufficient"


def test_a_why_question_reads_the_rest_of_the_page_a_passage_search_found_stands_on():
    from nodes.inputs import statement_continuations

    table = Evidence(chunk_id="t-p15-1", source_id="TAMSIN_2024_10K:p15", company=CO, fiscal_year=2024, page=15,
                     score=0.02, text="$ million 2024 2023\nRevenue 3,027.3 3,185.5\nNet income 381.3 875.5")
    reason = Evidence(chunk_id="t-p15-0", source_id="TAMSIN_2024_10K:p15", company=CO, fiscal_year=2024, page=15,
                      score=0.0, text="The impairment of $385.0 million before tax reduced net income.")

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return [reason, table] if (source_id, page) == ("TAMSIN_2024_10K:p15", 15) else []

    [added] = statement_continuations("Why did Tamsin Rail's net income fall in 2024?", [table], page_fn)
    assert added.chunk_id == "t-p15-0" and "explanation" in added.why
    assert statement_continuations("What was Tamsin Rail's net income in 2024?", [table], page_fn) == []


def test_a_question_computed_from_statement_lines_reads_the_rest_of_an_admitted_statement_page():
    """'Net income attributable to …' may stand in the chunk after the one search found: a question computed from
    line items reads each admitted primary statement's page whole; one that computes nothing does not."""
    from nodes.inputs import statement_continuations

    pages = {(BALANCE.source_id, 59): [BALANCE_TOP, BALANCE_REST]}

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return pages.get((source_id, page), [])

    question = "What was Tamsin Rail's current ratio in 2024?"
    [added] = statement_continuations(question, [BALANCE_TOP], page_fn, [CO], inputs=True)
    assert added.chunk_id == "t-bs-1" and "line items the question computes from" in added.why
    assert statement_continuations(question, [BALANCE_TOP], page_fn, [CO]) == []


def test_a_list_of_deeds_reads_the_rest_of_the_page_and_states_each_deed() -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block
    from nodes.inputs import statement_continuations

    first = Evidence(chunk_id="t-p64-0", source_id="TAMSIN_2024_10K:p64", company=CO, fiscal_year=2024, page=64,
                     score=0.02, text="Acquisitions\nOn August 1, 2023, the Company completed the acquisition of a "
                                      "Czech rail maintenance company. The fair values of the net assets acquired are "
                                      "based on the Company's best estimate as of June 30, 2024. On March 17, 2024, the "
                                      "Company completed the acquisition of a depot operator in Shanghai, China.")
    rest = Evidence(chunk_id="t-p64-1", source_id="TAMSIN_2024_10K:p64", company=CO, fiscal_year=2024, page=64,
                    score=0.0, text="On May 31, 2024, the Company completed the acquisition of a New Zealand based "
                                    "manufacturer of signalling equipment. Goodwill is not deductible for tax purposes.")

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return [first, rest] if (source_id, page) == ("TAMSIN_2024_10K:p64", 64) else []

    question = "What are major acquisitions that Tamsin Rail has done in FY2024?"
    [added] = statement_continuations(question, [first], page_fn)
    assert added.chunk_id == "t-p64-1" and "list" in added.why
    assert statement_continuations("Which company did Tamsin Rail acquire in FY2024?", [first], page_fn) == []
    blocks = [Block(n=i, kind="report", header=f"[{i}] {CO} FY2024, p.64 [text]", source_id=e.source_id,
                    chunk_id=e.chunk_id, company=CO, fiscal_year=2024, page=64, text=e.text)
              for i, e in enumerate([first, added], start=1)]
    answer = compose_offline({"question": question, "companies": [CO], "blocks": blocks})
    for place in ("Czech", "Shanghai", "New Zealand"):
        assert place in answer
    assert "fair values" not in answer  # a sentence about one of the deeds is no deed of the list


QUARTER_BALANCE = Evidence(  # a 10-Q of a June year: its first column is the quarter's end, not the year's
    chunk_id="t-q-bs", source_id="TAMSIN_2024Q2_10Q:p7", title="TAMSIN_2024Q2_10Q", company=CO, fiscal_year=2024,
    page=7, score=0.04,
    text="TAMSIN RAIL, INC.\nCONDENSED CONSOLIDATED BALANCE SHEETS\n(in millions)\nDecember 31, 2023 June 30, 2023\n"
         "Current liabilities:\nAccounts payable\n 640  580 Accrued expenses\n 440  350 Total current liabilities\n"
         " 1,080  930 Long-term debt\n 2,200  2,300 Total liabilities\n 3,280  3,230",
)
CLOSED_GROUP = Evidence(
    chunk_id="t-dcg", source_id="TAMSIN_2024_10K:p107", title="TAMSIN_2024_10K", company=CO, fiscal_year=2024,
    page=107, score=0.04,
    text="Deed of Cross Guarantee\nConsolidated Balance Sheets\n(in millions)\nAs of June 30, 2024 2023\n"
         "Current liabilities:\nTrade payables 120 110 Other payables 30 30 Total current liabilities\n 150  140\n"
         "Long-term debt 400 420 Total liabilities 550 560",
)


def test_a_years_balances_are_read_from_the_annual_statement_not_a_quarters_or_a_closed_groups():
    """A 10-Q's quarter-end column falls in the fiscal year without being the year's balance, and a Deed of Cross
    Guarantee's statements are a closed group's: the search that ranks them first still fetches the 10-K's row."""
    annual = BALANCE.model_copy(update={"title": "TAMSIN_2024_10K", "source_id": "TAMSIN_2024_10K:p59"})

    def search(query: str, company: str | None, fiscal_year: int | None, k: int) -> list[Evidence]:
        if company != CO:
            return []
        if query == "total current liabilities current liabilities":  # the line item's names
            return [CLOSED_GROUP, QUARTER_BALANCE, annual]
        return [CLOSED_GROUP, QUARTER_BALANCE]  # the question's own queries

    graph = build_retrieval_graph(search, grader=OfflineGrader()).compile()
    result = graph.invoke({"question": "What was Tamsin Rail's current ratio in FY2024?",
                           "companies": [CO], "fiscal_years": [2024]})["retrieval_result"]
    assert "t-bs" in result.fetched
    assert "t-dcg" not in result.fetched


def test_a_question_about_a_quarter_reads_the_quarters_statement():
    from nodes.inputs import find_row

    def search(query: str, company: str | None, fiscal_year: int | None, k: int) -> list[Evidence]:
        return [CLOSED_GROUP, QUARTER_BALANCE, BALANCE] if company == CO else []

    assert find_row(search, CO, "current_liabilities", 2024, [2024]).chunk_id == "t-bs"
    assert find_row(search, CO, "current_liabilities", 2024, [2024], part="Q2").chunk_id == "t-q-bs"


def test_what_drove_a_margin_reads_the_sentence_a_text_search_finds_giving_its_cause():
    """'What drove gross margin change' is answered by the sentence that says how its complement moved ('Cost of
    sales increased as a percent to sales driven by: …'), which ranked search, reading the question's meaning,
    puts below the statement of the figures; a text search of the company's reports finds it, in the filing of the
    year asked, and the offline grader admits it."""
    from app.models.providers.offline.grader import OfflineGrader as Grader
    from app.text.question_kinds import explains_margin, margin_names
    from nodes.inputs import explanation_check

    question = ("What drove gross margin change as of FY2024 for Tamsin Rail? If gross margin is not a useful "
                "metric for a company like this, then please state that and explain why.")
    cause = Evidence(chunk_id="t-p34-0", source_id="TAMSIN_2024_10K:p34", company=CO, fiscal_year=2024, page=34,
                     score=0.0, text="Cost of sales increased as a percent to sales driven by:\n• Higher diesel "
                                     "prices\n• Wage inflation in the freight segment")
    older = cause.model_copy(update={"chunk_id": "t-2023-p30", "source_id": "TAMSIN_2023_10K:p30",
                                     "fiscal_year": 2023})
    passing = cause.model_copy(update={"chunk_id": "t-p80", "text": "Cost of sales is recognised when goods ship. "
                                       "Amounts due to suppliers are settled monthly."})
    asked: list[list[list[str]]] = []

    def mentions(company: str, groups: list[list[str]]) -> list[Evidence]:
        asked.append(groups)
        return [cause, older, passing] if company == CO else []

    assert margin_names(question)[:2] == ("gross margin", "cost of products sold")
    state = {"question": question, "companies": [CO], "fiscal_years": [2024], "graded": [BALANCE], "unheld": {}}
    admitted = explanation_check(state, mentions)  # type: ignore[arg-type]
    assert [d.chunk_id for d in admitted] == ["t-p34-0"] and "cause" in admitted[0].why
    assert all(len(groups) >= 2 for groups in asked)  # the margin's words and a cause word, never one alone
    assert not explains_margin(question, passing.text)  # 'due to suppliers' beside a definition is no cause
    assert Grader().grade(question, cause.model_copy(update={"score": 0.01}), [CO])
    # a question that asks no cause, or names no margin, searches nothing
    assert explanation_check({**state, "question": "What was Tamsin Rail's gross margin in FY2024?"}, mentions) == []
    assert explanation_check({**state, "question": "Why did Tamsin Rail's revenue fall in FY2024?"}, mentions) == []



def test_a_count_no_admitted_chunk_states_is_read_where_a_text_search_finds_it_stated():
    from nodes.inputs import count_check

    question = "How many employees did Tamsin Rail have at the end of 2024?"
    stated = Evidence(chunk_id="t-p4-2", source_id="TAMSIN_2024_10K:p4", company=CO, fiscal_year=2024, page=4,
                      score=0.0, text="We cannot prevail in every dispute.EMPLOYEES As of December 31, 2024, we had "
                                      "approximately 5,500 total employees.")
    heading = Evidence(chunk_id="t-p60-4", source_id="TAMSIN_2024_10K:p60", company=CO, fiscal_year=2024, page=60,
                       score=0.0, text="10. Employee Benefit Plan The Company maintains a 401(k) plan for employees.")
    older = stated.model_copy(update={"chunk_id": "t-2023-p4", "fiscal_year": 2023,
                                      "source_id": "TAMSIN_2023_10K:p4"})
    asked: list = []

    def mentions(company: str, groups: list[list[str]]) -> list[Evidence]:
        asked.append(groups)
        return [heading, older, stated]

    state = {"question": question, "companies": [CO], "fiscal_years": [2024], "graded": [heading], "unheld": {}}
    admitted = count_check(state, mentions)  # type: ignore[arg-type]
    assert [d.chunk_id for d in admitted] == ["t-p4-2"] and "count" in admitted[0].why
    assert "employe" in asked[0][0] and "peopl" in asked[0][0]  # the count's other wordings are searched too
    # a chunk already admitted that states it: nothing more is read
    assert count_check({**state, "graded": [stated]}, mentions) == []  # type: ignore[arg-type]
    assert count_check({**state, "question": "What was Tamsin Rail's revenue in 2024?"}, mentions) == []  # type: ignore[arg-type]


def test_a_segment_ranking_reads_the_table_a_passage_leads_into_not_the_primary_statements():
    from nodes.inputs import statement_continuations

    lead = Evidence(chunk_id="t-p22-0", source_id="TAMSIN_2024_10K:p22", company=CO, fiscal_year=2024, page=22,
                    score=0.02, text="RESULTS OF SEGMENT OPERATIONS\nWe have three operating segments.\nThe following "
                                     "tables provide the dollar amount and percentage of net sales and operating "
                                     "profit from each segment for fiscal 2024 and fiscal 2023:")
    table = Evidence(chunk_id="t-p22-1", source_id="TAMSIN_2024_10K:p22", company=CO, fiscal_year=2024, page=22,
                     score=0.0, text="In Millions 2024 2023\nNet Sales\nFreight $ 1,750.5 $ 1,625.2\n"
                                     "Passenger 838.9 886.7\nTotal $ 2,589.4 $ 2,511.9")
    pages = {(lead.source_id, 22): [lead, table], (BALANCE.source_id, 59): [BALANCE_TOP, BALANCE_REST]}

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return pages.get((source_id, page), [])

    question = "Which of Tamsin Rail's segments had the highest net sales in fiscal 2024?"
    added = statement_continuations(question, [BALANCE_TOP, lead], page_fn, [CO])
    assert [d.chunk_id for d in added] == ["t-p22-1"]  # the balance sheet's line items are no segments
    # a lead-in to a table of another measure is not read on
    other = lead.model_copy(update={"text": lead.text.replace("net sales and operating profit", "headcount")})
    assert statement_continuations(question, [other], page_fn, [CO]) == []


def test_a_segment_ranking_reads_on_past_pages_whose_tables_date_no_rows():
    from nodes.inputs import MAX_STATEMENT_PAGES, statement_continuations

    def page(n: int, rows: str, title: str = "Operating Income by business segment") -> list[Evidence]:
        source = "TAMSIN_2024_10K:p%d" % n
        return [Evidence(chunk_id=f"t-p{n}-{k}", source_id=source, company=CO, fiscal_year=2024, page=n, score=0.02,
                         text=f"{title}\n{rows}" if k == 0 else rows) for k in range(2)]

    # a quarter's table whose header mixes periods, shares and measures: no row is read with its periods
    undated = "Three months ended\nNet Sales % of Total Oper. Income\nFreight 2,952 37.2 % 627 2,961 37.1 % 580"
    dated = "(Millions) 2024 2023\nFreight $ 1,750 $ 1,625\nPassenger 838 886"
    pages = {21: page(21, undated), 22: page(22, undated), 126: page(126, dated)}

    def page_fn(source_id: str, n: int) -> list[Evidence]:
        return pages.get(n, [])

    question = "Which Tamsin Rail segment had the highest operating income in 2024?"
    graded = [pages[21][0], pages[22][0], pages[126][0]]
    added = statement_continuations(question, graded, page_fn, [CO])
    assert MAX_STATEMENT_PAGES == 2 and [d.chunk_id for d in added] == ["t-p126-1"]
    # pages that date their rows take the pages read: the third is not read
    pages[21], pages[22] = page(21, dated), page(22, dated)
    added = statement_continuations(question, graded, page_fn, [CO])
    assert [d.chunk_id for d in added] == ["t-p21-1", "t-p22-1"]


def test_a_growth_judgement_reads_the_chunk_that_states_the_years_growth():
    from nodes.inputs import growth_check

    states = Evidence(chunk_id="t-er-p1-0", source_id="TAMSIN_2024Q4_EARNINGS:p1", company=CO, fiscal_year=2024,
                      page=1, score=0.0, text="• 2024 Full-Year reported sales growth of 1.3% to $9.4 Billion.")
    other = states.model_copy(update={"chunk_id": "t-er-p1-1", "text": "Sales of freight services increased."})
    asked: list = []

    def mentions(company: str, groups: list[list[str]]) -> list[Evidence]:
        asked.append(groups)
        return [other, states]

    question = "Are Tamsin Rail's FY2024 financials that of a high growth company?"
    state = {"question": question, "companies": [CO], "fiscal_years": [2024], "graded": [], "unheld": {}}
    assert [d.chunk_id for d in growth_check(state, mentions)] == ["t-er-p1-0"]  # type: ignore[arg-type]
    assert ["2024"] in asked[0]  # the year asked narrows the search
    # held already, or a judgement on something else: nothing is read
    assert growth_check({**state, "graded": [states]}, mentions) == []  # type: ignore[arg-type]
    assert growth_check({**state, "question": "Is Tamsin Rail's liquidity healthy?"}, mentions) == []  # type: ignore[arg-type]


def test_a_passage_that_names_the_measure_asked_but_states_no_figure_of_it_is_read_on():
    from nodes.inputs import measure_continuations

    pages = {(BALANCE.source_id, 59): [BALANCE_TOP, BALANCE_REST]}

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return pages.get((source_id, page), [])

    # 'Total current assets' names every word of 'total assets' and is no figure of it: the next chunk has it
    [added] = measure_continuations("What were Tamsin Rail's total assets at the end of 2024?", [BALANCE_TOP],
                                    page_fn, [CO])
    assert added.chunk_id == "t-bs-1" and "names the measure asked" in added.why
    # a chunk that states the figure asked, a measure it does not name, or no figure asked: nothing read on
    assert measure_continuations("What were Tamsin Rail's total current assets at the end of 2024?", [BALANCE_TOP],
                                 page_fn, [CO]) == []
    assert measure_continuations("What was Tamsin Rail's revenue in 2024?", [BALANCE_TOP], page_fn, [CO]) == []
    assert measure_continuations("What are Tamsin Rail's reportable segments?", [BALANCE_TOP], page_fn, [CO]) == []
    # a passage of prose that names the measure is not read on from; one that leads into a table is
    prose = Evidence(chunk_id="t-mau-0", source_id="TAMSIN_2024_10K:p34", company=CO, fiscal_year=2024, page=34,
                     score=0.1, text="Rail Miles\nWe monitor rail miles run as a key measure of our network's use.")
    table = Evidence(chunk_id="t-mau-1", source_id="TAMSIN_2024_10K:p34", company=CO, fiscal_year=2024, page=34,
                     text="December 31, 2024 December 31, 2023\nFreight 128 136\nPassenger 32 33\nTotal 160 169")
    pages[("TAMSIN_2024_10K:p34", 34)] = [prose, table]
    asked = "How many rail miles did Tamsin Rail run in 2024?"
    assert measure_continuations(asked, [prose], page_fn, [CO]) == []
    leading = prose.model_copy(update={"text": prose.text + " The following table details rail miles run by "
                                                           "segment (amounts in millions):"})
    pages[("TAMSIN_2024_10K:p34", 34)] = [leading, table]
    assert [d.chunk_id for d in measure_continuations(asked, [leading], page_fn, [CO])] == ["t-mau-1"]


def test_an_income_statement_is_read_on_for_a_per_share_line_its_first_rows_do_not_name():
    """The income statement's first chunk (revenue to tax) names most of 'net income per diluted share' and not
    'diluted': the chunk after it, with the per-share lines, is read; a balance sheet is not read on for it."""
    from nodes.inputs import measure_continuations

    top = Evidence(chunk_id="t-is-0", source_id="TAMSIN_2024_10K:p36", company=CO, fiscal_year=2024, page=36,
                   score=0.2, text="CONSOLIDATED STATEMENTS OF INCOME\n(amounts in millions, except per share data)\n"
                                   "2024 2023\nNet sales $ 9,205 $ 8,716\nMembership fees 387 354\nTotal revenue "
                                   "9,592 9,070\nMerchandise costs 8,068 7,493\nOperating income 708 635\n"
                                   "Interest expense (17) (16)\nProvision for income taxes 160 130")
    rest = top.model_copy(update={"chunk_id": "t-is-1", "text": "NET INCOME $ 500 $ 402\nNET INCOME PER COMMON "
                                  "SHARE:\nBasic $ 11.30 $ 9.05\nDiluted $ 11.27 $ 9.02"})
    pages = {("TAMSIN_2024_10K:p36", 36): [top, rest], (BALANCE.source_id, 59): [BALANCE_TOP, BALANCE_REST]}

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return pages.get((source_id, page), [])

    asked = "What was Tamsin Rail's net income per diluted share in 2024?"
    assert [d.chunk_id for d in measure_continuations(asked, [top], page_fn, [CO])] == ["t-is-1"]
    assert measure_continuations(asked, [BALANCE_TOP], page_fn, [CO]) == []


def test_a_table_of_the_measure_beside_the_admitted_commentary_is_read_and_its_count_is_no_money() -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block
    from nodes.inputs import sibling_tables

    table = Evidence(
        chunk_id="t-22-1", source_id="TAMSIN_2024_10K:p22", company=CO, fiscal_year=2024, page=22, score=0.0,
        text="Freight Segment\nAs of/ Year Ended December 31, Change\n2024 2023 2022 2024 vs. 2023 2023 vs. 2022\n"
             "(in thousands, except revenue per member and percentages) Members:\nNet additions\n"
             "11,747 7,347 4,809 4,400 60 % 2,538 53 %\nMemberships at end of period\n"
             "30,024 18,277 10,930 11,747 64 % 7,347 67 %\nRevenues\n$ 1,953,435 $ 1,308,061 $ 712,390 $ 645,374 "
             "49 % $ 595,671 84 %")
    prose = Evidence(
        chunk_id="t-22-3", source_id="TAMSIN_2024_10K:p22", company=CO, fiscal_year=2024, page=22, score=0.05,
        text="In the Freight segment, we derive revenues from monthly membership fees. The increase in freight "
             "revenues was due to growth in the average number of paid freight memberships.")
    question = f"How did {CO}'s Freight segment memberships at end of period change from 2023 to 2024?"
    pages = {("TAMSIN_2024_10K:p22", 22): [table, prose]}
    added = sibling_tables(question, [prose], lambda source, page: pages.get((source, page), []), [CO])
    assert [d.chunk_id for d in added] == ["t-22-1"], added
    assert sibling_tables(question, [prose, table], lambda source, page: pages[(source, page)], [CO]) == []
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2024, p.22 [table]", text=table.text,
                  source_id=table.source_id, chunk_id=table.chunk_id, company=CO, fiscal_year=2024, page=22)
    answer = compose_offline({"question": question, "companies": [CO], "fiscal_years": [2023, 2024],
                              "blocks": [block]})
    assert "18,277k in FY2023 to 30,024k in FY2024" in answer and "$" not in answer.split("[")[0], answer


def test_a_prior_years_table_of_the_measure_does_not_stand_in_for_the_years_own() -> None:
    from nodes.inputs import sibling_tables

    table = Evidence(chunk_id="t-48-1", source_id="TAMSIN_2024_10K:p48", company=CO, fiscal_year=2024, page=48,
                     score=0.0, text="Operating Expenses (dollars in millions)\nFiscal\n2024\nFiscal\n2023\n"
                                     "Sales and marketing 1,910.2 1,683.2\nGeneral and administrative 577.7 531.9")
    prose = Evidence(chunk_id="t-48-2", source_id="TAMSIN_2024_10K:p48", company=CO, fiscal_year=2024, page=48,
                     score=0.05, text="The increase in sales and marketing expenses during fiscal 2024 was primarily "
                                      "due to increased headcount.")
    earlier = Evidence(chunk_id="t-42-1", source_id="TAMSIN_2023_10K:p42", company=CO, fiscal_year=2023, page=42,
                       score=0.04, text="Operating Expenses (dollars in millions)\nFiscal\n2023\nFiscal\n2022\n"
                                        "Sales and marketing 1,683.2 1,652.3")
    question = f"How much more did {CO} spend on sales and marketing in fiscal 2024 than in fiscal 2023?"
    pages = {("TAMSIN_2024_10K:p48", 48): [table, prose]}
    added = sibling_tables(question, [prose, earlier], lambda source, page: pages.get((source, page), []), [CO])
    assert [d.chunk_id for d in added] == ["t-48-1"], added
