"""Held-out misses, read generally (sixth set): a question about the months after a filing's year ('Did it raise its
dividend again in early 2023?') kept searchable with only that year's filing held, as a subsequent event it reports;
'early 2023', 'mid-2022' and 'late 2021' read as times, not words of the measure, and 'still' as no measure word; a
yes/no on a year's move answered by a sentence of a part of that year that states the move itself ('an increase of
1 percent'), never by two figures of other bases, and a change stated against another base ('over 2019 levels') not
read as one against the year before; 'Is it still paying its regular dividend following its … results?' answered
by the sentence that suspends it; a segment name of two words or more inside the measure's words ('paid
international streaming memberships') read as the segment, with a bare '… Segment' title line naming it; a list of
segments set apart by semicolons, or after a comma; 'What were its four business segments?' answered with the
listing sentence; a metric asked of one segment ('its Home Care operating margin') computed from that segment's own
rows, never the company's, and named with it; 'Was its Home Care business getting more profitable?' judged by the
segment's margin in both years, else by its own profit rows, 'less profitable' reversing the verdict.

Functions added by the changes under test are imported inside their tests, so that each test fails on its own on
the code before them.

Every company, page and figure here is made up (Harrowgate, a household and coatings group whose segments include
Home Care, Industrial Coatings, Specialty Materials and Consumer Health, and whose streaming arm reports
International and Domestic Streaming segments).
"""

from __future__ import annotations

from app.calc_tools import CalcResult, CalculationOutcome, Figure, metric
from app.evidence import Evidence
from app.facts.members import named_segments
from app.facts.query import name_read_as_segment, read_query
from app.judgements import convention_for
from app.metric_plans import metric_plans
from app.metrics import judgement
from app.models.providers.offline.composer import compose_offline
from app.models.providers.offline.composer.analyst import Analyst
from app.models.providers.offline.composer.results import lead_sentence
from app.routing.decision import RouteDecision
from app.text.measures import measure_asked
from app.text.question_kinds import read_ask
from app.turns import Block
from nodes.retrieve import unheld_periods

CO = "Harrowgate"


def _block(n: int, text: str, page: int, year: int = 2022) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {CO} FY{year} p.{page}", text=text,
                 source_id=f"HARROWGATE_{year}_10K:p{page}", chunk_id=f"HARROWGATE_{year}_10K:p{page}::0", company=CO,
                 fiscal_year=year, page=page)


def _state(question: str, blocks: list[Block], years: list[int], **more: object) -> dict[str, object]:
    return {"question": question, "companies": [CO], "fiscal_years": years, "blocks": blocks,
            "decision": RouteDecision(needs_retrieval=True), **more}


# --- 1. the months after a filing's year are what that filing reports -------------------------------------------

EARLY_RAISE = f"Did {CO} raise its dividend again in early 2023?"


def _only_fy2022(company: str) -> list[int]:
    return [2022]


def test_a_question_of_the_months_after_the_year_held_is_not_set_aside() -> None:
    """With only the FY2022 filing held, 'in early 2023', 'in February 2023' and 'subsequently' ask what that 10-K
    reports of the months after its year (a subsequent event): Harrowgate is not set aside as unheld."""
    for question in (EARLY_RAISE, f"Did {CO} raise its dividend in February 2023?",
                     f"Did {CO} subsequently raise its dividend in 2023?"):
        assert unheld_periods([CO], [2023], _only_fy2022, question) == {}, question


def test_a_plain_figure_of_the_year_after_is_still_unheld() -> None:
    """'What was Harrowgate's revenue in 2023?' with only FY2022 held is still set aside, its held year named
    (behaviour kept)."""
    assert unheld_periods([CO], [2023], _only_fy2022, f"What was {CO}'s revenue in 2023?") == {CO: [2022]}


# --- 2. 'early 2023', 'mid-2022', 'late 2021' are times; 'still' is no measure word ------------------------------


def test_early_in_a_year_is_a_time_not_a_word_of_the_dividend() -> None:
    """'Did Harrowgate raise its dividend again in early 2023?' reads the dividend per share for 2023: neither
    'early' nor 'again' is a word of the measure."""
    assert measure_asked(EARLY_RAISE, [CO]).phrase == "dividend"
    query = read_query(EARLY_RAISE, [CO])
    assert query.measure.phrase == "dividend per share"
    assert query.years == (2023,)
    assert not {"early", "again"} & set(query.measure.phrase.split())


def test_mid_and_late_in_a_year_are_times() -> None:
    """'in mid-2022' and 'in late 2021' leave the revenue alone, each with its year read."""
    for question, year in ((f"What was {CO}'s revenue in mid-2022?", 2022),
                           (f"What was {CO}'s revenue in late 2021?", 2021)):
        query = read_query(question, [CO])
        assert query.measure.phrase == "revenue", question
        assert query.years == (year,), question


def test_early_and_late_keep_their_words_when_they_name_the_measure() -> None:
    """'early retirement costs' and 'late fees' are what is asked: their words are kept."""
    assert measure_asked(f"What were {CO}'s early retirement costs in 2022?", [CO]).phrase == (
        "early retirement costs")
    assert "late fees" in measure_asked(f"What were {CO}'s late fees in 2021?", [CO]).phrase


def test_still_is_no_word_of_the_measure() -> None:
    """'Is Harrowgate still paying its regular dividend?': 'still' is no word of what is asked."""
    phrase = measure_asked(f"Is {CO} still paying its regular dividend?", [CO]).phrase
    assert "still" not in phrase.split(), phrase
    assert "dividend" in phrase


# --- 3. a yes/no on a year's move, answered by a sentence of a part of that year ------------------------------

RAISED = ("In February 2023, Harrowgate's Board declared a first-quarter 2023 dividend of $1.50 per share, an "
          "increase of 1 percent.")
DIVIDENDS = ("Dividends\nIn 2022, Harrowgate paid quarterly dividends of $1.49 per share. The Board expects to pay "
             f"dividends at an annual rate of $6.00 per share in 2023. {RAISED}\n")


def test_a_sentence_of_the_quarter_that_states_the_raise_answers_yes() -> None:
    """'Did Harrowgate raise its dividend again in early 2023?' with only the FY2022 report: 'Yes.', the dividend
    rose 1% ('1 percent' read as '%') to $1.50, the February sentence quoted; never 2022's $1.49 quarterly
    dividend set against the $6.00 annual rate for 2023 (two figures of different bases)."""
    draft = compose_offline(_state(EARLY_RAISE, [_block(1, DIVIDENDS, 31)], [2023]))
    assert draft.startswith("Yes."), draft
    lead = draft.split(" The report says", 1)[0]
    assert "1%" in lead and "$1.50" in lead, draft
    assert f'"{RAISED}"' in draft, draft
    assert "$1.49" not in draft and "$6.00" not in draft, draft


def test_a_raise_in_a_month_of_the_year_is_answered_from_the_same_sentence() -> None:
    """'Did Harrowgate raise its dividend in February 2023?' is answered by the same sentence."""
    draft = compose_offline(_state(f"Did {CO} raise its dividend in February 2023?", [_block(1, DIVIDENDS, 31)],
                                   [2023]))
    assert draft.startswith("Yes."), draft
    assert "1%" in draft and "$1.50" in draft, draft


def test_a_change_stated_against_another_base_is_no_change_on_the_year_before() -> None:
    """'an increase of 25 percent over 2019 levels' is measured against 2019, not the year before: the answer
    never says the dividend rose 25% (a stated move with no base named is against the period before; one with
    another base named is not)."""
    text = DIVIDENDS.replace("an increase of 1 percent", "an increase of 25 percent over 2019 levels")
    draft = compose_offline(_state(EARLY_RAISE, [_block(1, text, 31)], [2023]))
    assert not draft.startswith("Yes."), draft
    assert "25%" not in draft and "rose 25" not in draft, draft


# --- 4. 'Is it still paying its regular dividend following its … results?' ----------------------------------------

SUSPENDED = ("Dividends\nIn light of the pending merger, the Board has determined to suspend our ongoing regular "
             "dividends, beginning with the first quarter of 2023. We paid dividends of $0.25 per share in each "
             "quarter of 2022.\n")


def test_still_paying_following_its_results_is_answered_no_by_the_suspension() -> None:
    """'Is Harrowgate still paying its regular dividend following its fourth-quarter 2022 results?': 'No.' with
    the sentence that suspends the regular dividends (the occasion clause is not looked for in it)."""
    question = f"Is {CO} still paying its regular dividend following its fourth-quarter 2022 results?"
    state = _state(question, [_block(1, SUSPENDED, 44)], [2022])
    said = Analyst(state, question).continued_answer()
    assert said and said[0].startswith("No."), said
    assert "determined to suspend our ongoing regular dividends" in said[0]
    assert said[0].endswith("[1]."), said
    assert compose_offline(state).startswith("No. In light of the pending merger, the Board has determined to "
                                             "suspend"), compose_offline(state)


def test_still_paying_a_dividend_kept_is_yes() -> None:
    """'Is Harrowgate still paying its regular dividend?' where the report says it maintained it: 'Yes.' with that
    sentence."""
    question = f"Is {CO} still paying its regular dividend?"
    kept = "Dividends\nThe Company maintained its regular quarterly dividend of $0.25 per share throughout 2022.\n"
    draft = compose_offline(_state(question, [_block(1, kept, 44)], [2022]))
    assert draft.startswith("Yes. The Company maintained its regular quarterly dividend"), draft


# --- 5. a segment name inside the measure's words -------------------------------------------------------------

INTERNATIONAL = ("International Streaming Segment\n(in thousands)\nYear ended December 31,\n2022 2021\n"
                 "Paid memberships at end of period 76,120 71,040\nRevenues $ 9,280,400 $ 8,134,200\n")
DOMESTIC = ("Domestic Streaming Segment\n(in thousands)\nYear ended December 31,\n2022 2021\n"
            "Paid memberships at end of period 58,460 57,110\nRevenues $ 11,450,300 $ 10,920,800\n")
MEMBERSHIPS = f"How many paid international streaming memberships does {CO} have?"


def _evidence(text: str, page: int) -> Evidence:
    return Evidence(chunk_id=f"HARROWGATE_2022_10K:p{page}::0", source_id=f"HARROWGATE_2022_10K:p{page}",
                    company=CO, fiscal_year=2022, page=page, is_table=True, text=text)


def test_a_two_word_segment_inside_the_measure_is_the_segment() -> None:
    """'paid international streaming memberships' of a report titled 'International Streaming Segment': the
    segment is International Streaming, the measure the words around it ('paid memberships'), which the count
    noun follows."""
    query = read_query(MEMBERSHIPS, [CO])
    read = name_read_as_segment(query, [_evidence(INTERNATIONAL, 25)])
    assert read.measure.segment == "International Streaming"
    assert read.measure.phrase == "paid memberships"
    assert read.measure.count_noun == "paid memberships"
    assert read.count_stems == read.measure.stems
    assert name_read_as_segment(query, []).measure.segment is None  # no such segment held: as asked


def test_a_bare_segment_title_line_names_the_segment_before_the_measure() -> None:
    """'international streaming revenues' of the same report: the title line 'International Streaming Segment'
    alone names the segment; the measure is 'revenues'."""
    query = read_query(f"What were {CO}'s international streaming revenues in 2022?", [CO])
    read = name_read_as_segment(query, [_evidence(INTERNATIONAL, 25)])
    assert (read.measure.segment, read.measure.phrase) == ("International Streaming", "revenues")


def test_the_memberships_asked_are_the_international_segments() -> None:
    """Through the offline composer, with both streaming segments' tables held: the International segment's 76,120
    thousand paid memberships, not the Domestic one's."""
    blocks = [_block(1, DOMESTIC, 24), _block(2, INTERNATIONAL, 25)]
    draft = compose_offline(_state(MEMBERSHIPS, blocks, [2022]))
    assert "International Streaming" in draft, draft
    assert "76,120" in draft and "58,460" not in draft, draft


# --- 6. a list of segments set apart by semicolons, or after a comma --------------------------------------------


def test_named_segments_reads_a_list_set_apart_by_semicolons() -> None:
    """'… five operating segments: North America Retail; Convenience Stores & Foodservice; Europe & Australia; Asia &
    Latin America; and Pet.' gives the five names, in order."""
    text = (f"{CO} manages its business under five operating segments: North America Retail; Convenience Stores & "
            "Foodservice; Europe & Australia; Asia & Latin America; and Pet.")
    assert named_segments([text]) == ["North America Retail", "Convenience Stores & Foodservice",
                                      "Europe & Australia", "Asia & Latin America", "Pet"]


def test_named_segments_reads_a_list_after_a_comma() -> None:
    """'we have two reportable segments, Flexibles and Rigid Packaging.' gives the two."""
    assert named_segments(["In packaging we have two reportable segments, Flexibles and Rigid Packaging."]) == [
        "Flexibles", "Rigid Packaging"]


def test_named_segments_keeps_the_comma_lists() -> None:
    """A comma list after a colon, one after 'are', and one that a semicolon ends are read as before (behaviour
    kept)."""
    names = ["Home Care", "Industrial Coatings", "Specialty Materials"]
    assert named_segments([f"{CO} has three reportable segments: Home Care, Industrial Coatings and Specialty "
                           "Materials."]) == names
    assert named_segments([f"{CO}'s reportable segments are Home Care, Industrial Coatings, and Specialty "
                           "Materials."]) == names
    assert named_segments(["We have three reportable segments: Home Care, Industrial Coatings and Specialty "
                           "Materials; each is managed separately."]) == names


# --- 7. 'What were its four business segments?' -----------------------------------------------------------------

FOUR = ("Business Segments\nWe manage our business under four business segments: Home Care; Industrial Coatings; "
        "Specialty Materials; and Consumer Health. Each segment is managed separately.\n")
THREE = ("Business Segments\nWe have three reportable segments: Home Care, Industrial Coatings and Specialty "
         "Materials.\n")
MARGINS = ("Segment operating margin\nYear ended December 31,\n2022 2021\nHome Care 18.2 % 17.5 %\n"
           "Industrial Coatings 12.1 % 13.0 %\nSpecialty Materials 9.4 % 10.2 %\nConsumer Health 15.0 % 14.1 %\n")


def test_the_segments_asked_are_listed_as_the_report_names_them() -> None:
    """'What were Harrowgate's four business segments in 2022?': "Harrowgate reported four business segments in
    FY2022: Home Care; Industrial Coatings; Specialty Materials; and Consumer Health", the sentence quoted."""
    question = f"What were {CO}'s four business segments in 2022?"
    said = Analyst(_state(question, [_block(1, FOUR, 4)], [2022]), question).first_sentences()
    assert said[0] == (f"{CO} reported four business segments in FY2022: Home Care; Industrial Coatings; Specialty "
                       "Materials; and Consumer Health [1]."), said
    assert any("We manage our business under four business segments" in s for s in said[1:]), said


def test_the_segments_of_the_year_asked_come_from_that_years_report() -> None:
    """With the FY2022 report (four segments) first and the FY2021 one (three) after it, 'What were Harrowgate's
    reportable segments in 2021?' lists the FY2021 report's three."""
    question = f"What were {CO}'s reportable segments in 2021?"
    blocks = [_block(1, FOUR, 4), _block(2, THREE, 4, year=2021)]
    draft = compose_offline(_state(question, blocks, [2021]))
    assert draft.startswith(f"{CO} reported three reportable segments in FY2021: Home Care; Industrial Coatings; "
                            "and Specialty Materials [2]."), draft
    assert "Consumer Health" not in draft, draft


def test_which_segment_did_best_is_not_asked_as_a_list_of_segments() -> None:
    """'Which of Harrowgate's segments had the highest operating margin in 2022?' asks which one did best: not
    read as asking the segments, and answered with Home Care's 18.2%."""
    from app.models.providers.offline.composer.analyst import _OF_SEGMENTS, _SEGMENTS_ASKED

    listing = f"What were {CO}'s four business segments in 2022?"
    best = f"Which of {CO}'s segments had the highest operating margin in 2022?"
    assert _SEGMENTS_ASKED.search(listing) and not _OF_SEGMENTS.search(listing)
    assert _SEGMENTS_ASKED.search(best) and _OF_SEGMENTS.search(best)
    draft = compose_offline(_state(best, [_block(1, FOUR, 4), _block(2, MARGINS, 40)], [2022]))
    assert not draft.startswith(f"{CO} reported four"), draft
    assert draft.startswith("Home Care had the highest operating margin in FY2022: 18.2%"), draft


# --- 8. a metric asked of one segment ---------------------------------------------------------------------------

HOME_MARGIN = f"What was {CO}'s Home Care operating margin in 2022?"
HOME_RESULTS = ("Home Care financial results\n(in millions)\nYear ended December 31,\n2022 2021\n"
                "Net sales $ 4,000 $ 3,800\nOperating income 760 800\n")


def _figure(label: str, value: float, year: int, segment: str | None = None) -> Figure:
    return Figure(label=label, value=value, unit="$m", company=CO, fiscal_year=year, period=f"FY{year}",
                  source_id="HARROWGATE_2022_10K:p40", chunk_id="HARROWGATE_2022_10K:p40::0", segment=segment,
                  origin="table")


COMPANY_ROWS = [_figure("Net sales", 12000.0, 2022), _figure("Operating income", 1800.0, 2022),
                _figure("Net sales", 11000.0, 2021), _figure("Operating income", 1500.0, 2021)]
COATINGS_ROWS = [_figure("Industrial Coatings: Net sales", 3000.0, 2022, "Industrial Coatings"),
                 _figure("Industrial Coatings: Operating income", 300.0, 2022, "Industrial Coatings")]
HOME_ROWS = [_figure("Home Care: Net sales", 4000.0, 2022, "Home Care"),
             _figure("Home Care: Operating income", 760.0, 2022, "Home Care"),
             _figure("Home Care: Net sales", 3800.0, 2021, "Home Care"),
             _figure("Home Care: Operating income", 800.0, 2021, "Home Care")]


def test_a_segment_reader_reads_the_segments_rows_only() -> None:
    """'Home Care: Net sales' is read as 'Net sales', 'Home Care Operating Income' as 'Operating Income', a figure
    whose segment is Home Care as its own label; another segment's figure and the company's are None; a question
    of the company has no reader."""
    from app.metric_plans import segment_reader

    read = segment_reader(HOME_MARGIN, CO)
    assert read is not None
    assert read(_figure("Home Care: Net sales", 1.0, 2022)) == "Net sales"
    assert read(_figure("Home Care Operating Income", 1.0, 2022)) == "Operating Income"
    assert read(_figure("Net sales", 1.0, 2022, "Home Care")) == "Net sales"
    assert read(_figure("Industrial Coatings: Net sales", 1.0, 2022)) is None
    assert read(_figure("Operating income", 1.0, 2022, "Industrial Coatings")) is None
    assert read(_figure("Net sales", 1.0, 2022)) is None
    assert segment_reader(f"What was {CO}'s operating margin in 2022?", CO) is None


def test_a_segments_operating_margin_is_planned_from_its_own_rows() -> None:
    """Beside the company's and Industrial Coatings' rows: Home Care's operating income ($760m) over its net sales
    ($4,000m), never the company's $1,800m over $12,000m."""
    plans = metric_plans(HOME_MARGIN, [*COMPANY_ROWS, *COATINGS_ROWS, *HOME_ROWS])
    assert plans is not None and len(plans) == 1, plans
    plan = plans[0]
    assert plan.args["name"] == "operating margin"
    assert plan.args["inputs"] == {"operating_income_2022": 760.0, "revenue_2022": 4000.0}
    assert {f.segment for f in plan.sources.values()} == {"Home Care"}
    assert plan.missing == []


def test_a_segments_margin_is_missing_rather_than_the_companys() -> None:
    """With no Home Care rows held, the plan names its inputs missing: the company's rows are not used in their
    place."""
    plans = metric_plans(HOME_MARGIN, [*COMPANY_ROWS, *COATINGS_ROWS])
    assert plans is not None and len(plans) == 1, plans
    assert plans[0].args["inputs"] == {}
    assert set(plans[0].missing) == {"operating_income_2022", "revenue_2022"}


def test_segment_inputs_are_the_segments_rows_labelled_with_it() -> None:
    """From Home Care's results table beside the consolidated statement: its operating income and net sales for
    both years, each labelled 'Home Care: …' and carrying the segment; the consolidated figures are not among
    them; a question of the company gives none."""
    from nodes.facts import segment_inputs

    consolidated = ("Consolidated Statements of Income\n(in millions)\nYear ended December 31,\n2022 2021\n"
                    "Net sales $ 12,000 $ 11,000\nOperating income 1,800 1,500\n")
    docs = [_evidence(consolidated, 30), _evidence(HOME_RESULTS, 40)]
    rows = segment_inputs(HOME_MARGIN, read_query(HOME_MARGIN, [CO]), docs, [CO])
    read = {(f.label, f.fiscal_year): f.value for f in rows}
    assert read == {("Home Care: Operating income", 2022): 760.0, ("Home Care: Operating income", 2021): 800.0,
                    ("Home Care: Net sales", 2022): 4000.0, ("Home Care: Net sales", 2021): 3800.0}, read
    assert {f.segment for f in rows} == {"Home Care"}
    plain = f"What was {CO}'s operating margin in 2022?"
    assert segment_inputs(plain, read_query(plain, [CO]), docs, [CO]) == []


def _margins(question: str) -> list[CalcResult]:
    """The calculator's results for the plans of the question over Home Care's and the company's rows."""
    return [metric(**p.args).model_copy(update={"sources": p.sources})
            for p in metric_plans(question, [*COMPANY_ROWS, *HOME_ROWS]) or []]


def test_a_segments_metric_is_told_with_the_segments_name() -> None:
    """The lead sentence of Home Care's operating margin names the segment: "Harrowgate's Home Care operating
    margin was 19% in FY2022"."""
    results = _margins(HOME_MARGIN)
    assert len(results) == 1 and results[0].result == 19.0, results
    assert lead_sentence(results[0], HOME_MARGIN) == f"{CO}'s Home Care operating margin was 19% in FY2022"


# --- 9. 'Was its Home Care business getting more profitable?' -----------------------------------------------------

MORE = f"Was {CO}'s Home Care business getting more profitable in 2022?"
LESS = f"Was {CO}'s Home Care business getting less profitable in 2022?"


def test_getting_more_profitable_is_a_judgement_of_improving_margins() -> None:
    """'getting more profitable' asks the margin's trend: the 'improving margins' convention (rule 'rising') and
    judgement, decided by the operating margin; 'less profitable' is the same judgement."""
    convention = convention_for(MORE)
    assert convention is not None and convention.topic == "improving margins"
    assert convention.rule == "rising"
    for question in (MORE, LESS):
        topic, metrics = judgement(question) or ("", [])
        assert topic == "improving margins", question
        assert [m.name for m in metrics] == ["operating margin"], question


def test_the_segments_margin_in_both_years_decides_whether_it_got_more_profitable() -> None:
    """With Home Care's operating margin computed for FY2021 (21.05%) and FY2022 (19%): 'No.', the margin fell;
    asked 'less profitable', 'Yes.'."""
    results = _margins(MORE)
    assert sorted(r.result for r in results) == [19.0, 21.05], results
    blocks = [_block(1, HOME_RESULTS, 40),
              Block(n=2, kind="calculation", header="[2] calculation (ok)", text="operating margin: 21.05%\n"
                    "operating margin: 19.0%", source_id="calculation", chunk_id="calculation")]
    outcome = CalculationOutcome(status="ok", results=results)
    said = Analyst(_state(MORE, blocks, [2022], calculation=outcome), MORE).profitability_change()
    assert said and said[0].startswith(f"No. {CO}'s Home Care operating margin fell from 21.05% in FY2021 to 19% "
                                       "in FY2022"), said
    reversed_ = Analyst(_state(LESS, blocks, [2022], calculation=outcome), LESS).profitability_change()
    assert reversed_ and reversed_[0].startswith("Yes."), reversed_


def test_without_margins_the_segments_profit_rows_decide() -> None:
    """With no calculation, Home Care's own operating income rows: 'No.', it fell to $760m in FY2022 from $800m;
    'less profitable' reverses the verdict."""
    draft = compose_offline(_state(MORE, [_block(1, HOME_RESULTS, 40)], [2022]))
    assert draft.startswith(f"No. {CO}'s Home Care operating income fell to $760m in FY2022 from $800m"), draft
    assert compose_offline(_state(LESS, [_block(1, HOME_RESULTS, 40)], [2022])).startswith("Yes.")


def test_the_segments_pretax_income_in_a_sentence_decides() -> None:
    """'For 2022, the segment reported pretax income of $578 million, compared with $929 million a year ago' on the
    Home Care pages: 'No. … pretax income fell to $578m in FY2022 from $929m a year earlier'."""
    text = ("Home Care\nFor 2022, the segment reported pretax income of $578 million, compared with $929 million a "
            "year ago, primarily due to higher raw material costs.\n")
    state = _state(MORE, [_block(1, text, 52)], [2022])
    said = Analyst(state, MORE).profitability_change()
    assert said and said[0].startswith(f"No. {CO}'s Home Care pretax income fell to $578m in FY2022 from $929m a "
                                       "year earlier"), said
    assert said[0].endswith("[1]."), said


def test_another_segments_profit_does_not_decide() -> None:
    """Industrial Coatings' pretax income, on its own pages, does not answer whether Home Care got more
    profitable."""
    text = ("Industrial Coatings\nFor 2022, the segment reported pretax income of $578 million, compared with $929 "
            "million a year ago.\n")
    state = _state(MORE, [_block(1, text, 53)], [2022])
    assert Analyst(state, MORE).profitability_change() == []
    assert "$578m" not in compose_offline(state)


def test_a_stacked_segment_table_gives_each_input_from_its_own_block() -> None:
    """A segment table stacked by line item ('Net sales' over a row per segment, then 'Operating income' over a row
    per segment): the segment's net sales come from the first block and its operating income from the second,
    never one row for both (which made a 100% margin)."""
    from nodes.facts import segment_inputs

    text = ("Segment results\n(in millions) 2022 2021\nNet sales\nHome Care $ 4,000 $ 3,800\n"
            "Industrial Coatings $ 8,000 $ 7,600\nTotal net sales $ 12,000 $ 11,400\nOperating income\n"
            "Home Care $ 760 $ 800\nIndustrial Coatings $ 1,040 $ 1,000\nTotal operating income $ 1,800 $ 1,800\n")
    question = f"What was {CO}'s Home Care operating margin in 2022?"
    got = {(f.label.split(": ", 1)[-1].lower(), f.fiscal_year): f.value
           for f in segment_inputs(question, read_query(question, [CO]), [_evidence(text, 40)], [CO])}
    assert got[("operating income", 2022)] == 760.0
    assert got[("revenue", 2022)] == 4000.0
    assert 760.0 not in {v for (name, _), v in got.items() if name == "revenue"}
    assert 4000.0 not in {v for (name, _), v in got.items() if name == "operating income"}


def test_a_part_named_after_the_company_is_searched_by_its_whole_name() -> None:
    """'MGM China' of MGM Resorts, 'Harrowgate Labs' of Harrowgate: the company's first word right before another
    capitalised word names a part, whose whole name the keyword query keeps; the company's own name, followed by a
    possessive or by its own words, is still left out."""
    from nodes.rewrite import keyword_query

    assert keyword_query(f"What were {CO}'s {CO} Labs net revenues in the second quarter of 2023?", [CO]) \
        .startswith(f"{CO} Labs net revenues")
    assert CO not in keyword_query(f"What was {CO}'s revenue in 2022?", [CO])
    assert "Industries" not in keyword_query(f"What was {CO} Industries' revenue in 2022?", [f"{CO} Industries"])


def test_a_move_worded_by_quality_leaves_the_yes_no_to_the_two_figures() -> None:
    """'Did its net leverage deteriorate over FY2022?' with 'Net leverage improved to 2.6x adjusted EBITDA (FY2021:
    2.8x)': 'improved' is lower for leverage, so the sentence's word is no rise; the answer is 'No.', the leverage
    having fallen from 2.8x to 2.6x (the sentence's move read first only when worded by size)."""
    from app.models.providers.offline.composer.analyst import Analyst

    state = _state("Did Harrowgate's net leverage deteriorate over FY2022?",
                   [_block(1, "Net debt\nNet leverage improved to 2.6x adjusted EBITDA (FY2021: 2.8x).", page=30)],
                   [2022])
    lead = Analyst(state, "Did Harrowgate's net leverage deteriorate over FY2022?").first_sentences()[0]
    assert lead.startswith("No.")
    assert "rose" not in lead


def test_the_company_before_a_dropped_verb_is_no_part_named_after_it() -> None:
    """'What acquisitions has Harrowgate done in FY2023?': the word after the company's name in the keyword query
    ('FY2023', once 'has' is dropped) was not after it in the question, so the name is left out as before."""
    from nodes.rewrite import keyword_query

    assert CO not in keyword_query(f"What are major acquisitions that {CO} has done in FY2023, FY2022 and FY2021?",
                                   [CO])
    assert CO not in keyword_query(f"How much was the change in Sales for {CO} in FY 2023 vs FY 2022?", [CO])


def test_scaling_back_buybacks_asks_whether_they_fell() -> None:
    """'Did Harrowgate scale back its share buybacks in the first quarter of 2021 compared with a year earlier?' asks
    a fall ('scale back', 'pull back', 'rein in' are cuts), of the share buybacks, which a row 'Aggregate purchase
    price of common stock repurchases' states."""
    from app.metrics import items_named

    question = f"Did {CO} scale back its share buybacks in the first quarter of 2021 compared with a year earlier?"
    ask = read_ask(question)
    assert ask.kind == "yes_no_change" and ask.direction == -1
    assert read_ask(f"Did {CO} rein in its capital spending in 2021?").direction == -1
    assert "share_repurchases" in items_named("Aggregate purchase price of common stock repurchases")


def test_more_leveraged_than_a_year_earlier_is_the_leverage_trend() -> None:
    """'Is Harrowgate more leveraged at the end of fiscal 2020 than it was a year earlier?' asks leverage's move
    (the 'rising leverage' convention, rule 'rising'), judged by the leverage ratio the report states for both
    years or the debt-to-equity ratio the calculator works out; 'highly leveraged' stays the threshold judgement."""
    from app.metrics import judgement

    convention = convention_for(f"Is {CO} more leveraged at the end of fiscal 2020 than it was a year earlier?")
    assert convention is not None and convention.topic == "rising leverage" and convention.rule == "rising"
    assert judgement(f"Is {CO} more leveraged at the end of fiscal 2020 than it was a year earlier?")[0] == \
        "rising leverage"
    assert convention_for(f"Is {CO} highly leveraged?").topic == "highly leveraged"
