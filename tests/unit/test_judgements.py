"""Judgements (app/judgements.py) and the analyst's judgement answer: Yes/No first, the metric it rests on with
its period and block, then the convention in words. Companies and figures here are invented for the tests."""

from __future__ import annotations

from app.judgements import CONVENTIONS, convention_for
from app.models.providers.offline.composer import compose_offline
from app.turns import Block


def test_the_convention_a_question_asks() -> None:
    assert convention_for("Is Osprey a capital-intensive business?").topic == "capital-intensive"
    assert convention_for("Is Osprey's balance sheet conservatively financed?").topic == "conservatively financed"
    assert convention_for("Is Osprey highly leveraged?").topic == "highly leveraged"
    assert convention_for("Are Osprey's margins improving?").topic == "improving margins"
    assert convention_for("Is Osprey's liquidity healthy?").topic == "healthy liquidity"
    assert convention_for("What was Osprey's revenue?") is None


def test_the_questions_own_metric_comes_first() -> None:
    own = convention_for("Is Osprey capital-intensive, judging by its capital expenditure relative to revenue?")
    assert own.measures[0] == "capex as a share of revenue"
    assert convention_for("Does Osprey have an improving gross margin profile?").measures[0] == "gross margin"
    quick = convention_for("Is Osprey's liquidity healthy by the quick ratio?")
    assert quick.measures[0] == "quick ratio"
    # the rule of thumb the answer states is the quick ratio's, not the current ratio's
    assert "quick ratio" in quick.says and "current ratio" not in quick.says
    assert "current ratio" in convention_for("Is Osprey's liquidity healthy?").says
    dated = convention_for("Is Osprey's liquidity healthy based on its fiscal 2024 quick ratio?")
    assert dated.measures[0] == "quick ratio" and "quick ratio" in dated.says
    named = convention_for("Is Osprey conservatively financed? Judge by the ratio of equity attributable to owners of "
                           "the parent to total assets at March 31, 2025.")
    assert named.measures[0] == "ratio of equity attributable to owners of the parent to total assets"  # not 'ratio'
    both = convention_for("Is Osprey conservatively financed based on its net debt to EBITDA ratio and its equity ratio?")
    assert both.measures[0] == "net debt to EBITDA ratio"


def test_the_rules() -> None:
    by_topic = {c.topic: c for c in CONVENTIONS}
    assert by_topic["capital-intensive"].holds(22.3) and not by_topic["capital-intensive"].holds(5.1)
    assert by_topic["highly leveraged"].holds(4.1) and not by_topic["highly leveraged"].holds(1.1)
    assert by_topic["improving margins"].holds(6.1, 6.2) is False
    assert by_topic["improving margins"].holds(6.3, 6.2) is True
    assert by_topic["improving margins"].holds(6.2, 6.2) is None  # unchanged: neither
    for convention in CONVENTIONS:  # an answer cites only filings: the convention states no figure of its own
        assert not any(ch.isdigit() for ch in convention.says + "".join(t for _, t in convention.says_for))


def block(n: int, text: str, year: int = 2024) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] Osprey Engineering FY{year}, p.{n} [text]", source_id=f"os-{n}",
                 chunk_id=f"os-{n}", company="Osprey Engineering", fiscal_year=year, page=n, text=text)


def test_a_judgement_leads_with_yes_or_no_then_the_metric_and_the_convention() -> None:
    state = {"question": "Is Osprey's balance sheet conservatively financed?", "companies": ["Osprey Engineering"],
             "blocks": [block(1, "Order intake rose in every region."),
                        block(2, "The equity ratio was 47.1% at the end of the year (2023: 45.4%), and the "
                                 "revolving facility was undrawn.")]}
    answer = compose_offline(state)
    # the year before's figure too, when the filing gives it
    assert answer.startswith("Yes. Osprey Engineering's equity ratio was 47.1% in FY2024, up from 45.4% a year "
                             "earlier [2].")
    assert "conservative financing" in answer


def test_a_judgement_states_a_second_measure_the_convention_reads_but_not_a_covenants_limit() -> None:
    state = {"question": "Is Osprey's balance sheet conservatively financed?", "companies": ["Osprey Engineering"],
             "blocks": [block(1, "The equity ratio was 47.1% at the end of the year (2023: 45.4%)."),
                        block(2, "The facility has a covenant limiting net debt to no more than 3.0 times EBITDA. "
                                 "Net debt / EBITDA was 1.1x at the end of the year.")]}
    answer = compose_offline(state)
    assert "net debt / EBITDA was 1.1x in FY2024 [2]" in answer
    assert "3x" not in answer and "3.0x" not in answer


def test_a_trend_judgement_compares_the_two_latest_years() -> None:
    table = ("Key figures ($ in millions)\n| Measure | FY2024 | FY2023 |\n|---|---|---|\n"
             "| Revenue | 1,486.2 | 1,431.7 |\n| Operating margin | 6.1% | 6.2% |")
    state = {"question": "Are Osprey's margins improving?", "companies": ["Osprey Engineering"],
             "blocks": [block(1, table)]}
    assert compose_offline(state).startswith(
        "No. Osprey Engineering's operating margin fell from 6.2% in FY2023 to 6.1% in FY2024 [1].")


# --- lists, yes/no on a property, explanations ---------------------------------------------------------------------


def sentence_state(question: str, *texts: str) -> dict:
    return {"question": question, "companies": ["Osprey Engineering"],
            "blocks": [block(i, t) for i, t in enumerate(texts, start=1)]}


def test_a_yes_no_needs_a_sentence_that_states_it() -> None:
    page = ("Osprey Engineering makes pumps and valves for water utilities in twelve countries. "
            "In March the Board decided to close the Hartfield plant, whose work moves to Linton by next year.")
    assert compose_offline(sentence_state("Is Osprey closing any of its plants?", page)).startswith(
        "Yes. In March the Board decided to close the Hartfield plant")
    denied = "No single customer accounted for more than a tenth of the group's revenue in either year."
    assert compose_offline(sentence_state("Does any single customer account for a tenth of Osprey's revenue?",
                                          denied)).startswith("No. No single customer accounted")
    # nothing states it: the declared insufficient answer, not a neighbouring sentence
    assert compose_offline(sentence_state("Is Osprey planning to sell its valve business?", page)).startswith(
        "Insufficient evidence")


def test_an_explanation_prefers_the_sentence_that_gives_the_reason() -> None:
    pages = ("Operating profit fell in the year and the board met eleven times to review the results in detail.",
             "Operating profit fell mainly because of a one-off charge for the closure of the Hartfield foundry.")
    answer = compose_offline(sentence_state("Why did Osprey's operating profit fall in 2024?", *pages))
    assert answer.startswith("Operating profit fell mainly because of a one-off charge") and "[2]" in answer


def test_a_question_for_one_name_is_answered_by_the_sentence_naming_it_not_a_list_sharing_its_words() -> None:
    certification = ("Exhibit 31.1\nCERTIFICATION OF CHIEF EXECUTIVE OFFICER\nI, Mara Lind, certify that:\n"
                     "1. I have reviewed this annual report on Form 10-K of Osprey Engineering;\n"
                     "2. Based on my knowledge, this report does not contain any untrue statement of a material "
                     "fact;\n")
    officers = ("Our executive officers are Mara Lind, President and Chief Executive Officer since May 2021; "
                "and Joel Park, Executive Vice President and Chief Financial Officer since June 2022.")
    answer = compose_offline(sentence_state("Who is the chief executive officer of Osprey Engineering?",
                                            certification, officers))
    assert answer.startswith("Our executive officers are Mara Lind, President and Chief Executive Officer") \
        and "[2]" in answer and "reviewed" not in answer


def test_a_list_question_no_sentence_answers_gets_no_pasted_table_lead_in_or_boilerplate() -> None:
    from app.evidence import Claim, RetrievalResult

    page = ("An analysis of the restructuring liability is as follows:\nBalance at December 31, 2024 $ 81 $ 2 $ 93\n"
            "This certification shall not be deemed to be incorporated by reference into any filing under the "
            "Securities Act of 1933.\nOsprey Engineering makes pumps and valves for water utilities in twelve "
            "countries.")
    claims = [Claim(text=t, evidence_chunk_ids=["os-1"], company="Osprey Engineering", verified=True) for t in (
        "An analysis of the restructuring liability is as follows:",
        "Balance at December 31, 2024 $ 81 $ 2 $ 93",
        "This certification shall not be deemed to be incorporated by reference into any filing under the "
        "Securities Act of 1933.")]
    state = {**sentence_state("What are the main acquisitions Osprey made in 2024?", page),
             "retrieval_result": RetrievalResult(status="found", claims=claims)}
    assert compose_offline(state).startswith("Insufficient evidence")
    # a question of no recognised form keeps the claims that bear on it
    revenue = Claim(text="Osprey Engineering's revenue rose to £412m in 2024 on water utility demand.",
                    evidence_chunk_ids=["os-1"], company="Osprey Engineering", verified=True)
    loose = {**sentence_state("Tell me about Osprey's water business", page + "\n" + revenue.text),
             "retrieval_result": RetrievalResult(status="found", claims=[revenue])}
    assert compose_offline(loose).startswith("Osprey Engineering's revenue rose to £412m")
    # a measure named in a question of no other form asks for its figure
    named = {**loose, "question": "What about their revenue?"}
    assert compose_offline(named).startswith("Osprey Engineering's revenue was £412m in FY2024 [1].")


def test_a_negation_of_something_else_is_no_denial() -> None:
    page = ("Other than the impairment of the Hartfield foundry and the restructuring described on page 11, there "
            "were no significant changes in the state of affairs of the Group during the year.")
    assert compose_offline(sentence_state("Did Osprey book an impairment in 2024?", page)).startswith(
        "Yes. Other than the impairment of the Hartfield foundry")
    denied = "The Group did not book any impairment of goodwill or of its plants during the year under review."
    assert compose_offline(sentence_state("Did Osprey book an impairment in 2024?", denied)).startswith("No. ")


def test_words_the_question_offers_as_alternatives_are_held_by_either() -> None:
    page = ("Osprey Engineering makes pumps and valves for water utilities in twelve countries. "
            "In May the Group completed the acquisition of Lindqvist Valves AB, a Swedish valve maker, for €84 million.")
    answer = compose_offline(sentence_state("Did Osprey mention any mergers or acquisitions in its 2024 report?", page))
    assert answer.startswith("Yes. In May the Group completed the acquisition of Lindqvist Valves AB")


def test_a_figure_questions_claims_that_are_fragments_of_sentences_are_not_pasted() -> None:
    from app.evidence import Claim, RetrievalResult

    page = "Service revenue grew, with progress in after-sales service revenue, which reached 14% of sales."
    claims = [Claim(text="progress in after-sales service revenue, which reached 14% of sales.",
                    evidence_chunk_ids=["os-1"], company="Osprey Engineering", verified=True)]
    state = {**sentence_state("How much revenue did Osprey's Pumps business generate in 2024?", page),
             "retrieval_result": RetrievalResult(status="found", claims=claims)}
    assert compose_offline(state).startswith("Insufficient evidence")


def test_a_figure_questions_claims_must_state_a_figure_not_only_the_years_a_report_covers() -> None:
    from app.evidence import Claim, RetrievalResult

    intro = ("This Annual Report presents the consolidated financial statements of Osprey Engineering for the fiscal "
             "year ended March 31, 2025, with the outlook for the fiscal year ending March 31, 2026.")
    claims = [Claim(text=intro, evidence_chunk_ids=["os-1"], company="Osprey Engineering", verified=True)]
    state = {**sentence_state("What operating income does Osprey forecast for the year ending March 31, 2026?",
                              intro), "retrieval_result": RetrievalResult(status="found", claims=claims)}
    assert compose_offline(state).startswith("Insufficient evidence")


def test_a_plan_is_listed_from_its_section_and_a_deed_from_the_sentence_that_tells_it_once() -> None:
    outlook = Block(n=1, kind="report", header='[1] Osprey Engineering FY2024, section "Outlook and guidance" [text]',
                    source_id="os-1", chunk_id="os-1", company="Osprey Engineering", fiscal_year=2024,
                    text="For FY2025 we expect:\n- revenue of €1.02bn to €1.08bn;\n- an operating margin of 9.0% to "
                         "9.5%;\n- capital expenditure of €50m to €60m.")
    plan = compose_offline({"question": "What is Osprey's FY2025 guidance?", "companies": ["Osprey Engineering"],
                            "blocks": [outlook]})
    assert plan.startswith("Osprey Engineering's report lists three items under 'Outlook and guidance' [1]. "
                           "Revenue of €1.02bn to €1.08bn [1].")
    recall = ("Operating profit excluding recall costs adds back the €6.8m of direct costs of the recall. "
              "The direct cost of the recall was €6.8m, covering write-offs and retailer compensation. "
              "On 11 June 2024 we initiated a voluntary recall of about 1.9 million packs of Crunchwell Lentil Crisps.")
    answer = compose_offline(sentence_state("What did Osprey recall, and what did it cost?", recall))
    assert "Crunchwell" in answer and answer.count("€6.8m") == 1


def test_a_negated_verb_denies_what_that_verb_says_not_its_object() -> None:
    from app.models.providers.offline.composer.analyst import _denies, question_verb
    from app.knowledge.analyzer import analyze

    asked = "Does Osprey pay a dividend?"
    key, verb = set(analyze("dividend")), question_verb(asked)
    assert verb >= set(analyze("pay"))  # the company's name skipped
    assert not _denies("Debt covenants do not restrict the payment of dividends.", key, verb)
    assert _denies("Osprey has not paid dividends since 2019.", key, verb)
    assert _denies("No dividend was declared for the year.", key, verb)
    closing = set(analyze("closing plants"))
    assert _denies("We do not expect to close any plants.", closing, question_verb("Is Osprey closing plants?"))


def test_positive_working_capital_is_judged_from_the_computed_working_capital() -> None:
    from app.calc_tools import CalcResult, Figure
    from app.models.providers.offline.composer.analyst import Analyst

    assert convention_for("Does Osprey have positive working capital based on FY2024 data?").topic == \
        "positive working capital"
    assets = Figure(label="Total current assets", value=29505.0, unit="$m", company="Osprey Engineering",
                    fiscal_year=2024, source_id="os-1", chunk_id="os-1")
    liabilities = assets.model_copy(update={"label": "Total current liabilities", "value": 29441.0})
    result = CalcResult(tool="metric", inputs={"current_assets_2024": 29505.0, "current_liabilities_2024": 29441.0},
                        result=64.0, unit="$m", expression="29505 - 29441",
                        sources={"current_assets_2024": assets, "current_liabilities_2024": liabilities},
                        formula="working capital = current assets - current liabilities")
    sheet = block(1, "Total current assets 29,505\nTotal current liabilities 29,441")
    state = {"question": "Does Osprey have positive working capital based on FY2024 data?",
             "companies": ["Osprey Engineering"], "blocks": [sheet, Block(n=2, kind="calculation", header="[2]",
                                                                          source_id="calc", text="working capital")],
             "calculation": type("C", (), {"results": [result]})()}
    said = Analyst(state, state["question"]).judged_by_calculation(convention_for(state["question"]))
    assert said[0].startswith("Yes. Osprey Engineering's working capital was $64m in FY2024"), said


def test_a_yes_no_on_a_deed_with_an_amount_is_answered_with_its_amount() -> None:
    pages = ("Other than the impairment of the Kerrup plant, there were no significant changes in the state of "
             "affairs of the group during the year.",
             "The impairment of A$385.0 million before tax was recognised against the Kerrup plant in FY2024.")
    answer = compose_offline(sentence_state("Did Osprey book an impairment in FY2024?", *pages))
    assert answer.startswith("Yes. The impairment of A$385.0 million before tax") and "[2]" in answer


def test_a_yes_no_on_a_mention_is_answered_with_the_deed_before_its_costs() -> None:
    pages = ("Acquisition-related costs of ¥186 million are included in selling, general and administrative "
             "expenses for the year.",
             "On October 1, 2024, the Company acquired 100% of the shares of Rettifiche Bellandi S.r.l.")
    answer = compose_offline(sentence_state("Did Osprey mention any mergers or acquisitions in the annual report? "
                                            "If there is no mention, return False.", *pages))
    assert answer.startswith("Yes. On October 1, 2024, the Company acquired 100% of the shares") and "[2]" in answer


def test_a_yes_no_about_a_named_year_is_answered_by_what_that_year_says() -> None:
    report = ("All eleven of our sites kept their food safety certifications during FY2023. "
              "We had no product recalls in FY2023.")
    news = Block(n=2, kind="news", header="[2] news 2024-06-25", text=(
        "Osprey Engineering estimated that the direct cost of its recall of Hartfield valve products would be "
        "between €6m and €8m, covering write-offs and logistics."), source_id="n1", company="Osprey Engineering",
        published_at="2024-06-25")
    state = sentence_state("Did Osprey have to recall any products in FY2023?", report)
    state["blocks"].append(news)
    state["fiscal_years"] = [2023]
    # a short sentence that denies it for the year asked, before a later year's recall with its cost
    assert compose_offline(state).startswith("No. We had no product recalls in FY2023 [1]")
    state["question"], state["fiscal_years"] = "Did Osprey have to recall any products in FY2024?", [2024]
    assert compose_offline(state).startswith("Yes. Osprey Engineering estimated that the direct cost of its recall")


def test_a_yes_no_answered_from_the_news_is_not_followed_by_the_same_news_again() -> None:
    news = Block(n=1, kind="news", header="[1] news 2025-09-10", source_id="n1", company="Osprey Engineering",
                 published_at="2025-09-10", text=(
                     "Osprey Engineering said its new pump assembly line near Linton started production in July, "
                     "on schedule and within budget."))
    older = Block(n=2, kind="news", header="[2] news 2024-03-21", source_id="n2", company="Osprey Engineering",
                  published_at="2024-03-21", text="Osprey Engineering guided to capital expenditure for a new pump "
                                                  "assembly line near Linton of €70m to €75m.")
    state = {"question": "Did Osprey's new pump assembly line near Linton start production on time?",
             "companies": ["Osprey Engineering"], "blocks": [news, older]}
    answer = compose_offline(state)
    # 'on time' is said 'on schedule'; the answer quotes the item once, without a news list after it
    assert answer.startswith("Yes. Osprey Engineering said its new pump assembly line near Linton started production")
    assert answer.count("started production") == 1 and "2024-03-21" not in answer


def test_a_judgement_on_two_named_years_computes_each_from_one_consistent_row_and_states_both() -> None:
    """'judging by its capital expenditure relative to revenue in FY2024 and FY2023': the metric for each year,
    read from a row that gives both years (not a guidance table's 'FY2024 actual', defined otherwise, beside the
    cash flow statement's FY2023), and the answer states both, the latest first."""
    from app.calc_tools import CalcResult, Figure
    from app.metric_plans import metric_plans
    from app.models.providers.offline.composer.analyst import Analyst

    question = ("Is Osprey a capital-intensive business, judging by its capital expenditure relative to revenue in "
                "FY2024 and FY2023?")
    co = "Osprey Engineering"

    def fig(label: str, value: float, year: int, chunk: str) -> Figure:
        return Figure(label=label, value=value, unit="$m", company=co, fiscal_year=year, source_id=chunk,
                      chunk_id=chunk, period=f"FY{year}")

    figures = [fig("Capital expenditure", 647.0, 2024, "guidance"),  # FY2025 guidance beside FY2024 actual
               fig("Revenue", 3027.3, 2024, "income"), fig("Revenue", 3185.5, 2023, "income"),
               fig("Capital expenditure", 675.6, 2024, "record"), fig("Capital expenditure", 764.8, 2023, "record")]
    plans = metric_plans(question, figures)
    capex = [p for p in plans or [] if p.args["name"] == "capex as a share of revenue"]
    assert [p.args["year"] for p in capex] == [2023, 2024]
    assert [p.sources["capex_" + str(p.args["year"])].chunk_id for p in capex] == ["record", "record"]

    results = [CalcResult(tool="metric", inputs={}, result=round(100 * c / r, 2), unit="%", expression="",
                          sources={f"capex_{y}": fig("Capital expenditure", c, y, "record"),
                                   f"revenue_{y}": fig("Revenue", r, y, "income")},
                          formula="capex as a share of revenue = capex / revenue")
               for y, c, r in ((2023, 764.8, 3185.5), (2024, 675.6, 3027.3))]
    blocks = [block(1, "Capital expenditure 675.6 764.8"), block(2, "Revenue 3,027.3 3,185.5"),
              Block(n=3, kind="calculation", header="[3]", source_id="calc", text="capex as a share of revenue")]
    state = {"question": question, "companies": [co], "blocks": blocks,
             "calculation": type("C", (), {"results": results})()}
    said = Analyst(state, question).judged_by_calculation(convention_for(question))
    assert said[0].startswith("Yes. Osprey Engineering's capex as a share of revenue was 22.32% in FY2024 and "
                              "24.01% in FY2023"), said


def test_does_it_have_a_thing_that_only_a_statement_line_shows_is_yes_with_the_line() -> None:
    """No sentence says Osprey has a defined benefit pension scheme, but its statement of comprehensive income has
    a line for one: the answer is Yes with that line as the report has it. A line with nothing in the year's
    column is no such thing, and a question that asks something else is not answered from a line."""
    sheet = ("Consolidated statement of comprehensive income\n2024\n£m 2023\n£m Profit for the period\n28.4 42.9\n"
             "Remeasurement of defined benefit pension scheme\n(3.8) 5.2\nCash flow hedges\n2.6 (4.1)\n")
    said = answer_on("Does Osprey have a defined benefit pension scheme?", sheet)
    assert said.startswith("Yes. Osprey Engineering's report has a line for it: “Remeasurement of defined benefit "
                           "pension scheme (3.8) 5.2” [1]"), said
    nil = sheet.replace("Remeasurement of defined benefit pension scheme\n(3.8) 5.2",
                        "Remeasurement of defined benefit pension scheme\n— 5.2")
    assert not answer_on("Does Osprey have a defined benefit pension scheme?", nil).startswith("Yes")
    assert not answer_on("Is Osprey's defined benefit pension scheme in surplus?", sheet).startswith("Yes")


def answer_on(question: str, text: str) -> str:
    return compose_offline({"question": question, "companies": ["Osprey Engineering"], "fiscal_years": [],
                            "blocks": [block(1, text)]})


def test_a_growth_judgement_states_the_reports_own_growth_figure_beside_the_computed_one() -> None:
    from app.calc_tools import CalcResult, Figure
    from app.facts.query import stated_change
    from app.models.providers.offline.composer.analyst import Analyst

    question = "Are Osprey's FY2024 financials that of a high growth company?"
    new = Figure(label="Sales to customers", value=94943.0, unit="$m", company="Osprey Engineering",
                 fiscal_year=2024, source_id="os-1", chunk_id="os-1")
    old = new.model_copy(update={"value": 93775.0, "fiscal_year": 2023})
    result = CalcResult(tool="metric", inputs={"revenue_2023": 93775.0, "revenue_2024": 94943.0},
                        result=1.2455345, unit="%", expression="((94943 - 93775) / 93775) * 100",
                        sources={"revenue_2023": old, "revenue_2024": new},
                        formula="year-over-year revenue growth = change in revenue / prior revenue")
    income = block(1, "Sales to customers 94,943 93,775")
    release = block(3, "Q4 Full Year\n($ in Millions, except EPS) 2024 2023 % Change 2024 2023 % Change\n"
                       "Reported Sales $23,706 $24,804 (4.4)% $94,943 $93,775 1.3%\n"
                       "Net Earnings $3,520 $4,736 (25.7)% $17,941 $20,878 (14.1)%")
    calc = Block(n=2, kind="calculation", header="[2]", source_id="calc", text="growth")

    def judged(*reports: Block) -> list[str]:
        state = {"question": question, "companies": ["Osprey Engineering"], "blocks": [*reports, calc],
                 "calculation": type("C", (), {"results": [result]})()}
        return Analyst(state, question).judged_by_calculation(convention_for(question))

    said = judged(income, release)
    assert said[0].startswith("No. Osprey Engineering's year-over-year revenue growth was 1.3% in FY2024 as its "
                              "report states (Reported Sales); 1.25% computed from its statements [3][2]"), said
    # a sentence that states the company's growth counts too; a segment's does not
    prose = block(4, "In 2024, worldwide sales increased 1.3% to $94.9 billion as compared to an increase of 13.6% "
                     "in 2023.")
    assert stated_change("revenue", 2024, [prose]).figure.value == 1.3
    bullet = block(6, "• 2024 Full-Year reported sales growth of 1.3% to $94.9 Billion primarily driven by volume.")
    assert stated_change("revenue", 2024, [bullet]).figure.value == 1.3
    assert stated_change("revenue", 2023, [bullet]) is None  # another year's
    segment = block(5, "Consumer Health segment sales increased 0.5% in 2024.")
    assert stated_change("revenue", 2024, [segment]) is None
    # without either, or where the stated figure disagrees with the computation, the computed one alone
    assert judged(income)[0].startswith("No. Osprey Engineering's year-over-year revenue growth was 1.25% in FY2024")
    far = block(3, release.text.replace("1.3%", "4.3%"))
    assert "as its report states" not in judged(income, far)[0]


def test_a_growth_judgement_is_not_decided_by_a_product_lines_growth() -> None:
    from dataclasses import replace

    from app.facts.query import facts_for, names_a_part, read_query

    product = block(1, "We achieved record Osprey Pump Cloud revenue of $2.03 billion in fiscal 2024, which represents "
                       "24% year-over-year growth.")
    whole = block(2, "Total revenue growth was 4% in fiscal 2024.")
    query = replace(read_query("What was the revenue growth?", ["Osprey Engineering"], [2024]), kind="percent")
    facts = facts_for(query, [product, whole], ["Osprey Engineering"])
    parts = {f.figure.value: names_a_part(f, query) for f in facts if f.figure.unit == "%"}
    assert parts.get(24.0) is True and parts.get(4.0) is False, parts


def test_a_strong_balance_sheet_is_judged_as_conservative_financing_whichever_way_it_is_asked() -> None:
    from app.text.question_kinds import read_ask

    for question in ("Is Ostmark's balance sheet strong?", "Does Ostmark have a strong balance sheet?",
                     "Is Ostmark's balance sheet solid at the end of 2024?"):
        assert read_ask(question).kind == "judgement", question
        convention = convention_for(question)
        assert convention is not None and convention.topic == "conservatively financed", question
