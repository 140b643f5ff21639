"""Extraction damage repaired the way a reader would (app/text/repair.py), and only where the document itself
shows the whole word."""

from __future__ import annotations

from app.text.repair import repair_extraction, vocabulary


def test_spaces_that_are_not_spaces() -> None:
    assert repair_extraction("As of 31 March we had 61\u00a0200\u00a0full-\u00a0and part-time employees") == (
        "As of 31 March we had 61,200 full- and part-time employees")
    assert repair_extraction("revenue of €1\u202f234.5 million") == "revenue of €1,234.5 million"
    assert repair_extraction("sever\u00adance and re\u200bstructuring") == "severance and restructuring"
    # a space between a year and a count is no thousands separator
    assert repair_extraction("in 2024 200 stores") == "in 2024 200 stores"


def test_words_hyphenated_across_a_line() -> None:
    words = vocabulary(["full-time staff", "manufacturing"])
    assert repair_extraction("our manufac-\nturing sites", words) == "our manufacturing sites"
    assert repair_extraction("our full-\ntime staff", words) == "our full-time staff"
    # a label and the next row's values stay on their lines
    assert repair_extraction("Depreciation and amor-\ntization\n1,488\n1,544", words) == (
        "Depreciation and amortization\n1,488\n1,544")
    assert repair_extraction("Total revenue -\n1,234") == "Total revenue -\n1,234"


def test_words_broken_by_a_stray_space() -> None:
    words = vocabulary(["Revenues rose and revenues grew; operating costs and operating margin."])
    assert repair_extraction("Total reven ues and opera ting profit", words) == "Total revenues and operating profit"
    assert repair_extraction("Reven ues rose", words) == "Revenues rose"


def test_nothing_is_joined_that_the_document_does_not_write_whole() -> None:
    words = vocabulary(["income and income", "in coming months"])
    assert repair_extraction("in come months", words) == "in come months"  # function words stay apart
    assert repair_extraction("the sales team", vocabulary(["salesteam"])) == "the sales team"  # seen once only
    common = vocabulary(["net work " * 10 + "network network"])
    assert repair_extraction("net work", common) == "net work"  # two common words, not a broken one


def test_soft_wrapped_prose_is_one_line_and_rows_stay_rows() -> None:
    from app.text.repair import reflow

    page = ("Our people\nAt 30 June 2024 the group employed 3,140 people, up from 2,910 a year earlier, and engaged a"
            " further\n2,860 contractors on site (FY2023: 2,740).\nOperations at a glance FY2024 FY2023\n"
            "Iron ore produced (Mt) 18.9 17.6\nDepreciation and amortization\n1,488\nOnline sales\nreached 28.1% of"
            " retail sales, compared with 26.0% a year earlier.")
    assert reflow(page).splitlines() == [
        "Our people",
        "At 30 June 2024 the group employed 3,140 people, up from 2,910 a year earlier, and engaged a further "
        "2,860 contractors on site (FY2023: 2,740).",
        "Operations at a glance FY2024 FY2023", "Iron ore produced (Mt) 18.9 17.6", "Depreciation and amortization",
        "1,488", "Online sales reached 28.1% of retail sales, compared with 26.0% a year earlier."]


def test_a_huge_word_is_read_once() -> None:
    """One word of two million letters: a pattern that backtracks over it from every position would never
    finish (it did, once: the line-hyphen pattern had no left boundary)."""
    from app.text.repair import reflow

    huge = "a" * 2_000_000 + "-\nb" + " word" * 200_000
    assert repair_extraction(huge).startswith("aaa") and reflow(huge).endswith("word")


def test_a_plain_space_between_thousands_in_running_text_is_a_thousands_separator() -> None:
    from app.text.repair import repair_extraction

    assert repair_extraction("Our team of approximately 11 400 employees made it possible.") == \
        "Our team of approximately 11,400 employees made it possible."
    assert repair_extraction("about 1 234 567 units were sold") == "about 1,234,567 units were sold"
    # a table row's figures, and a year before a figure, stay apart
    assert repair_extraction("Stores 412 398 17") == "Stores 412 398 17"
    assert repair_extraction("In 2024 400 stores opened.") == "In 2024 400 stores opened."


def test_a_line_that_ends_on_a_joining_word_goes_on_in_the_next() -> None:
    from app.text.repair import reflow

    page = ("Our businesses are organized into five operating segments: North America Retail; Stores & Foodservice; "
            "Europe &\nAustralia; Asia & Latin America; and Pet. Fiscal 2024 includes 13 months.\nSEGMENT RESULTS\n"
            "Net sales 1,204.6 1,311.2")
    assert reflow(page).splitlines()[0].endswith("Europe & Australia; Asia & Latin America; and Pet. Fiscal 2024 "
                                                 "includes 13 months.")
    assert reflow(page).splitlines()[1:] == ["SEGMENT RESULTS", "Net sales 1,204.6 1,311.2"]


def test_a_date_in_spaced_type_is_read_back() -> None:
    """'M a r c h 3 1 , 2 0 2 1' (a 10-Q's spaced type) reads 'March 31, 2021'; single letters or digits that
    make no word the document writes, or digits alone (a row's values), stay as they are."""
    text = ("Capital as of M a r c h 3 1 , 2 0 2 1 and D e c e m b e r 3 1 , 2 0 2 0. Options a b c d apply. "
            "Grades 2 0 2 1 and 1 2 3 4.")
    assert repair_extraction(text) == ("Capital as of March 31, 2021 and December 31, 2020. Options a b c d apply. "
                                       "Grades 2 0 2 1 and 1 2 3 4.")
    words = vocabulary(["Total capital rose. Total capital fell."])
    assert repair_extraction("T o t a l c a p i t a l rose", words) == "T o t a l c a p i t a l rose"  # no split known
    assert repair_extraction("c a p i t a l rose", words) == "capital rose"


def test_a_spaced_date_whose_groups_stand_wider_apart_is_read_back_whole() -> None:
    """'M a r c h \u00a0 3 1 ,  2 0 2 1' (each group set wider apart) reads 'March 31, 2021'; dates already whole stay."""
    text = "Shares outstanding as of M a r c h \u00a0 3 1 ,  2 0 2 1: 3,027,128,112; as of March 3, 2021: 3,001,000,000."
    assert repair_extraction(text) == ("Shares outstanding as of March 31, 2021: 3,027,128,112; as of March 3, 2021: "
                                       "3,001,000,000.")


def test_a_name_wrapped_at_its_ampersand_is_one_sentence_and_a_sentence_cut_before_footnote_marks_is_dropped() -> None:
    from app.facts.prose import whole_sentences
    from app.text.repair import reflow

    page = ("The Company generated $4.1 billion in cash proceeds from the Brook offering. Additionally, Ternline\n"
            "& Harrow maintains a 9.5% stake in Brook common stock.")
    assert whole_sentences(page) == ["The Company generated $4.1 billion in cash proceeds from the Brook offering.",
                                     "Additionally, Ternline & Harrow maintains a 9.5% stake in Brook common stock."]
    # a page's last sentence cut short ('subject to a'), a page's footnote marks after it: no sentence to quote
    cut = page + " It may sell the retained stake in the next year, subject to a\n6\n1,2,5\n2,5"
    assert whole_sentences(cut) == whole_sentences(page)


def test_a_press_releases_dateline_run_into_a_bullet_opens_its_own_sentence() -> None:
    from app.facts.prose import whole_sentences
    from app.text.repair import reflow

    text = ("• Ternline maintains its quarterly dividend of $0.42 per share Harrowgate, N.Y. (August 30, 2024) – "
            "Ternline today announced updates to its financials.")
    assert whole_sentences(text) == ["• Ternline maintains its quarterly dividend of $0.42 per share",
                                     "Harrowgate, N.Y. (August 30, 2024) – Ternline today announced updates to its "
                                     "financials."]
    wire = "Comparable Sales Increased 15.6% HARROWGATE, Ill.--(BUSINESS WIRE)-- Ternline today announced results."
    assert whole_sentences(wire)[1].startswith("HARROWGATE, Ill.--(BUSINESS WIRE)--")


def test_a_full_width_line_cut_mid_sentence_goes_on_with_the_next() -> None:
    from app.facts.prose import whole_sentences
    from app.text.repair import reflow

    text = ("The director will serve as a Senior Advisor to the Chief Executive Officer until early April 2025 to ease "
            "the transition. The Company’s\n"
            "Board has determined that the Chair and Chief Executive Officer roles will be separated, also effective "
            "September 1, 2024, and the Company’s Lead\n"
            "Independent Director, Jane Q. Fairweather, will become non-Executive Chair, effective February 1, 2025.")
    said = whole_sentences(text)
    assert said[-1].startswith("The Company’s Board has determined") and "Lead Independent Director, Jane Q. " \
        "Fairweather, will become non-Executive Chair" in said[-1], said
    # an item of a list starts a line of its own
    listed = ("• Company secured $13.2 billion in cash proceeds from the debt offering and the initial public offering "
              "and keeps a stake in Kenvue\n• Company maintains its quarterly dividend of $1.19 per share")
    assert reflow(listed).count("\n") == 1
    # a short heading above running text stays a line of its own
    assert reflow("Segment Results\nDomestic streaming revenue grew in every quarter of the year.").count("\n") == 1


def test_a_word_cut_at_a_lines_end_without_a_hyphen_is_joined_where_the_document_writes_it_whole() -> None:
    words = vocabulary(["We paid a dividend in 2023. Dividends paid rose. The common stock and common shares."])
    page = "We have not declared or p\naid any cash dividends on our co\nmmon stock.\nTechnology and development\n"
    assert repair_extraction(page, words) == ("We have not declared or paid any cash dividends on our common stock.\n"
                                              "Technology and development\n")
    # two words the document writes apart stay apart, a function word stays a word, and a capital opens a line
    kept = "cash paid in\ncome taxes and net\nwork ties.\nP\nAid"
    assert repair_extraction(kept, vocabulary(["income income network", "net net net net work work work work"])) == kept


def test_a_decimal_point_set_apart_from_its_digits_is_closed_up() -> None:
    page = "At March 31, 2025, included $ 8 . 0 billion of loans under the LRP, of which $ 7 . 1 billion are loans."
    assert repair_extraction(page) == ("At March 31, 2025, included $ 8.0 billion of loans under the LRP, of which "
                                       "$ 7.1 billion are loans.")
    # (a scale word in spaced type is read back first)
    spaced = "included $ 8 . 0 \u00a0 b i l l i o n of loans"
    assert repair_extraction(spaced, vocabulary(["a billion and a billion"])) == "included $ 8.0   billion of loans"
    kept = "Revenue rose in 2024 . 3 new stores opened."  # a stop after a year is no decimal point
    assert repair_extraction(kept) == kept


def test_a_page_number_run_onto_the_last_sentence_is_no_part_of_it() -> None:
    from app.facts.prose import whole_sentences

    page = "Dividends\nWe have not paid any cash dividends, and we have no present intention of paying any.13"
    assert whole_sentences(repair_extraction(page))[-1].endswith("intention of paying any.")
    assert repair_extraction("Revenue was $4.2 million in 2024.") == "Revenue was $4.2 million in 2024."
