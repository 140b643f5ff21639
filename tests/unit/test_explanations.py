"""What drove a change (app/models/providers/offline/composer/explanations.py and the analyst's explanation answer):
the sentence that gives the cause, read with the sentence it goes on from and dated by the period it is about.
Companies and figures here are invented for the tests."""

from __future__ import annotations

from app.facts.prose import whole_sentences
from app.knowledge.analyzer import analyze
from app.models.providers.offline.composer import compose_offline
from app.models.providers.offline.composer.explanations import (CAUSE, COST_SHARE, direction_asked, explains_older_change,
                                                                explanations, sentence_years, with_bullets)
from app.text.question_kinds import explanation_wordings
from app.turns import Block


def key(*words: str) -> list[frozenset[str]]:
    return [frozenset(analyze(w)) for w in words]


def block(n: int, text: str, year: int = 2024, company: str = "Osprey Engineering") -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {company} FY{year}, p.{n} [text]", source_id=f"os-{n}",
                 chunk_id=f"os-{n}", company=company, fiscal_year=year, page=n, text=text)


def answer(question: str, *texts: str) -> str:
    """The offline answer to a question on Osprey's FY2024 report, one block per text."""
    return compose_offline({"question": question, "companies": ["Osprey Engineering"], "fiscal_years": [2024],
                            "blocks": [block(n, t) for n, t in enumerate(texts, start=1)]})


INVENTORIES = ("Inventories at the end of fiscal 2024 totaled $412.0 million compared to $380.5 million at the end of "
               "fiscal 2023. The $31.5 million increase was primarily due to the opening of 12 new depots and "
               "inventory to support new product lines.")


def test_a_sentence_that_refers_back_explains_what_the_one_before_states() -> None:
    found = explanations([(0, INVENTORIES)], key("inventories"), [2024], direction=1)
    assert found, "the increase's cause was not found"
    best = found[0][0]
    assert best.sentence.startswith("The $31.5 million increase was primarily due to the opening of 12 new depots")
    assert best.antecedent.startswith("Inventories at the end of fiscal 2024 totaled $412.0 million")


def test_the_answer_leads_with_the_cause_then_the_figures_it_explains() -> None:
    said = answer("What drove the increase in Osprey's inventories balance at the end of FY2024?",
                  "Order intake rose in every region and the backlog reached a record.", INVENTORIES)
    assert said.startswith("The $31.5 million increase was primarily due to the opening of 12 new depots")
    assert "[2]. Inventories at the end of fiscal 2024 totaled $412.0 million" in said


REVIEW = ("Year 2024 results: Sales in Drives were up 2.1 percent. Segment operating income margins decreased "
          "year-on-year due to charges for the Mergenthal plant closure and higher steel costs. "
          "Year 2023 results: Sales in Drives were up 6.0 percent. Segment operating income margins increased "
          "year-on-year due to sales growth leverage and lower freight costs.")


def test_a_year_less_sentence_is_dated_by_the_period_heading_above_it() -> None:
    found = explanations([(0, REVIEW)], key("operating", "margin"), [2024])
    assert [e.years for e, _ in found] == [(2024,), (2023,)]
    assert "Mergenthal" in found[0][0].sentence
    assert found[0][0].score > found[1][0].score  # the year asked first; the year before only as a fallback


def test_a_cause_dated_before_the_year_before_explains_an_older_change() -> None:
    older = ("Segment operating income margins increased year-on-year due to sales growth leverage and impairments "
             "recognized on certain assets in 2021 that did not recur.")
    assert explains_older_change(older, [2024])
    assert not explains_older_change(older, [2022])
    assert explanations([(0, older)], key("operating", "margin"), [2024]) == []


def test_a_comparison_dates_the_change_to_the_year_after_its_base() -> None:
    sentence = ("As a percentage of net sales, SG&A expenses decreased to 23.5% compared to 23.9% in fiscal 2023, "
                "primarily due to lower marketing expenses.")
    assert sentence_years(sentence) == (2023, 2024)
    assert not explains_older_change(sentence, [2025])  # fiscal 2024 may be labelled FY2025


def test_a_year_is_explained_before_its_fourth_quarter() -> None:
    text = ("As a percentage of net sales, SG&A expenses decreased to 23.6% compared to 23.8% in the fourth quarter "
            "of fiscal 2023, primarily due to leverage of incentive compensation. As a percentage of net sales, SG&A "
            "expenses decreased to 23.5% compared to 23.9% in fiscal 2023, primarily due to lower marketing expenses.")
    found = explanations([(0, text)], key("SG&A", "expense", "percent", "net", "sales"), [2024], direction=-1,
                         share_asked=True)
    assert "lower marketing expenses" in found[0][0].sentence
    assert "fourth quarter" in found[1][0].sentence


def test_causes_listed_as_bullets_are_one_sentence() -> None:
    sentences = ["Cost of products sold increased as a percent to sales driven by:",
                 "• One-time plant exit costs", "• Currency impacts in the Devices segment",
                 "• Commodity inflation partially offset by", "• Supply chain benefits",
                 "Research spending was flat."]
    joined, last = with_bullets(sentences, 0)
    assert joined == ("Cost of products sold increased as a percent to sales driven by one-time plant exit costs; "
                      "currency impacts in the Devices segment; commodity inflation partially offset by supply chain "
                      "benefits.")
    assert last == 4


def test_a_gross_margin_is_explained_where_the_report_explains_cost_of_sales_as_a_share_of_sales() -> None:
    text = ("Cost of products sold increased as a percent to sales driven by:\n• One-time plant exit costs\n"
            "• Currency impacts in the Devices segment\nResearch spending was flat in 2024 at $1.2 billion.")
    said = answer("What drove gross margin change as of FY2024 for Osprey?", text)
    assert said.startswith("Cost of products sold increased as a percent to sales driven by one-time plant exit "
                             "costs; currency impacts in the Devices segment [1].")


def test_causes_that_follow_the_change_they_weigh_on() -> None:
    text = ("Machine Tools\nNet sales in the Machine Tools segment rose 3.7% to ¥152,380 million. Deliveries to "
            "aerospace customers were strong. Segment profit fell 8.6% to ¥17,940 million. Price competition from "
            "local makers, higher prices for castings and wage increases all weighed on profit. Orders received "
            "decreased 6.0% to ¥149,260 million.")
    said = answer("Why did profit in Osprey's Machine Tools segment fall in FY2024 although its sales rose?", text)
    assert said.startswith("Price competition from local makers, higher prices for castings and wage increases "
                             "all weighed on profit [1]. Segment profit fell 8.6% to ¥17,940 million [1].")


def test_words_that_only_look_like_a_cause() -> None:
    assert not CAUSE.search("Adjustments to segment assets are corporate assets, mainly cash and investment securities.")
    assert CAUSE.search("Net income declined, mainly because we recorded an impairment of broadcast licences.")
    assert CAUSE.search("Given our strong start to the year, we now expect revenue to increase 8 percent.")
    # a label is no sentence, though 'attributable to' gives causes elsewhere
    assert explanations([(0, "Profit attributable to owners of the parent")], key("profit"), [2024]) == []


def test_the_direction_asked() -> None:
    assert direction_asked("What drove the increase in Osprey's inventories?") == 1
    assert direction_asked("What drove the reduction in SG&A expense as a percent of net sales?") == -1
    assert direction_asked("What drove gross margin change as of FY2024?") == 0


def test_a_sentence_cut_short_at_a_chunks_start_does_not_take_the_next_one_with_it() -> None:
    sentences = whole_sentences("million.\nInventories at the end of fiscal 2024 totaled $412.0 million. The rest "
                                "followed.")
    assert sentences[0].startswith("Inventories at the end of fiscal 2024")
    assert whole_sentences("the year ended in March. Revenue rose 4% in the year.")[0] == "Revenue rose 4% in the year."


def test_the_search_words_for_what_drove_a_change() -> None:
    words = explanation_wordings("What drove gross margin change as of FY2024 for Osprey?", "gross margin change")
    assert words.startswith("gross margin change cost of products sold")
    assert "due to" in words and "driven by" in words
    assert explanation_wordings("What was Osprey's gross margin in FY2024?", "gross margin") == ""


def test_a_banks_cost_of_funds_is_no_cost_of_sales() -> None:
    text = ("Net interest income increased 19 percent, primarily driven by an increase in average loan balances, "
            "partially offset by higher cost of funds driven by higher interest rates. Revenues rose 17 percent.")
    assert "Net interest income" not in answer("What drove gross margin change as of FY2024 for Osprey?", text)
    assert COST_SHARE.search("Cost of products sold increased as a percent to sales driven by:")
    assert COST_SHARE.search("As a percentage of net sales, cost of sales fell to 61.2%.")
    assert not COST_SHARE.search("partially offset by higher cost of funds driven by higher rates, up 19 percent")


def test_why_guidance_was_raised() -> None:
    text = ("Given our strong start to the year, we now expect full-year 2024 organic revenue to increase 8 percent "
            "(previously 6 percent), said the Chief Executive Officer.")
    said = answer("As of FY2024Q1, why did Osprey raise full year guidance for FY2024?", text)
    assert said.startswith("Given our strong start to the year, we now expect full-year 2024")


def test_words_a_question_writes_together_must_stand_together() -> None:
    text = ("Due to the adoption of a new standard in 2024, all excess tax benefits are recognized as income tax "
            "expense in the Consolidated Statement of Operations.")
    pairs = [(frozenset(analyze("operating")), frozenset(analyze("income")))]
    assert explanations([(0, text)], key("operating", "income"), [2024], pairs=pairs) == []
    stated = "Operating income rose 12% in 2024, primarily due to growth in streaming revenues."
    assert explanations([(0, stated)], key("operating", "income"), [2024], pairs=pairs)


def test_a_sentence_cut_off_where_its_chunk_ends_is_not_stated() -> None:
    cut = "Net sales rose 18% in 2024. The improvement was attributable to an increase in comparable sales and sales at"
    found = explanations([(0, cut)], key("net", "sales"), [2024], direction=1)
    assert found == []


def test_what_a_cause_changed_is_named_on_the_effects_side_of_it() -> None:
    from app.models.providers.offline.composer.explanations import effect_part

    assert effect_part("Operating profit growth was primarily driven by net revenue growth and savings.") == (
        "Operating profit growth was primarily ")
    assert effect_part("Given our strong start to the year, we now expect revenue to rise 8 percent.").strip() == (
        "we now expect revenue to rise 8 percent.")
    assert effect_part("Price competition and wage increases all weighed on profit.") == " profit."
    # net revenue is what drove operating profit here, not what was driven
    text = "Operating profit growth was primarily driven by net revenue growth and productivity savings in 2024."
    assert explanations([(0, text)], key("net", "revenue"), [2024], direction=1) == []
    assert explanations([(0, text)], key("operating", "profit"), [2024], direction=1)


def test_a_bullet_run_into_the_next_heading_stops_before_it() -> None:
    sentences = ["Income before tax as a percent of sales increased driven by:", "• Lower litigation expense",
                 "• Commodity inflation in 2024 Devices Segment: In 2024, the Devices segment margin was 30.3%"]
    joined, _ = with_bullets(sentences, 0)
    assert joined == ("Income before tax as a percent of sales increased driven by lower litigation expense; "
                      "commodity inflation in 2024.")


def test_a_share_of_sales_is_about_its_numerator_unless_a_share_is_asked() -> None:
    text = ("As a percentage of net sales, gross profit of 37.6% was flat compared to fiscal 2023, primarily due to "
            "leverage of fixed costs. Net sales increased 18.3% to $10.2 billion compared to $8.6 billion in fiscal "
            "2023, primarily due to retail price increases and new brands.")
    said = answer("What drove the increase in Osprey's net sales in fiscal 2024?", text)
    assert said.startswith("Net sales increased 18.3% to $10.2 billion")
    share = explanations([(0, text)], key("gross", "profit", "percent", "net", "sales"), [2024], share_asked=True)
    assert share and share[0][0].sentence.startswith("As a percentage of net sales, gross profit")


def test_a_bullet_that_ends_in_a_semicolon_is_whole_and_stated_without_its_marks() -> None:
    text = ("Fourth quarter 2024 highlights:\n• Net revenues of $991 million in the current quarter compared to $900 "
            "million in the prior year quarter, an increase of 10% due to an increase in business volume;\n"
            "• Operating income of $120 million;")
    said = answer("Why did Osprey's net revenues increase in the fourth quarter of 2024?", text)
    assert said.startswith("Net revenues of $991 million in the current quarter") and "volume [1]." in said


def test_a_segments_review_under_its_own_section_explains_its_margin_slip() -> None:
    review = ("Revenue increased 4.5% to $640.4m. Capacity commissioned grew 4.3% to 720 MW; excluding the two "
              "delayed projects, it would have been 870 MW. Operating income rose 1.5% to $72.5m and the operating "
              "margin eased to 11.3% from 11.7%, reflecting carrying costs on the delayed projects and lower "
              "development fees.")
    other = ("While Solar Development growth slowed because two projects slipped into 2025, Storage and Services "
             "both grew strongly and lifted the Company's overall margin.")
    blocks = [block(1, other), block(2, review).model_copy(update={
        "header": '[2] Osprey Engineering FY2024, section "Solar Development" [text]'})]
    said = compose_offline({"question": "Why did the operating margin of Osprey's Solar Development segment slip in "
                                        "FY2024?", "companies": ["Osprey Engineering"], "fiscal_years": [2024],
                            "blocks": blocks})
    # the section names the segment the sentence is about; 'slip' and 'segment' are no words it must say
    assert said.startswith("Operating income rose 1.5% to $72.5m and the operating margin eased to 11.3% from "
                           "11.7%, reflecting carrying costs"), said
    # without the section, nothing names the segment beside the cause
    assert explanations([(0, review)], key("operating", "margin", "solar", "development"), [2024]) == []
    assert explanations([(0, review)], key("operating", "margin", "solar", "development"), [2024],
                        headings={0: "Solar Development"})


PROFIT_BRIDGE = ("Adjusted operating profit rose by $2.0 million as Services grew. Restructuring charges of $28.4 "
                 "million comprised plant closure costs of $21.0 million and severance of $7.4 million. As a result, "
                 "statutory profit before tax fell to $41.2 million from $60.3 million. The effective tax rate was "
                 "26.0%.")


def test_a_sentence_that_says_it_follows_from_the_one_before_is_explained_by_it() -> None:
    """'As a result, statutory profit before tax fell …' states what the sentence before it caused: the answer is
    that sentence, then the consequence; and a concession's measure ('even though adjusted operating profit
    rose') is not what is explained."""
    said = answer("Why did Osprey's statutory profit before tax fall in FY2024 even though adjusted operating "
                  "profit rose?", PROFIT_BRIDGE)
    assert said.startswith("Restructuring charges of $28.4 million comprised plant closure costs of $21.0 million"), said
    assert "[1]. As a result, statutory profit before tax fell to $41.2 million from $60.3 million [1]." in said
    assert "Services grew" not in said
    # with nothing before it to give the cause, a consequence explains nothing
    assert not explanations([(0, "As a result, statutory profit before tax fell to $41.2 million from $60.3 "
                                 "million in 2024.")], key("statutory", "profit", "tax"), [2024])


def test_a_standing_condition_gives_way_to_the_sentence_that_explains_the_years_change() -> None:
    said = answer("What drove Osprey's gross margin change in FY2024?",
                  "Net sales growth and gross margins are also impacted by our competition, which is vigorous and "
                  "widespread across every market we serve.",
                  "Gross margin percentage decreased seven basis points, driven primarily by a shift in sales "
                  "penetration from our core merchandise categories to our ancillary businesses.")
    assert said.startswith("Gross margin percentage decreased seven basis points")
