"""Facts stated in prose that an analyst asks in words of their own: an amount spent on a thing and dated by its
month ('We purchased $50 million in bitcoin in October 2020'), a whole and its parts after a colon, a count held
'as of' a day early in the next year, a number that is part of a name ('the S&P 500 Index'), and questions whose
closing words are scaffold ('How did … move', 'What happened to …', 'do its warehouses contain').

Every company, page and figure here is made up (Quillon, a payments firm; Brantmoor, a warehouse club).
"""

from __future__ import annotations

from app.facts.prose import dated_figures, figures_located, whole_sentences
from app.models.providers.offline.composer import compose_offline
from app.text.measures import measure_asked
from app.text.question_kinds import read_ask
from app.turns import Block


def _compose(company: str, year: int, text: str, question: str) -> str:
    block = Block(n=1, kind="report", header=f"[1] {company} FY{year} p.71", text=text,
                  source_id=f"{company.upper()}_{year}_10K:p71", chunk_id=f"{company.upper()}_{year}_10K:p71::a::0",
                  company=company, fiscal_year=year, page=71)
    return compose_offline({"question": question, "companies": [company], "fiscal_years": [year],
                            "blocks": [block]})


BOUGHT = ("These notes can be converted prior to maturity if certain conditions are met. We purchased $40 million in "
          "gold in November 2024 and another $120 million in March 2025, as we believe it diversifies our reserves.")


def test_an_amount_spent_on_a_thing_takes_the_year_of_the_month_after_it() -> None:
    sentence = whole_sentences(BOUGHT)[-1]
    years = {f.value: year for f, year, _ in dated_figures(sentence, 2024)}
    assert years == {40.0: 2024, 120.0: 2025}  # (a February or March is no retailer's year end without its day)


def test_spending_on_a_thing_is_answered_by_the_sentence_that_says_it_was_bought() -> None:
    question = "How much did Quillon spend buying gold for its own balance sheet in November 2024?"
    assert measure_asked(question, ["Quillon"]).phrase == "gold"
    answer = _compose("Quillon", 2024, BOUGHT, question)
    assert answer.startswith("Quillon's spending on gold was $40m in FY2024 [1].")
    assert "$120m" not in answer.split("The report says")[0]


FLOOR = ("At the end of 2024, our warehouses contained approximately 96.4 million square feet of operating floor "
         "space: 61.0 million in the U.S.; 12.3 million in Canada; and 23.1 million in Other International.")


def test_a_whole_before_its_parts_after_a_colon_answers_how_much_in_all() -> None:
    question = "How much operating floor space do Brantmoor's warehouses contain?"
    assert measure_asked(question, ["Brantmoor"]).phrase == "operating floor space"
    answer = _compose("Brantmoor", 2024, FLOOR, question)
    # (an area with its unit, as the sentence writes it)
    assert answer.startswith("Brantmoor's operating floor space was approximately 96.4 million square feet in "
                             "FY2024 [1].")


def test_a_count_as_of_a_day_early_in_the_next_year_is_the_reports_year() -> None:
    text = ("Holders\nAs of\nJanuary 27, 2025 , there were approximately 412 stockholders of record of our common "
            "stock, although there are far more beneficial owners.")
    sentence = next(s for s in whole_sentences(text) if "412" in s)
    assert sentence.startswith("As of January 27, 2025")  # the line 'As of' goes on into the next
    assert [(f.value, year) for f, year, _ in dated_figures(sentence, 2024)] == [(412.0, 2024)]
    cut = "January 27, 2025 , there were approximately 412 stockholders of record of our common stock."
    assert [(f.value, year) for f, year, _ in dated_figures(cut, 2024)] == [(412.0, 2024)]
    answer = _compose("Quillon", 2024, text, "Roughly how many stockholders of record did Quillon have in fiscal 2024?")
    assert "approximately 412 in FY2024 [1]" in answer


def test_a_number_in_an_index_name_is_no_figure() -> None:
    values = [f.value for f in figures_located("the stocks represented in the S&P 500 Index and the FTSE 100 Index "
                                               "and our 3,000 employees")]
    assert values == [3000.0]


def test_closing_verbs_and_happened_to_are_no_words_of_the_measure() -> None:
    moved = measure_asked("How did operating income in Quillon's Consumer business segment move from 2023 to 2024?",
                          ["Quillon"])
    assert (moved.phrase, moved.segment) == ("operating income", "Consumer")
    happened = "What happened to Quillon's total customer deposits between year-end 2023 and year-end 2024?"
    assert measure_asked(happened, ["Quillon"]).phrase == "total customer deposits"
    assert read_ask(happened).kind == "change"
    got = "What is the amount of the cash proceeds that Quillon realised from the separation of Larkfield?"
    assert measure_asked(got, ["Quillon"]).phrase == "cash proceeds"  # (who got them, and from what, aside)


SPLIT_OFF = ("These matters are further discussed in Note 16. In 2024, Quillon also completed the split-off of its "
             "Merchant Lending business resulting in a pre-tax gain of $1.9 billion and committed to a plan to exit "
             "card issuing by the end of 2027 resulting in a 2024 pre-tax charge of $0.4 billion.")


def test_a_gain_on_a_named_business_split_off_is_the_gain_a_later_plan_does_not_make_a_forecast() -> None:
    question = "What pre-tax gain did Quillon record in fiscal 2024 on the split-off of its Merchant Lending business?"
    asked = measure_asked(question, ["Quillon"])
    assert (asked.phrase, asked.segment) == ("pre-tax gain", None)
    assert _compose("Quillon", 2024, SPLIT_OFF, question).startswith("Quillon's pre-tax gain was $1.9bn in FY2024 [1].")


def test_a_count_asked_in_the_passive_names_what_it_was_done_by() -> None:
    text = "Approximately 95% are employed in our stores and approximately 9,000 employees are represented by unions."
    question = "Roughly how many of Quillon's employees were represented by unions at the end of fiscal 2024?"
    assert _compose("Quillon", 2024, text, question).startswith(
        "Quillon's number of employees represented by unions was approximately 9,000 in FY2024 [1].")


def test_a_count_asked_in_the_passive_of_a_filing_the_question_names() -> None:
    text = ("Following completion of the Larkfield exchange offer, the Company has reduced its outstanding share count "
            "by the approximately 88 million shares of common stock accepted in the exchange offer.")
    question = ("How many Quillon shares were accepted in the Larkfield exchange offer, according to Quillon's August "
                "30, 2024 Form 8-K announcing updated 2024 guidance after the Larkfield separation?")
    assert read_ask(question).kind == "figure"  # (the guidance is what the filing announces, not what is asked)
    assert measure_asked(question, ["Quillon"]).phrase == "shares accepted Larkfield exchange offer"
    answer = _compose("Quillon", 2024, text, question)
    assert answer.startswith("Quillon's number of shares accepted in the Larkfield exchange offer was approximately "
                             "88m in FY2024 [1].")


FACILITY = ("Unamortized Discount and Premium (311)\nTotal Long-Term Debt $ 21,406 We maintained a committed "
            "syndicated bank credit facility of $2.5 billion as of December 31, 2024 and 2023, all of which was "
            "undrawn as of the "
            "respective dates. The facility has a maturity date of October 15, 2026.")


def test_an_undrawn_facility_answers_no_to_whether_money_was_drawn_on_it() -> None:
    question = ("Had Quillon drawn any money on its $2.5 billion committed syndicated bank credit facility as of the "
                "end of fiscal 2024?")
    answer = _compose("Quillon", 2024, FACILITY, question)
    # (not the table's last row the page ran into it)
    assert answer.startswith("No. We maintained a committed syndicated bank credit facility of $2.5 billion")


def test_rates_listed_for_the_three_and_six_months_are_each_their_own_parts() -> None:
    from app.facts.prose import listed_part

    sentence = ("Our effective income tax rate was 12.6% and 20.4% for the three and six months ended June 30, 2024, "
                "respectively, compared to 24.9% and 23.8% for the three and six months ended June 30, 2023, "
                "respectively.")
    assert [(f.value, year) for f, year, _ in dated_figures(sentence, 2024)] == [
        (12.6, 2024), (20.4, 2024), (24.9, 2023), (23.8, 2023)]
    assert [listed_part(sentence, v) for v in (12.6, 20.4, 24.9, 23.8)] == ["Q", "H", "Q", "H"]
    block = Block(n=1, kind="report", header="[1] Quillon FY2024 p.33", text=sentence,
                  source_id="QUILLON_2024Q2_10Q:p33", chunk_id="QUILLON_2024Q2_10Q:p33::a::0", company="Quillon",
                  fiscal_year=2024, page=33)
    answer = compose_offline({"question": "What was Quillon's effective income tax rate for the second quarter of "
                                          "2024 (three months ended June 30, 2024)?",
                              "companies": ["Quillon"], "fiscal_years": [2024], "blocks": [block]})
    assert answer.startswith("Quillon's effective income tax rate was 12.6% in Q2 FY2024 [1].")


def test_a_tax_provision_shown_as_a_deduction_is_a_charge_of_its_size() -> None:
    from app.calc_tools import Figure
    from app.metrics import _as_charge

    shown = Figure(label="Provision for income taxes", value=-39.1, unit="$m", company="Quillon", fiscal_year=2024,
                    source_id="QUILLON_2024_10K:p60")
    benefit = Figure(label="Benefit for income taxes", value=-5.0, unit="$m", company="Quillon", fiscal_year=2024,
                    source_id="QUILLON_2024_10K:p60")
    assert _as_charge("income_tax", shown) == 39.1
    assert _as_charge("income_tax", benefit) == -5.0
    assert _as_charge("pretax_income", shown) == -39.1


def test_what_a_company_says_drove_a_change_is_an_explanation() -> None:
    question = "What does Quillon say drove the decrease in its income tax expense in fiscal 2024?"
    assert read_ask(question).kind == "explain"


def test_a_long_sentence_after_a_closing_quote_is_a_sentence_of_its_own() -> None:
    text = ("For the comparison of 2023 to 2022, refer to Part II, Item 7 of our Annual Report on Form 10-K under the "
            "subheading “Liquidity and Capital\nResources.”\nOff-balance Sheet Arrangements At December 31, 2024 "
            "and 2023, Quillon had no significant relationships with unconsolidated entities or financial parties, "
            "often referred to as “structured finance” or “special purpose” entities, established for the purpose "
            "of facilitating off-balance sheet arrangements or other contractually narrow or limited purposes, that "
            "have or are reasonably likely to have a material current or future effect on our financial condition, "
            "changes in financial condition, revenues or expenses, results of operations, liquidity, capital "
            "expenditures, or capital resources, each as those terms are used in the rules of the Securities and "
            "Exchange Commission.")
    sentences = whole_sentences(text)
    assert sentences[-1].startswith("Off-balance Sheet Arrangements At December 31, 2024")  # (over 600 characters)
    question = "Did Quillon have any significant off-balance sheet arrangements at the end of fiscal 2024?"
    assert _compose("Quillon", 2024, text, question).startswith("No. Off-balance Sheet Arrangements At December 31")


def test_the_part_of_a_whole_a_subsidiary_holds_at_the_quarters_end() -> None:
    question = ("Of the cash and cash equivalents Quillon held at June 30, 2024 (end of Q2 2024), how much sat with "
                "Quillon Asia?")
    asked = measure_asked(question, ["Quillon"])
    assert (asked.phrase, asked.segment) == ("cash and cash equivalents", "Quillon Asia")
    text = ("As of June 30, 2024, we had cash and cash equivalents of $2.9 billion, of which Quillon Asia held $312 "
            "million, and we had $4.1 billion in principal amount of indebtedness.")
    block = Block(n=1, kind="report", header="[1] Quillon FY2024 p.37", text=text, source_id="QUILLON_2024Q2_10Q:p37",
                  chunk_id="QUILLON_2024Q2_10Q:p37::a::0", company="Quillon", fiscal_year=2024, page=37)
    answer = compose_offline({"question": question, "companies": ["Quillon"], "fiscal_years": [2024],
                              "blocks": [block]})
    assert answer.startswith("Quillon's Quillon Asia cash and cash equivalents were $312m in Q2 FY2024 [1].")


def test_an_agreement_to_buy_a_business_is_said_as_entering_into_one_to_acquire_it() -> None:
    text = ("On January 16, 2025, the Company announced it had entered into an agreement to acquire a payments "
            "software company based in Lisbon, Portugal, which generates annual sales of approximately $40 million.")
    question = ("Did Quillon sign an agreement to buy another business shortly after its fiscal 2025 second quarter "
                "ended (December 31, 2024)?")
    answer = _compose("Quillon", 2025, text, question)
    assert answer.startswith("Yes. On January 16, 2025, the Company announced it had entered into an agreement to "
                             "acquire")


def test_office_space_leased_in_a_city_is_square_feet_not_money() -> None:
    text = ("We also lease approximately 520,000 square feet of office space in Tacoma, WA for our Payments segment’s "
            "headquarters, which includes development studio space, and approximately 61,000 square feet of office "
            "space in Dublin, Ireland for our Lending segment’s headquarter offices.")
    question = ("How much office space did Quillon lease in Tacoma, Washington for its Payments segment's headquarters, "
                "per its fiscal 2024 annual report?")
    asked = measure_asked(question, ["Quillon"])
    assert "Tacoma" in asked.phrase and "Washington" not in asked.phrase and "per" not in asked.phrase.split()
    assert "approximately 520,000 square feet in FY2024 [1]" in _compose("Quillon", 2024, text, question)


def test_figures_a_report_says_it_has_since_restated_are_not_read() -> None:
    text = ("As previously reported, prepaid subscribers at December 31, 2024 were 512,000, total wireless subscribers "
            "were 2,904,000 and 2024 blended ARPU was $51.20.")
    from app.models.providers.offline.composer.analyst import Analyst

    question = "How many prepaid wireless subscribers did Quillon have at the end of 2024?"
    block = Block(n=1, kind="report", header="[1] Quillon FY2025 p.13", text=text, source_id="QUILLON_2025_AR:p13",
                  chunk_id="QUILLON_2025_AR:p13::a::0", company="Quillon", fiscal_year=2025, page=13)
    state = {"blocks": [block], "companies": ["Quillon"], "fiscal_years": [2024]}
    assert Analyst(state, question).facts() == []  # (2,904,000 had been read as the prepaid subscribers)
