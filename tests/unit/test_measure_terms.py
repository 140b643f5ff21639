"""What an answer to a figure question must name (app/text/questions.measure_terms and states_measure): a line
item's statement names stand for it, but what the question adds to the line item must be stated too, so the
group's 'Revenue' does not answer 'satellite TV revenue' and 'Net sales' does not answer an Aerospace segment's
net sales. Companies and figures are invented."""

from __future__ import annotations

import pytest

from app.text.questions import answers_question, measure_terms, states_measure

CO = ["Tamsin Rail"]


@pytest.mark.parametrize(("question", "sentence"), [
    ("How much revenue did Tamsin Rail's satellite TV business generate in 2024?", "Revenue was C$4,899.6 million."),
    ("What were Tamsin Rail's Aerospace segment net sales for 2024?", "Net sales 230.0 218.4"),
    ("What was Tamsin Rail's postpaid ARPU in 2024?", "Blended ARPU (monthly) $ 55.55 $ 55.61."),
])
def test_a_line_items_name_does_not_state_what_the_question_adds_to_it(question: str, sentence: str) -> None:
    assert not answers_question(question, sentence, CO)


@pytest.mark.parametrize(("question", "sentence"), [
    ("What was Tamsin Rail's revenue growth from FY2021 to FY2022?", "Net sales 35,355 34,229"),
    ("How much did Tamsin Rail generate in cash flow from operating activities in FY2018?",
     "Net cash provided by operating activities 6,439 6,240"),
    ("What was Tamsin Rail's net income attributable to shareholders in FY2023?",
     "Net income attributable to Tamsin Rail plc 1,048 805"),
    ("What was the total revenue of Tamsin Rail in FY2022?", "Net revenue 86,392 79,474"),
    ("What was Tamsin Rail's Wireless segment revenue in 2024?", "Wireless revenue grew to C$2,761.0 million."),
])
def test_a_line_items_statement_names_still_state_it(question: str, sentence: str) -> None:
    assert answers_question(question, sentence, CO)


def test_the_segment_asked_joins_every_statement_name_of_the_line_item() -> None:
    terms = measure_terms("What were Tamsin Rail's Aerospace segment net sales for 2024?", CO)
    revenue_names = [t for t in terms if "revenu" in t]
    assert revenue_names and all("aerospac" in t for t in revenue_names)
    assert states_measure(terms, "Aerospace net sales were 12.4 million.")


def test_the_measure_without_the_questions_scaffold_is_one_way_to_state_it() -> None:
    """'how much EBIT did its Service segment generate' is stated by the Service segment's EBIT, whatever
    'generate' does; 'how many machine tools did it deliver in FY3/2025' by machine tools delivered."""
    ebit = measure_terms("How much EBIT did Tamsin Rail's Service segment generate in 2024?", CO)
    assert {"ebit", "servic"} in ebit
    assert states_measure(ebit, "Service EBIT increased to €91.7 million.")
    tools = measure_terms("How many machine tools did Tamsin Rail deliver in FY3/2025?", CO)
    assert states_measure(tools, "Machine tools delivered (units) 4,352 4,186")
    assert not states_measure(tools, "Orders received (Machine Tools) 41,280 40,150")


# --- counts, forms and exhibits -------------------------------------------------------------------------------


@pytest.mark.parametrize("question, phrase, noun", [
    ("According to the annual report, what is the Total number of employees for Acme (within the last period)?",
     "employees", "employees"),
    ("What is the Number of patents for Acme?", "patents", "patents"),
    ("What was Acme's average number of employees in 2024?", "average number of employees", "employees"),
    # the verb that only says the company has them is no part of what is counted: 'operates 1,355 retail stores'
    ("How many stores does Acme Beauty operate?", "stores", "stores"),
    ("How many gas stations did Acme operate at the end of fiscal 2021?", "gas stations", "gas stations"),
    # a thing counted in five words
    ("How many significant manufacturing and support facilities did Acme operate at the end of fiscal 2023 (June 30, "
     "2023)?", "significant manufacturing and support facilities", "significant manufacturing and support facilities"),
    # a part of them asked: the company's name and the 'of' out of what is counted
    ("Roughly how many of Acme's employees were represented by unions at the end of fiscal 2021?",
     "employees represented unions", "employees"),
])
def test_a_number_of_things_is_a_count_of_them(question: str, phrase: str, noun: str) -> None:
    from app.text.measures import measure_asked

    asked = measure_asked(question, ["Acme", "Acme Beauty"])
    assert (asked.phrase, asked.count_noun) == (phrase, noun)


def test_a_count_is_searched_and_admitted_as_reports_word_it() -> None:
    from app.evidence import Evidence
    from app.models.providers.offline import OfflineGrader
    from app.text.measures import count_wordings, states_count

    question = "What is the total number of employees for Acme?"
    assert "people" in count_wordings(question, ["Acme"]) and count_wordings("What was Acme's revenue?") == ""
    said = "Human capital. We employed approximately 315,000 people worldwide as of December 31, 2024."
    assert states_count(question, said, ["Acme"])
    assert not states_count(question, "Revenue was 315,000 dollars.", ["Acme"])
    doc = Evidence(chunk_id="a-12", source_id="ACME_2024_10K:p12", company="Acme", fiscal_year=2024, page=12,
                   score=0.01, text="In addition, we are subject to environmental obligations. " + said)
    assert OfflineGrader().grade(question, doc, ["Acme"])


def test_the_terms_of_a_plan_filed_as_an_exhibit_are_no_evidence_unless_the_plan_is_asked_about() -> None:
    from app.evidence import Evidence
    from app.models.providers.offline import OfflineGrader

    plan = Evidence(chunk_id="a-406", source_id="ACME_2024_10K:p406", company="Acme", fiscal_year=2024, page=406,
                    score=0.03, text="(iii) Notwithstanding the rule in paragraph (3) above, an employee shall be "
                                     "treated as a Specified Employee by the Plan Administrator.")
    grader = OfflineGrader()
    assert not grader.grade("How many employees does Acme have?", plan, ["Acme"])
    assert grader.grade("Who is a Specified Employee under Acme's deferral plan?", plan, ["Acme"])


def test_a_measure_capitalised_as_a_form_writes_it_names_no_one() -> None:
    from app.text.questions import is_measure_word

    assert is_measure_word("Total") and is_measure_word("Cash") and is_measure_word("Number")
    assert not is_measure_word("Foodservice") and not is_measure_word("China")


def test_a_sentence_that_spells_a_measure_out_states_its_abbreviation() -> None:
    from app.text.terms import abbreviated, abbreviation_heads

    assert abbreviated("Statutory net profit after tax was A$381.3 million.") == "NPAT PAT"
    assert abbreviated("Revenue rose 4%.") == ""
    assert abbreviation_heads({"npat", "statutori"}) == {"profit"}


def test_analysts_jargon_for_a_measure_is_read_as_the_measures_name() -> None:
    from app.text.measures import asked_sentence, plain_measures
    from app.text.questions import asking_sentences, core_question
    from app.text.terms import topic_terms

    question = "Which region had the worst top-line performance for Ternline during FY2024?"
    assert plain_measures("How did the bottom line move?") == "How did the net income move?"
    for read in (asked_sentence, core_question, asking_sentences):
        assert "revenue performance" in read(question) and "top" not in read(question)
    # 'during' is no topic: a page on regions' revenue holds two of the three terms left
    assert topic_terms(core_question(question), ["Ternline"]) == {"region", "worst", "revenu", "perform"}
    assert plain_measures("The top lines of the table") == "The top lines of the table"  # no measure there


def test_a_part_named_right_after_the_companys_short_name_is_the_segment_asked() -> None:
    from app.text.measures import measure_asked

    company = ["Tamarack Ridge Communications"]
    asked = measure_asked("How much revenue did Tamarack Media bring in during 2024?", company)
    assert (asked.segment, asked.phrase) == ("Media", "revenue")
    for whole in ("What was Tamarack Ridge's revenue in 2024?", "What was Tamarack's revenue in 2024?",
                  "What did Tamarack in March 2025 report as revenue?"):
        assert measure_asked(whole, company).segment is None
    assert measure_asked("What was Pellbury Retail Group's revenue?", ["Pellbury Retail"]).segment is None


def test_a_part_named_as_the_subject_of_a_share_is_the_segment_asked() -> None:
    """'What share of net sales did Rigid Packaging account for': the part named is the segment whose share is
    asked, not a word of the measure; so is the part revenue 'came from'. The company itself is no part."""
    from app.text.measures import measure_asked

    company = ["Corvane Packaging"]
    asked = measure_asked("What share of Corvane's consolidated net sales did Rigid Containers account for in "
                          "fiscal 2024?", company)
    assert (asked.segment, asked.phrase) == ("Rigid Containers", "share of consolidated net sales")
    asked = measure_asked("What percentage of Corvane Packaging's revenue came from Specialty Films in 2024?", company)
    assert (asked.segment, asked.phrase) == ("Specialty Films", "percentage of revenue")
    assert measure_asked("How much of the group's revenue did Corvane Packaging generate in 2024?",
                         company).segment is None
    assert measure_asked("What percentage of revenue came from international streaming?", company).segment is None
    # a category in small letters, before the period asked
    asked = measure_asked("What share of Corvane's net sales came from skincare in the fourth quarter of fiscal 2024?",
                          company)
    assert (asked.segment, asked.phrase) == ("skincare", "share of net sales")


def test_a_thing_an_earlier_turn_named_compared_with_a_figure_is_no_part_of_the_measure() -> None:
    from app.text.measures import measure_asked

    compared = measure_asked("How does that order compare with Helio's FY2024 Battery Storage revenue?",
                             ["Helio Renewables"])
    assert compared.phrase == "revenue" and compared.segment == "Battery Storage"
    assert measure_asked("What was the value of that order?", ["Helio Renewables"]).phrase == "order"


def test_an_expense_named_by_the_things_joined_is_stated_by_its_line_without_the_word_expenses():
    asked = measure_terms("By how much did Quillfeather's research and development expenses grow in FY2024?",
                          ["Quillfeather"])
    assert states_measure(asked, "Research and development 650,788 472,321")
    sga = measure_terms("What were Quillfeather's selling, general and administrative costs in FY2024?", ["Quillfeather"])
    assert states_measure(sga, "Selling, general and administrative 1,234 1,101")
    # one thing named is no joined name: 'Operating' alone does not state operating expenses
    assert not states_measure(measure_terms("What were Quillfeather's operating expenses in FY2024?", ["Quillfeather"]),
                              "Operating income 5,210 4,870")


def test_a_hedge_opening_the_question_names_no_segment() -> None:
    from app.text.measures import measure_asked

    asked = measure_asked("Approximately how many people did Quillon employ at the end of 2024?", ["Quillon"])
    assert (asked.segment, asked.count_noun) == (None, "people")


@pytest.mark.parametrize("question, phrase", [
    ("What was Acme's tangible book value per share at the end of Q1 2025?", "tangible book value per share"),
    ("What was the fair value of Acme's investments?", "fair value of investments"),
    ("What was Acme's order book at year end?", "order book"),
])
def test_two_words_that_name_one_measure_are_kept_though_each_alone_is_scaffold(question: str, phrase: str) -> None:
    """'book' (as in 'booked') and 'value' are a question's scaffold alone, and a measure's name together."""
    from app.text.measures import measure_asked

    assert measure_asked(question, ["Acme"]).phrase == phrase


@pytest.mark.parametrize("question", [
    "If Acme went bankrupt at the end of Q1 2025 and liquidated all of its assets to pay its shareholders, how much "
    "could each shareholder get?",
    "How much would each share of Acme be worth if the company were wound up?",
])
def test_a_measure_asked_by_what_it_means_is_the_one_analysts_read_for_it(question: str) -> None:
    """What shareholders would get per share in a liquidation is read from tangible book value per share: the
    measure is named so, and the search looks for it by that name."""
    from app.text.measures import measure_asked
    from nodes.retrieve import plan_queries

    assert measure_asked(question, ["Acme"]).phrase == "tangible book value per share"
    state = {"attempt": 0, "companies": ["Acme"], "question": question, "fiscal_years": [], "query_log": [],
             "unheld": {}}
    queries = plan_queries(state)["queries"]  # type: ignore[arg-type]
    assert any(q.startswith("tangible book value per share") for q in queries)
    assert measure_asked("How much did Acme pay each shareholder in dividends?", ["Acme"]).phrase != \
        "tangible book value per share"
    assert measure_asked("What is the liquidation preference per share of Acme's Series A preferred stock?",
                         ["Acme"]).phrase != "tangible book value per share"


def test_a_segment_named_in_four_capitalised_words_is_named_whole() -> None:
    """'its Las Vegas Strip Resorts segment': four capitalised words are one name; three words stay the limit
    for a name with a word in lower case."""
    from app.text.measures import measure_asked

    asked = measure_asked("What was the Adjusted Property EBITDAR of Acme's Las Vegas Strip Resorts segment in Q2 "
                          "2025?", ["Acme"])
    assert (asked.segment, asked.phrase) == ("Las Vegas Strip Resorts", "Adjusted Property EBITDAR")
    assert measure_asked("What was the revenue of its fast growing International Franchise segment?",
                         ["Acme"]).segment == "International Franchise"


def test_the_company_as_the_subject_of_the_question_is_no_measure_word() -> None:
    from app.text.measures import measure_asked

    asked = measure_asked("According to Larchmont's 10-Q, how much cash and cash equivalents does the company hold?",
                          ["Larchmont"])
    assert asked.phrase == "cash and cash equivalents"
    assert measure_asked("How much debt does the Group have?", ["Larchmont"]).phrase == "debt"


def test_the_statement_a_figure_is_asked_per_is_no_measure_word() -> None:
    from app.text.measures import measure_asked

    for question in ("How much did Larchmont spend on capital expenditures in 2023, per its cash flow statement?",
                     "What were Larchmont's capital expenditures in 2023 as per the cash flow statement?"):
        assert measure_asked(question, ["Larchmont"]).phrase == "capital expenditures", question
    assert measure_asked("What was Larchmont's earnings per share in 2023 per the income statement?",
                         ["Larchmont"]).phrase == "earnings per share"


def test_how_many_it_operates_is_answered_by_the_count_with_a_word_between() -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block

    text = ("Today, Acme Beauty operates 1,355 retail stores across 50 states and also distributes its products "
            "through its website.")
    block = Block(n=1, kind="report", header="[1] Acme Beauty FY2024", text=text, source_id="a1", chunk_id="a1::0",
                  company="Acme Beauty", fiscal_year=2024)
    answer = compose_offline({"question": "How many stores does Acme Beauty operate?", "blocks": [block],
                              "companies": ["Acme Beauty"], "fiscal_years": []})
    assert "1,355" in answer.split("[1]")[0], answer


def test_by_what_percentage_is_no_word_of_the_measure() -> None:
    from app.text.measures import measure_asked

    asked = measure_asked("By what percentage did Acme's consolidated net revenues change in 2024?", ["Acme"])
    assert asked.phrase == "consolidated net revenues"
    # a share asked keeps its words: 'what percentage of net sales'
    assert "percentage" in measure_asked("What percentage of Acme's net sales came from Europe in 2024?",
                                         ["Acme"]).phrase


def test_the_agreement_a_figure_is_set_under_and_how_large_are_no_measure_words() -> None:
    from app.text.measures import measure_asked

    asked = measure_asked("Under Jane Roe's March 2024 employment agreement with Ternline, how large is her cash "
                          "sign-on bonus, and what is her target annual bonus opportunity?", ["Ternline"])
    assert (asked.phrase, asked.segment) == ("cash sign-on bonus", None)
    assert measure_asked("How big was Ternline's order backlog in 2024?", ["Ternline"]).phrase == "order backlog"


def test_how_a_figure_is_split_is_asked_beside_it_and_its_sentence_states_both() -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.text.measures import first_part, second_part
    from app.turns import Block

    question = ("How many people (full-time equivalents) did Larchmont employ at the end of fiscal 2024, and how were "
                "they split between the U.S. and international operations?")
    assert first_part(question).endswith("at the end of fiscal 2024")
    assert second_part(question).startswith("how were they split")
    text = ("At December 31, 2024, the Company employed 93,516 people (full-time equivalents), with 37,412 employed in "
            "the United States and 56,104 employed internationally.")
    block = Block(n=1, kind="report", header="[1] Larchmont FY2024, p.4 [text]", source_id="LARCH_2024_10K:p4",
                  chunk_id="l-4", company="Larchmont", fiscal_year=2024, page=4, text=text)
    answer = compose_offline({"question": question, "companies": ["Larchmont"], "fiscal_years": [2024],
                              "blocks": [block]})
    assert answer.startswith("Larchmont's number of people employed was 93,516 in FY2024 [1]"), answer
    assert "37,412 employed in the United States and 56,104 employed internationally" in answer, answer


@pytest.mark.parametrize("verb, value", [("operate", "500"), ("franchise", "358")])
def test_two_counts_that_share_their_noun_are_told_apart_by_the_verb_asked(verb: str, value: str) -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block

    text = ("As part of our Aurelle business in our Europe and Asia segments, we operate 500 (all leased) and "
            "franchise 358 branded ice cream parlors in various countries around the world.")
    block = Block(n=1, kind="report", header="[1] Larchmont FY2024, p.15 [text]", source_id="LARCH_2024_10K:p15",
                  chunk_id="l-15", company="Larchmont", fiscal_year=2024, page=15, text=text)
    question = f"How many branded ice cream parlors does Larchmont {verb}?"
    answer = compose_offline({"question": question, "companies": ["Larchmont"], "fiscal_years": [2024],
                              "blocks": [block]})
    assert f"was {value} in FY2024 [1]" in answer.split(". The report says")[0], answer


def test_a_headcount_asked_without_how_many_is_searched_as_reports_word_it() -> None:
    from app.text.measures import count_wordings, measure_asked

    question = "What was Acme's approximate worldwide headcount at the close of fiscal 2023 (June 30, 2023)?"
    assert measure_asked(question, ["Acme"]).phrase == "headcount"
    assert "employees" in count_wordings(question, ["Acme"]).split()


def test_a_count_a_tables_row_states_is_not_put_after_a_sentences_other_count_by_the_verb_asked() -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block

    table = Block(n=1, kind="report", header="[1] Larchmont FY2024, p.12 [table]", source_id="LARCH_2024_AR:p12",
                  chunk_id="l-12", company="Larchmont", fiscal_year=2024, page=12,
                  text="Subscribers (000s) 2024 2023\nPostpaid wireless subscribers 3,412 3,296\n"
                       "Prepaid wireless subscribers 646 687\n")
    prose = Block(n=2, kind="report", header="[2] Larchmont FY2024, p.4 [text]", source_id="LARCH_2024_AR:p4",
                  chunk_id="l-4", company="Larchmont", fiscal_year=2024, page=4,
                  text="We added 116,000 postpaid wireless subscribers, the most in our history, and 29,000 internet "
                       "customers.")
    question = "How many prepaid wireless subscribers did Larchmont have at the end of 2024?"
    answer = compose_offline({"question": question, "companies": ["Larchmont"], "fiscal_years": [2024],
                              "blocks": [table, prose]})
    assert answer.startswith("Larchmont's number of prepaid wireless subscribers was 646 in FY2024 [1]"), answer
