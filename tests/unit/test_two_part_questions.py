"""Shapes of the sample corpus's example questions, on texts written for these tests: a half's figure from a
half-year column, a plan's revision from the table that sets it against the outcome, a successor named, a
year's dividend as the total (not its final part) with the date asked in a second part, and a difference
between two companies' rates."""

from __future__ import annotations

import re
from typing import Any

from app.calc_tools import Figure
from app.evidence import Evidence
from app.facts.query import choose, facts_for, read_query
from app.models.providers.offline.calculator import two_figures
from app.models.providers.offline.composer.analyst import Analyst, _names_other
from app.text.measures import first_part, measure_asked, second_part
from app.text.question_kinds import read_ask
from app.text.sentences import split_sentences
from app.turns import Block


def _block(n: int, text: str, kind: str = "report") -> Block:
    return Block(n=n, kind=kind, header=f"[{n}] Ternline FY2024", text=text, source_id=f"t{n}",
                 chunk_id=f"t{n}::0", company="Ternline", fiscal_year=2024)


def _answer(question: str, *blocks: Block) -> list[str]:
    state: dict[str, Any] = {"blocks": list(blocks), "companies": ["Ternline"], "fiscal_years": [2023, 2024]}
    return Analyst(state, question).sentences()


def test_a_half_is_read_from_its_column_and_chosen_for_a_half_question() -> None:
    text = ("| €m | H1 FY2024 | H2 FY2024 | FY2024 |\n|---|---|---|---|\n"
            "| Freight revenue | 210.4 | 260.1 | 470.5 |\n")
    doc = Evidence(chunk_id="t::0", source_id="t", text=text, company="Ternline", fiscal_year=2024)
    half = read_query("What was Ternline's H1 2024 freight revenue?", ["Ternline"], [2024])
    year = read_query("What was Ternline's FY2024 freight revenue?", ["Ternline"], [2024])
    assert [f.figure.value for f in choose(facts_for(half, [doc]), half)][:1] == [210.4]
    assert [f.figure.value for f in choose(facts_for(year, [doc]), year)][:1] == [470.5]


def test_a_plan_revision_is_told_by_the_sentence_that_revises_it_then_the_table() -> None:
    question = "How did Ternline change its FY2024 guidance, and what did it deliver?"
    assert read_ask(question).kind == "list"
    table = _block(1, "| Measure | Original FY2024 guidance | Revised guidance (May 2024) | FY2024 actual |\n"
                      "|---|---|---|---|\n| Revenue growth | 6% to 8% | 4% to 6% | 5.1% |\n")
    prose = _block(2, "Our results were within our revised guidance range. Ternline cut its FY2024 guidance in "
                      "May after the strike at its Hull depot.")
    answer = _answer(question, table, prose)
    assert answer[0] == "Ternline cut its FY2024 guidance in May after the strike at its Hull depot [2]."
    assert answer[1] == ("Revenue growth: Original FY2024 guidance 6% to 8%; Revised guidance (May 2024) 4% to 6%; "
                         "FY2024 actual 5.1% [1].")


def test_a_table_of_another_years_guidance_does_not_answer() -> None:
    table = _block(1, "| Measure | FY2025 guidance | FY2024 actual |\n|---|---|---|\n| Revenue growth | 4% | 5.1% |\n")
    answer = _answer("How did Ternline change its FY2023 guidance?", table)
    assert not any("Revenue growth:" in s for s in answer)


def test_who_replaced_someone_prefers_the_sentence_naming_another_person() -> None:
    question = "Who replaced Ann Pole as Ternline's CEO, and when?"
    assert _names_other("Bo Lind became chief executive, succeeding Ann Pole", question)
    assert not _names_other("Chief executive Ann Pole said trading was good", f"{question} Ternline")
    blocks = [_block(1, "Chief executive Ann Pole said the Hull depot would reopen in March."),
              _block(2, "Bo Lind became chief executive officer of Ternline on 1 March 2025, succeeding Ann Pole, "
                        "who retired.", kind="news")]
    assert _answer(question, *blocks)[0].startswith("Bo Lind became chief executive officer")


def test_a_two_part_question_names_its_measure_in_the_first_part() -> None:
    asked = "What is Ternline's FY2024 dividend, and when is the final paid?"
    assert first_part(asked) == "What is Ternline's FY2024 dividend"
    assert second_part(asked) == "when is the final paid?"
    assert measure_asked(asked, ["Ternline"]).phrase == "dividend"
    assert second_part("What was revenue and how much did it grow?") == ""


def test_the_years_dividend_is_the_total_and_the_payment_date_follows() -> None:
    text = ("The Board recommends a final dividend of 4.0p per share. With the interim dividend of 2.0p, the total "
            "dividend for FY2024 is 6.0p per share. The final dividend will be paid on 2 June 2025 to shareholders "
            "on the register on 9 May 2025.")
    answer = _answer("What is Ternline's FY2024 dividend, and when is the final paid?", _block(1, text))
    assert re.match(r"Ternline's dividend was 6(?:\.0)?p in FY2024", answer[0]), answer
    assert answer[-1] == ("The final dividend will be paid on 2 June 2025 to shareholders on the register on "
                          "9 May 2025 [1].")


def test_a_question_that_asks_when_first_is_answered_with_its_figure_then_its_date() -> None:
    asked = "When did Ternline complete the acquisition of Brook Optics, and how much was the purchase consideration?"
    assert first_part(asked) == "how much was the purchase consideration?"
    assert second_part(asked) == "When did Ternline complete the acquisition of Brook Optics"
    assert measure_asked(asked, ["Ternline"]).phrase == "purchase consideration"
    # 'When comparing …, what is …' still opens with a lead-in, not a date asked
    assert second_part("When comparing segments, what was Ternline's largest one?") == ""
    text = ("On March 4, 2024, Ternline completed its acquisition of Brook Optics, a maker of precision lenses. The "
            "total purchase consideration was $412 million in cash, net of cash acquired.")
    answer = _answer(asked, _block(1, text))
    assert "$412m" in answer[0], answer
    assert answer[-1] == ("On March 4, 2024, Ternline completed its acquisition of Brook Optics, a maker of precision "
                          "lenses [1]."), answer


def test_when_someone_took_up_a_role_and_the_pay_set_for_it() -> None:
    asked = ("When did Dana Whitlow become Ternline's President and CEO, and what annual base salary does her "
             "employment agreement provide?")
    assert read_ask(asked).kind == "figure"
    assert read_ask("What compensation plans does Ternline have?").kind == "list"
    assert measure_asked(asked, ["Ternline"]).phrase == "base salary"
    text = ("Dana K. Whitlow, former Chief Executive Officer of Brightwell Stores, Inc., has been appointed President "
            "and Chief Executive Officer of Ternline, effective September 1, 2024. Ms. Whitlow will receive a base "
            "salary of not less than $1,300,000 annually and will be entitled to participate in all bonus plans.")
    # the question names no year
    answer = Analyst({"blocks": [_block(1, text)], "companies": ["Ternline"], "fiscal_years": []}, asked).sentences()
    assert "$1,300,000" in answer[0], answer
    assert any("effective September 1, 2024" in s for s in answer[1:]), answer


def test_two_companies_difference_takes_one_figure_of_each() -> None:
    figures = [Figure(label="Revenue growth", value=8.8, unit="%", company="Ternline", fiscal_year=2024,
                      source_id="t"),
               Figure(label="Group revenue growth", value=8.8, unit="%", company="Ternline", fiscal_year=2024,
                      source_id="t"),
               Figure(label="Revenue growth", value=4.9, unit="%", company="Pellbury", fiscal_year=2024,
                      source_id="p")]
    pair = two_figures("by how much did ternline's revenue growth exceed pellbury's?", figures)
    assert pair is not None and [f.company for f in pair] == ["Ternline", "Pellbury"]
    # in two currencies there is no difference to take, and never one between two rows of one company
    money = [f.model_copy(update={"unit": u, "value": v}) for f, u, v in zip(figures, ["£m", "£m", "€m"],
                                                                            [812.0, 812.0, 640.0])]
    assert two_figures("by how much did ternline's revenue exceed pellbury's?", money) is None


def test_bold_run_in_headings_end_sentences() -> None:
    text = ("The board met six times in the year. **Audit and Risk Committee.** The committee met four times "
            "(FY2023: three). *Mitigation:* a second supplier of chilled trailers. It opened in May 2024. "
            "**Freight** revenue rose by a tenth.")
    assert split_sentences(text) == ["The board met six times in the year.", "Audit and Risk Committee.",
                                     "The committee met four times (FY2023: three).",
                                     "Mitigation: a second supplier of chilled trailers.", "It opened in May 2024.",
                                     "Freight** revenue rose by a tenth."]


def test_a_judged_change_reads_the_measures_polarity() -> None:
    """Leverage that fell did not deteriorate; a margin that rose improved."""
    block = _block(1, "Net leverage was 2.6x at the end of FY2024 (FY2023: 2.8x). The operating margin was 9.1% "
                      "(FY2023: 8.8%).")
    assert _answer("Did Ternline's net leverage deteriorate over FY2024?", block)[0].startswith("No.")
    assert _answer("Did Ternline's net leverage improve in FY2024?", block)[0].startswith("Yes.")
    assert _answer("Did Ternline's operating margin improve in FY2024?", block)[0].startswith("Yes.")
    assert _answer("Did Ternline's net leverage fall in FY2024?", block)[0].startswith("Yes.")


def test_a_count_stated_between_its_verb_and_noun_answers_how_many() -> None:
    block = _block(1, "At the end of FY2024 Ternline employed 4,215 people across 31 depots.")
    answer = _answer("How many people did Ternline employ at the end of FY2024?", block)
    assert answer and answer[0].startswith("Ternline's number of people employed was 4,215 in FY2024"), answer


def test_a_segment_named_without_the_word_segment_is_never_answered_with_the_groups_figure() -> None:
    """'Freight's revenue' or 'Ternline's Freight revenue': the group's 'Revenue' row is not the Freight segment's."""
    group = _block(1, "| £m | FY2024 | FY2023 |\n|---|---|---|\n| Revenue | 812.0 | 779.3 |\n")
    segment = _block(2, "**Freight** revenue grew 7.3% to £248.2m and operating profit rose to £22.3m.")
    for question in ("What was Ternline's Freight revenue in FY2024?", "What was Freight's revenue at Ternline in FY2024?"):
        answer = _answer(question, group, segment)
        assert answer[0].startswith("Ternline's Freight revenue was £248.2m in FY2024"), answer
        assert "812.0" not in " ".join(answer) and "**" not in " ".join(answer)
    assert _answer("What was Ternline's Freight revenue in FY2024?", group)[:1] != [
        "Ternline's Freight revenue was £812.0m in FY2024 [1]."]


def test_the_largest_row_is_named_without_the_figures_its_label_explains() -> None:
    sheet = ("CONSOLIDATED BALANCE SHEETS\nDecember 31 (Millions) 2024 2023\nLiabilities\nDeposits $ 9,120 $ 8,400\n"
             "Long-term debt (includes notes of consolidated trusts: 2024, $1,210; 2023, $1,380) 14,573 3,675\n"
             "Other liabilities 400 310\nTotal liabilities $ 24,093 $ 12,385\n")
    lead, others = _answer("What was the largest liability on Ternline's balance sheet in 2024?", _block(1, sheet))
    assert lead.startswith("Long-term debt was the largest, at $14,573m")
    assert "Deposits $9,120m" in others and "$1,210" not in lead + others


def test_a_regions_revenue_in_dated_columns_is_the_years_not_a_closing_balance() -> None:
    page = ("SUPPLEMENTAL DATA - NET REVENUES (In thousands)\nYear Ended December 31\n2024 2023\n"
            "Coastal Resorts $ 1,200,500 $ 1,000,250\nInland Operations 600,100 800,400\n"
            "Total net revenues $ 1,800,600 $ 1,800,650\n")
    answer = _answer("Which region had the worst topline performance for Ternline during FY2024?", _block(1, page))
    assert answer[0].startswith("Inland Operations fell most")
    assert "from $800,400k in FY2023 to $600,100k in FY2024" in answer[0] and "at the end of" not in answer[0]


def test_a_forecast_columns_figure_is_said_to_be_a_forecast() -> None:
    page = ("Outlook\n(£ millions) FY2024 Results FY2025 Forecast Change\nRevenue 1,204.0 1,260.0 +4.7%\n"
            "Operating profit 96.0 104.0 +8.3%\n")
    block = Block(n=1, kind="report", header="[1] Ternline FY2024", text=page, source_id="t1", chunk_id="t1::0",
                  company="Ternline", fiscal_year=2024)
    state: dict[str, Any] = {"blocks": [block], "companies": ["Ternline"], "fiscal_years": [2025]}
    lead = Analyst(state, "What operating profit does Ternline forecast for FY2025?").sentences()[0]
    assert lead.startswith("Ternline's operating profit is forecast at £104.0m in FY2025")  # as the table writes it


def test_what_industry_a_company_is_in_is_told_by_the_sentence_that_describes_it() -> None:
    competition = _block(1, "The main methods of competition in the general freight industry include price and "
                            "service. We are a party to several legal proceedings. Ternline plc is a public limited "
                            "company incorporated under the laws of Jersey.")
    overview = _block(2, "Business overview\nFounded in 1921, Ternline is a leading operator of refrigerated rail "
                         "freight services in northern Europe. It runs 412 trains a day.")
    answer = _answer("What industry does Ternline primarily operate in?", competition, overview)
    assert answer == ["Founded in 1921, Ternline is a leading operator of refrigerated rail freight services in "
                      "northern Europe [2]."]


def test_a_raised_forecast_is_told_with_its_new_and_previous_figures() -> None:
    release = _block(1, "Guidance and Outlook\nFor fiscal year 2025, Ternline now expects to deliver 7 percent "
                        "volume growth (previously 5 percent), and 11 percent core EPS growth (previously 9 percent).")
    lead, quote = _answer("By how many percentage points did Ternline raise its full year guidance for core EPS "
                          "growth?", release)
    assert lead == "Ternline raised its core EPS growth guidance for 2025 to 11 percent (previously 9 percent) [1]."
    assert quote == 'The report says: "11 percent core EPS growth (previously 9 percent)." [1].'
    volume = _answer("How much did Ternline raise its volume growth outlook?", release)[0]
    assert "volume growth guidance for 2025 to 7 percent (previously 5 percent)" in volume


def test_a_yes_no_on_a_forecasts_direction_leads_with_the_verdict_and_the_revision() -> None:
    release = _block(1, "Guidance and Outlook\nFor fiscal year 2025, Ternline now expects to deliver 7 percent "
                        "volume growth (previously 5 percent), and 11 percent core EPS growth (previously 9 percent).")
    # 'cut' is the direction asked, not the 'growth' of the measure's name; the occasion is no key word
    cut = _answer("Did Ternline cut its full-year 2025 volume growth outlook when it reported first-quarter 2025 "
                  "results?", release)[0]
    assert cut == "No. Ternline raised its volume growth guidance for 2025 to 7 percent (previously 5 percent) [1]."
    raised = _answer("Did Ternline raise its full-year core EPS growth guidance?", release)[0]
    assert raised.startswith("Yes. Ternline raised its core EPS growth guidance for 2025 to 11 percent"), raised


def test_how_much_a_forecast_was_raised_is_the_calculators_difference_of_its_two_figures() -> None:
    from app.calc_tools import CalcResult, CalculationOutcome
    from app.facts.revisions import PREVIOUS, REVISED_PERIOD, revision_figures
    from app.models.providers.offline.calculator import plan_tool_calls

    text = ("Guidance and Outlook\nFor fiscal year 2025, Ternline now expects to deliver 7 percent volume growth "
            "(previously 5 percent), and 11 percent core EPS growth (previously 9 percent).")
    question = "By how many percentage points did Ternline raise its full year guidance for core EPS growth?"
    doc = Evidence(chunk_id="t1::0", source_id="t1", text=text, company="Ternline", fiscal_year=2024)
    old, new = revision_figures(question, [doc], ["Ternline"])
    assert (old.value, new.value, old.unit, old.label) == (9, 11, "%", "core EPS growth")
    assert (old.period, new.period, new.fiscal_year) == (PREVIOUS, REVISED_PERIOD, 2025)
    assert revision_figures("What core EPS growth does Ternline expect for 2025?", [doc], ["Ternline"]) == []
    assert plan_tool_calls(question, [old, new]) == [("difference", {"a": 11, "b": 9})]
    result = CalcResult(tool="difference", inputs={"a": 11, "b": 9}, result=2, unit="", expression="11 - 9",
                        sources={"a": new, "b": old})
    calc = _block(2, "difference: 11 - 9 = 2", kind="calculation")
    state: dict[str, Any] = {"blocks": [_block(1, text), calc], "companies": ["Ternline"], "fiscal_years": [2025],
                             "calculation": CalculationOutcome(status="ok", results=[result])}
    lead = Analyst(state, question).sentences()[0]
    assert lead == ("Ternline raised its core EPS growth guidance for 2025 by 2 percentage points, to 11 percent "
                    "(previously 9 percent) [2][1].")


def test_the_facts_step_and_the_composer_choose_the_same_revised_clause() -> None:
    """One chooser (app/facts/revisions.best_revision): a key word the clause writes in another form ('closures'
    asked, 'closings' written) is matched by both, so the calculator's figures and the answer's clause agree."""
    from app.facts.revisions import best_revision, revision_figures

    text = ("Outlook\nFor fiscal year 2025, Ternline now expects 40 store closings (previously 35), and capital "
            "expenditure of $90m (previously $80m).")
    question = "By how much did Ternline raise its guidance for store closures?"
    doc = Evidence(chunk_id="t1::0", source_id="t1", text=text, company="Ternline", fiscal_year=2024)
    old, new = revision_figures(question, [doc], ["Ternline"])
    assert (old.value, new.value) == (35, 40)
    block = _block(1, text)
    chosen = best_revision(question, [(block, block.text)], ["Ternline"])
    assert chosen is not None and chosen.where is block and (chosen.old, chosen.new) == (35, 40)
    lead = Analyst({"blocks": [block], "companies": ["Ternline"], "fiscal_years": [2025]}, question).sentences()[0]
    assert "40" in lead and "previously 35" in lead and "$90m" not in lead


def test_a_sentence_need_not_say_the_questions_dates_or_the_companys_short_name() -> None:
    """'Which business segment of JnJ will be treated as a discontinued operation from August 30, 2023 onward?':
    the sentence that answers says neither 'JnJ' nor 'August' nor 'onward'."""
    asked = Analyst({"blocks": [], "companies": ["Johnson & Johnson"]},
                    "Which business segment of JnJ will be treated as a discontinued operation from August 30, "
                    "2023 onward?")
    assert asked.key_stems() == {"segment", "treat", "discontinu", "oper"}
    text = ("As a result of the completion of the exchange offer, Johnson & Johnson will now present its Consumer "
            "Health business financial results as discontinued operations, including a gain of approximately $20 "
            "billion in the third quarter of 2023.")
    # the verified claim that states it stands as the answer: it holds half the key words, no longer a quarter
    assert asked.on_topic([f"{text[:-1]} [1]."]) == [f"{text[:-1]} [1]."]


def test_a_forecast_range_in_a_sentence_is_said_to_be_a_forecast_once() -> None:
    page = "Outlook\nFor 2025 we expect revenue between €2.45 billion and €2.60 billion and an adjusted EBIT margin of 10.0%."
    block = Block(n=1, kind="report", header="[1] Ternline FY2024", text=page, source_id="t1", chunk_id="t1::0",
                  company="Ternline", fiscal_year=2024)
    state: dict[str, Any] = {"blocks": [block], "companies": ["Ternline"], "fiscal_years": [2025]}
    lead = Analyst(state, "What revenue did Ternline forecast for 2025 in its 2024 annual report?").sentences()[0]
    assert lead.startswith("Ternline's revenue is forecast at €2.45bn to €2.60bn in FY2025"), lead
    guided = Analyst(state, "What is Ternline's revenue guidance for 2025?").sentences()[0]
    assert "forecast" not in guided.split("[")[0] and " is €2.45bn to €2.60bn" in guided, guided


def test_a_second_figure_asked_after_and_what_is_answered_on_its_own() -> None:
    question = ("After completing the Brook separation, how much cash had Ternline raised from the Brook debt "
                "offering, and what stake in Brook does it still hold?")
    assert first_part(question).endswith("from the Brook debt offering")
    assert second_part(question) == "what stake in Brook does it still hold?"
    # the occasion said first is no word of the measure
    assert "complet" not in measure_asked(question, ["Ternline"]).stems
    note = _block(1, "The Company generated $4.1 billion in cash proceeds as a result of the Brook debt offering. "
                     "Ternline maintains a 9.5% stake in Brook common stock.")
    answer = " ".join(_answer(question, note))
    assert "$4.1bn" in answer and "9.5% stake" in answer, answer
    # a second part the first part's answer already states is not said again
    recall = _block(1, "The direct cost of the recall was €6.8m, covering write-offs and retailer compensation.")
    first = _answer("What was the direct cost of Ternline's recall?", recall)
    assert _answer("What was the direct cost of Ternline's recall, and what did it cost?", recall) == first


def test_a_change_the_report_says_did_not_happen_is_no_with_the_sentence_that_keeps_it() -> None:
    release = _block(1, "• Ternline secured $4.1 billion in cash proceeds from the Brook offering\n"
                        "• Ternline maintains its quarterly dividend of $0.42 per share Harrowgate, N.Y. (August 30, "
                        "2024) – Ternline today announced updates to its financials and 2024 guidance.")
    answer = _answer("Did Ternline cut its quarterly dividend after completing the Brook separation in August 2024?",
                     release)
    assert answer == ["No. Ternline maintains its quarterly dividend of $0.42 per share [1]."], answer
    # no sentence keeps it: nothing said
    assert _answer("Did Ternline cut its quarterly dividend in 2024?", _block(1, "Ternline paid $0.42 a share.")) == []


def test_a_segment_the_filing_names_with_its_word_segment_is_not_called_a_segment_twice() -> None:
    text = _block(1, "Flexibles Segment\nWith approximately 35,000 employees at 166 significant manufacturing and "
                     "support facilities in 37 countries as of June 30, 2024, the Flexibles Segment is one of the largest suppliers of "
                     "flexible packaging.")
    answer = _answer("In how many countries did Ternline's Flexibles segment have significant manufacturing and "
                     "support facilities at the end of fiscal 2024?", text)
    assert answer and "37" in answer[0] and "Segment segment" not in answer[0], answer


VOTES = """Item 5.07. Submission of Matters to a Vote of Security Holders.
Ternline, Inc. held its 2024 Annual Meeting of Shareholders on May 3, 2024. Below are the final voting results.
(3) The shareholders approved, on an advisory basis, Ternline's executive compensation:
For 901,248,622
Against 110,102,370
Abstain 8,796,897
(4) The shareholders approved, on an advisory basis, the holding of an advisory vote on the compensation of
Ternline's named executive officers every year:
1 Year 950,218,105
2 Years 2,035,370
(5) The shareholder proposal regarding independent Board Chair was defeated:
For 250,838,697
Against 746,982,272"""


def test_a_vote_the_filing_says_was_approved_answers_yes_with_the_resolution_asked() -> None:
    answer = _answer("Did Ternline shareholders approve the advisory say-on-pay vote on executive compensation at the "
                     "May 3, 2024 annual meeting?", _block(1, VOTES))
    assert answer == ["Yes. (3) The shareholders approved, on an advisory basis, Ternline's executive compensation "
                      "[1]."], answer


def test_a_count_stated_with_its_scale_answers_and_a_second_part_the_quote_answers_is_not_asked_again() -> None:
    text = _block(1, "Ternline Share Repurchases\nDuring the fourth quarter of 2024, the Company repurchased "
                     "approximately 11 million shares of its common stock at an average price of $32.96 per share for "
                     "an aggregate amount of $352 million.")
    count = _answer("How many shares did Ternline repurchase in the fourth quarter of 2024?", text)
    assert count and "approximately 11m" in count[0], count
    both = "How many shares did Ternline repurchase in the fourth quarter of 2024, and at what average price per share?"
    assert second_part(both) == "at what average price per share?"
    assert _answer(both, text) == count  # the quoted sentence gives the price: nothing said twice, nothing else


def test_a_proposal_the_filing_says_was_defeated_answers_no() -> None:
    answer = _answer("Did Ternline shareholders approve the shareholder proposal calling for an independent Board "
                     "Chair at the 2024 annual meeting?", _block(1, VOTES))
    assert answer == ["No. The shareholder proposal regarding independent Board Chair was defeated [1]."], answer


def test_an_auditor_ratified_is_its_accounting_firm_ratified() -> None:
    text = ("Proposal 4. With respect to the proposal to ratify the appointment of Harrow & Vale LLP as the Company's "
            "independent registered public accounting firm for the 2024 fiscal year, the votes were cast as set forth "
            "below:\nVotes For Votes Against Abstentions\n75,612,318 1,854,695 84,193\nBased on the votes set forth "
            "above, the appointment of Harrow & Vale LLP as the Company's independent registered public accounting "
            "firm for the 2024 fiscal year was duly ratified.")
    answer = _answer("Did Ternline shareholders ratify Harrow & Vale as the company's auditor at the May 2024 annual "
                     "meeting?", _block(1, text))
    assert answer and answer[0].startswith("Yes. Based on the votes set forth above, the appointment of Harrow & Vale "
                                           "LLP"), answer
