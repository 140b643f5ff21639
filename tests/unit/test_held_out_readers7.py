"""Held-out misses, read generally (seventh set): 'Did bitcoin bring in more revenue than the transaction-based
business in 2020?' read as two lines of one company (a trailing 'business' or 'segment' is the measure's), 'more'
asking the first to be the larger and 'less' the smaller, and answered 'Yes.'/'No.' by the two lines of the year
asked, both figures cited; a sentence that gives one figure for several parts together ('the Starfall, Ironclad and
Moonrise franchises, collectively, accounted for 58%') no answer for one of them alone; a part named with 'of' or
'and' inside ('the Lord of Embers franchise', 'Safety and Graphics') read whole, the kind of part ('franchise',
'brand') no word of the measure; 'as of <date>', 'as at <date>' and 'on <date>' leaving no word dangling on a
compared side; two members' counts, each stated in its own sentence, compared when no table breaks the measure
down; the part a member belongs to, named after the measure ('in the Corporate & Investment Bank'), no word of the
measure; a change stated after a comma (', up 187%', ', down 7%') a stated move; a second count asked (', and in how
many countries?') added from the sentence the answer quotes.

Functions added by the changes under test are imported inside their tests, so that each test fails on its own on
the code before them.

Every company, page and figure here is made up (Pemberley, a games, packaging, payments and banking group whose
parts include the Starfall, Ironclad, Moonrise and Lord of Embers franchises, the Flexibles and Rigid Packaging
segments, Safety and Graphics, and an Investment Banking business inside its Corporate & Investment Bank).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import members_query, read_query
from app.models.providers.offline.composer import compose_offline
from app.models.providers.offline.composer.analyst import Analyst
from app.routing.decision import RouteDecision
from app.text.measures import measure_asked, members_compared
from app.text.question_kinds import read_ask
from app.turns import Block
from nodes.assemble import evidence_header
from prompts.answer import INSUFFICIENT_EVIDENCE

CO = "Pemberley"


def _block(n: int, text: str, page: int, year: int = 2020) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {CO} FY{year} p.{page}", text=text,
                 source_id=f"PEMBERLEY_{year}_10K:p{page}", chunk_id=f"PEMBERLEY_{year}_10K:p{page}::0", company=CO,
                 fiscal_year=year, page=page)


def _quarter_block(n: int, text: str, page: int, filing: str = "PEMBERLEY_2021Q1_10Q") -> Block:
    """A block of a first quarter's 10-Q, its header naming the filing's quarter."""
    doc = Evidence(chunk_id=f"{filing}:p{page}::0", source_id=f"{filing}:p{page}", title=filing, company=CO,
                   fiscal_year=2021, page=page, text=text)
    return Block(n=n, kind="report", header=evidence_header(n, doc), text=text, source_id=doc.source_id,
                 chunk_id=doc.chunk_id, title=filing, company=CO, fiscal_year=2021, page=page)


def _state(question: str, blocks: list[Block], years: list[int], **more: object) -> dict[str, object]:
    return {"question": question, "companies": [CO], "fiscal_years": years, "blocks": blocks,
            "decision": RouteDecision(needs_retrieval=True), **more}


# --- 1. 'Did A bring in more revenue than B?' ---------------------------------------------------------------------

MORE_BITCOIN = f"Did bitcoin bring in more revenue than the transaction-based business at {CO} in 2020?"
LESS_BITCOIN = f"Did bitcoin bring in less revenue than the transaction-based business at {CO} in 2020?"
BY_SOURCE = ("Revenue by source\n(in thousands)\nYear Ended December 31,\n2020 2019\n"
             "Transaction-based revenue $ 2,412,300 $ 2,198,400\n"
             "Subscription and services-based revenue 1,120,500 864,200\nHardware revenue 74,800 61,900\n"
             "Bitcoin revenue 2,986,100 402,700\nTotal net revenue $ 6,593,700 $ 3,527,200\n")


def test_more_revenue_than_another_business_reads_two_lines() -> None:
    """'Did bitcoin bring in more revenue than the transaction-based business at Pemberley in 2020?' is a plain
    yes/no of two lines, bitcoin revenue and transaction-based revenue ('business' is the measure's: its revenue),
    asking the first to be the larger."""
    from app.text.measures import lines_more_than

    assert read_ask(MORE_BITCOIN).kind == "yes_no"
    read = lines_more_than(MORE_BITCOIN, [CO])
    assert read is not None
    lines, more = read
    assert (lines.first, lines.second) == ("bitcoin revenue", "transaction-based revenue")
    assert more is True


def test_less_revenue_than_another_business_asks_the_first_to_be_smaller() -> None:
    """The same question with 'less' reads the same two lines, asking the first to be the smaller (False); a
    trailing 'segment' is the measure's as 'business' is."""
    from app.text.measures import lines_more_than

    read = lines_more_than(LESS_BITCOIN, [CO])
    assert read is not None
    assert (read[0].first, read[0].second) == ("bitcoin revenue", "transaction-based revenue")
    assert read[1] is False
    segment = lines_more_than(f"Did hardware bring in more revenue than the transaction-based segment at {CO} in "
                              "2020?", [CO])
    assert segment is not None
    assert (segment[0].first, segment[0].second, segment[1]) == ("hardware revenue", "transaction-based revenue",
                                                                 True)


def test_a_question_of_another_form_reads_no_two_lines() -> None:
    """A 'which was larger, A or B?' question, a yes/no on a rise, and 'more cash than debt' with no verb of
    bringing in are not read as 'did A bring in more than B': None."""
    from app.text.measures import lines_more_than

    for question in (f"Which was larger for {CO} in 2020, bitcoin revenue or transaction-based revenue?",
                     f"Did {CO}'s revenue grow in 2020?",
                     f"Did {CO} have more cash than debt in 2020?",
                     f"What was {CO}'s bitcoin revenue in 2020?"):
        assert lines_more_than(question, [CO]) is None, question


def test_yes_when_the_first_line_is_the_larger_in_the_year_asked() -> None:
    """With the revenue-by-source table held: 'Yes. Bitcoin revenue in FY2020 was larger than transaction-based
    revenue: $2,986,100k against $2,412,300k', cited."""
    draft = compose_offline(_state(MORE_BITCOIN, [_block(1, BY_SOURCE, 60)], [2020]))
    assert draft.startswith("Yes. Bitcoin revenue in FY2020 was larger than transaction-based revenue: $2,986,100k "
                            "against $2,412,300k [1]."), draft


def test_no_when_the_first_line_is_the_smaller_in_the_year_asked() -> None:
    """Asked of 2019, when bitcoin brought in $402,700k against transaction-based revenue's $2,198,400k: 'No.',
    the larger line first, both of 2019; asked of hardware in 2020, 'No.' as well."""
    question = f"Did bitcoin bring in more revenue than the transaction-based business at {CO} in 2019?"
    draft = compose_offline(_state(question, [_block(1, BY_SOURCE, 60)], [2019]))
    assert draft.startswith("No. Transaction-based revenue in FY2019 was larger than bitcoin revenue: $2,198,400k "
                            "against $402,700k [1]."), draft
    assert "2,986,100" not in draft, draft
    hardware = f"Did hardware bring in more revenue than the transaction-based business at {CO} in 2020?"
    said = Analyst(_state(hardware, [_block(1, BY_SOURCE, 60)], [2020]), hardware).first_sentences()
    assert said and said[0].startswith("No. Transaction-based revenue in FY2020 was larger than hardware revenue: "
                                       "$2,412,300k against $74,800k"), said


def test_less_asked_turns_the_verdict() -> None:
    """'Did bitcoin bring in less revenue …?' in 2020, when it brought in more: 'No.'; 'Did hardware bring in less
    revenue …?': 'Yes.'; the figures are told as before."""
    said = Analyst(_state(LESS_BITCOIN, [_block(1, BY_SOURCE, 60)], [2020]), LESS_BITCOIN).first_sentences()
    assert said and said[0].startswith("No. Bitcoin revenue in FY2020 was larger than transaction-based revenue: "
                                       "$2,986,100k against $2,412,300k"), said
    hardware = f"Did hardware bring in less revenue than the transaction-based business at {CO} in 2020?"
    draft = compose_offline(_state(hardware, [_block(1, BY_SOURCE, 60)], [2020]))
    assert draft.startswith("Yes. Transaction-based revenue in FY2020 was larger than hardware revenue"), draft


# --- 2. a share stated for several parts together is none of them alone -------------------------------------------

JOINT = ("Product sales\nIn 2020, the Starfall, Ironclad and Moonrise franchises, collectively, accounted for 58% of "
         "our consolidated net revenues.\n")
ALONE = "Product sales\nIn 2020, the Starfall franchise accounted for 23% of our consolidated net revenues.\n"
ON_ITS_OWN = f"What percentage of {CO}'s 2020 net revenues came from the Starfall franchise on its own?"


def test_jointly_stated_reads_one_figure_given_for_a_list_of_parts() -> None:
    """Each name of a list given one figure with 'collectively', 'combined', 'together' or 'in aggregate' is
    jointly stated, first, middle or last in the list."""
    from app.models.providers.offline.composer.analyst import jointly_stated

    sentence = " ".join(JOINT.split("\n")[1].split())
    for name in ("Starfall", "Ironclad", "Moonrise"):
        assert jointly_stated(sentence, name), name
    for sentence in ("In 2020, the Starfall, Ironclad and Moonrise franchises combined accounted for 58% of our net "
                     "revenues.",
                     "Together, the Starfall, Ironclad and Moonrise franchises accounted for 58% of our net revenues.",
                     "Starfall, Ironclad and Moonrise, in aggregate, accounted for 58% of net revenues in 2020."):
        assert jointly_stated(sentence, "Starfall") and jointly_stated(sentence, "Moonrise"), sentence


def test_jointly_stated_is_false_outside_the_list_or_without_a_joint_word() -> None:
    """A name the list does not hold, a name the sentence states on its own beside a joint list, and a list with
    no word that makes its figure a joint one are not jointly stated."""
    from app.models.providers.offline.composer.analyst import jointly_stated

    sentence = " ".join(JOINT.split("\n")[1].split())
    assert not jointly_stated(sentence, "Lord of Embers")
    beside = ("Our Skyforge franchise grew 12%, while the Starfall, Ironclad and Moonrise franchises together "
              "accounted for 58% of net revenues.")
    assert not jointly_stated(beside, "Skyforge")
    assert jointly_stated(beside, "Ironclad")
    plain = ("In 2020, the Starfall, Ironclad and Moonrise franchises accounted for 58% of our consolidated net "
             "revenues.")
    assert not jointly_stated(plain, "Starfall")
    assert not jointly_stated(" ".join(ALONE.split("\n")[1].split()), "Starfall")


def test_a_share_of_several_franchises_together_is_no_answer_for_one() -> None:
    """'What percentage of Pemberley's 2020 net revenues came from the Starfall franchise on its own?' with only
    the sentence that gives three franchises' 58% together: the declared insufficient answer, never 58%."""
    state = _state(ON_ITS_OWN, [_block(1, JOINT, 12)], [2020])
    assert Analyst(state, ON_ITS_OWN).first_sentences() == []
    draft = compose_offline(state)
    assert draft == INSUFFICIENT_EVIDENCE, draft
    assert "58%" not in draft


def test_a_sentence_of_the_franchise_alone_answers() -> None:
    """With the sentence that states the Starfall franchise alone held beside the joint one: its 23%, quoted and
    cited to its own block; the joint 58% is not told, and 'franchise' is no word of the measure named."""
    draft = compose_offline(_state(ON_ITS_OWN, [_block(1, JOINT, 12), _block(2, ALONE, 13)], [2020]))
    lead = draft.split(" The report says", 1)[0]
    assert lead == f"{CO}'s Starfall percentage of net revenues was 23% in FY2020 [2].", draft
    assert '"In 2020, the Starfall franchise accounted for 23% of our consolidated net revenues." [2]' in draft
    assert "58%" not in draft, draft


# --- 3. a part named with 'of' or 'and' inside, and the kind of part ------------------------------------------------


def test_a_franchise_named_with_of_inside_is_read_whole() -> None:
    """'… came from the Lord of Embers franchise?': the segment is 'Lord of Embers', and neither 'franchise' nor
    'Embers' is a word of the measure (percentage of net revenues)."""
    question = f"What percentage of {CO}'s 2020 net revenues came from the Lord of Embers franchise?"
    for asked in (measure_asked(question, [CO]), read_query(question, [CO]).measure):
        assert asked.segment == "Lord of Embers"
        assert asked.phrase == "percentage of net revenues"
        assert not {"franchise", "embers"} & set(asked.phrase.lower().split())


def test_a_part_named_with_and_inside_is_read_whole() -> None:
    """'What share of Pemberley's 2022 net sales came from Safety and Graphics?': the part is 'Safety and
    Graphics', the measure the share of net sales."""
    asked = measure_asked(f"What share of {CO}'s 2022 net sales came from Safety and Graphics?", [CO])
    assert (asked.segment, asked.phrase) == ("Safety and Graphics", "share of net sales")


def test_the_kind_of_part_after_its_name_is_no_word_of_the_measure() -> None:
    """'the Starfall franchise', 'the Hearthline brand': the part is the name, the measure the percentage of net
    revenues, with no 'franchise' or 'brand' in it."""
    for question, name in ((ON_ITS_OWN, "Starfall"),
                           (f"What percentage of {CO}'s 2020 net revenues came from the Hearthline brand?",
                            "Hearthline")):
        asked = measure_asked(question, [CO])
        assert (asked.segment, asked.phrase) == (name, "percentage of net revenues"), question


# --- 4. 'as of <date>' leaves nothing dangling --------------------------------------------------------------------

WORKFORCE = (f"How does the workforce of {CO}'s Flexibles segment compare with that of its Rigid Packaging segment "
             "as of June 30, 2023?")


def test_as_of_a_date_leaves_no_dangling_as() -> None:
    """The second side of the workforce question ends in 'as of June 30, 2023': the member is 'Rigid Packaging',
    with no 'segment as' left over."""
    pair = members_compared(WORKFORCE, [CO])
    assert pair is not None
    assert (pair.first, pair.second, pair.measure) == ("Flexibles", "Rigid Packaging", "workforce")
    assert not pair.of_change


def test_as_at_and_on_a_date_leave_nothing_dangling_either() -> None:
    """'as at 30 June 2023' and 'on June 30, 2023' leave the same member."""
    for when in ("as at 30 June 2023", "on June 30, 2023"):
        pair = members_compared(WORKFORCE.replace("as of June 30, 2023", when), [CO])
        assert pair is not None, when
        assert (pair.first, pair.second) == ("Flexibles", "Rigid Packaging"), when


# --- 5. two members' counts, each from its own sentence -------------------------------------------------------------

FLEXIBLES = ("Flexibles Segment\nWith approximately 31,000 employees at 148 facilities in 33 countries, the "
             "Flexibles Segment is a leading supplier of flexible packaging.\n")
RIGID = ("Rigid Packaging Segment\nAs of June 30, 2023, the Rigid Packaging Segment employed approximately 4,600 "
         "employees at 47 facilities in 9 countries.\n")


def test_two_members_counts_are_compared_from_their_own_sentences() -> None:
    """With each segment's workforce stated in its own sentence and no table breaking it down: "Flexibles'
    workforce was larger than Rigid Packaging's: 31,000 against 4,600", both sentences quoted, each cited."""
    state = _state(WORKFORCE, [_block(1, FLEXIBLES, 8, 2023), _block(2, RIGID, 9, 2023)], [2023])
    said = Analyst(state, WORKFORCE).first_sentences()
    assert said and said[0] == ("Flexibles' workforce was larger than Rigid Packaging's: 31,000 against 4,600 "
                                "[1][2]."), said
    assert any(s.startswith('The report says: "With approximately 31,000 employees') and s.endswith("[1].")
               for s in said[1:]), said
    assert any(s.startswith('The report says: "As of June 30, 2023, the Rigid Packaging Segment employed') and
               s.endswith("[2].") for s in said[1:]), said


def test_the_larger_member_is_told_first_whichever_is_asked_first() -> None:
    """Asked Rigid Packaging first, the answer still opens with the larger, Flexibles."""
    question = (f"How does the workforce of {CO}'s Rigid Packaging segment compare with that of its Flexibles "
                "segment as of June 30, 2023?")
    draft = compose_offline(_state(question, [_block(1, RIGID, 9, 2023), _block(2, FLEXIBLES, 8, 2023)], [2023]))
    assert draft.startswith("Flexibles' workforce was larger than Rigid Packaging's: 31,000 against 4,600"), draft


def test_one_members_sentence_alone_answers_nothing() -> None:
    """With only the Flexibles sentence held (or only the Rigid Packaging one), members_in_sentences gives nothing,
    and the answer is the declared insufficient one: one member's count is no comparison."""
    pair = members_compared(WORKFORCE, [CO])
    assert pair is not None
    for block in (_block(1, FLEXIBLES, 8, 2023), _block(1, RIGID, 9, 2023)):
        state = _state(WORKFORCE, [block], [2023])
        analyst = Analyst(state, WORKFORCE)
        assert analyst.members_in_sentences(pair, members_query(analyst.query, pair.measure, [CO])) == []
        assert compose_offline(state) == INSUFFICIENT_EVIDENCE


# --- 6. the part a member belongs to, named after the measure ------------------------------------------------------

IB_IN_CIB = (f"By how much did {CO}'s Investment Banking revenue in the Corporate & Investment Bank grow in the first "
             "quarter of 2021?")
IB = f"By how much did {CO}'s Investment Banking revenue grow in the first quarter of 2021?"
HIGHLIGHTS = ("First-quarter highlights\n• Investment Banking revenue was $3.4 billion, up 187%, driven by higher "
              "advisory fees\n• Markets revenue was $6.1 billion, down 7%, on lower client activity\n")


def test_the_part_a_member_belongs_to_is_no_word_of_the_measure() -> None:
    """'Investment Banking revenue in the Corporate & Investment Bank': the segment is Investment Banking and the
    measure 'revenue', with none of 'Corporate', 'Investment' or 'Bank' left in it; a region there ('Cash App
    revenue in the United States') is read as before, the region the part."""
    for asked in (measure_asked(IB_IN_CIB, [CO]), read_query(IB_IN_CIB, [CO]).measure):
        assert (asked.segment, asked.phrase) == ("Investment Banking", "revenue")
    region = measure_asked(f"By how much did {CO}'s Cash App revenue in the United States grow in 2021?", [CO])
    assert (region.segment, region.phrase) == ("United States", "Cash App revenue")


def test_the_member_in_its_parent_is_answered_from_its_own_sentence() -> None:
    """The question naming the Corporate & Investment Bank is answered as the one without it: Investment Banking
    revenue rose 187% to $3.4bn in Q1 FY2021."""
    draft = compose_offline(_state(IB_IN_CIB, [_quarter_block(1, HIGHLIGHTS, 3)], [2021]))
    assert draft.startswith(f"{CO}'s Investment Banking revenue rose 187% to $3.4bn in Q1 FY2021 [1]."), draft


# --- 7. a change stated after a comma ------------------------------------------------------------------------------


def test_a_change_after_a_comma_is_a_stated_move() -> None:
    """', up 187%' is a rise and ', down 7%' a fall; 'picked up 5 new mandates' and ', up from 4,000' (no rate
    follows) are no stated move."""
    from app.models.providers.offline.composer.analyst import _STATED_MOVE

    up = _STATED_MOVE.search("Investment Banking revenue was $3.4 billion, up 187%, driven by higher advisory fees")
    assert up is not None and up.group("up") == "up" and up.group("down") is None
    down = _STATED_MOVE.search("Markets revenue was $6.1 billion, down 7%, on lower client activity")
    assert down is not None and down.group("down") == "down" and down.group("up") is None
    assert _STATED_MOVE.search("The Markets team picked up 5 new mandates") is None
    assert _STATED_MOVE.search("Headcount was 5,000, up from 4,000") is None


def test_up_after_a_comma_answers_by_how_much_it_grew() -> None:
    """'By how much did Pemberley's Investment Banking revenue grow in the first quarter of 2021?' with the
    bullet '• Investment Banking revenue was $3.4 billion, up 187%, …': "Pemberley's Investment Banking revenue
    rose 187% to $3.4bn in Q1 FY2021", the bullet quoted without its mark."""
    said = Analyst(_state(IB, [_quarter_block(1, HIGHLIGHTS, 3)], [2021]), IB).first_sentences()
    assert said and said[0] == f"{CO}'s Investment Banking revenue rose 187% to $3.4bn in Q1 FY2021 [1].", said
    assert 'The report says: "Investment Banking revenue was $3.4 billion, up 187%, driven by higher advisory fees' \
        in " ".join(said[1:]), said
    assert "$6.1" not in " ".join(said), said


def test_down_after_a_comma_answers_by_how_much_it_fell() -> None:
    """'By how much did Pemberley's Markets revenue decline …?': it fell 7% to $6.1bn in Q1 FY2021; asked as a
    yes/no ('Did … fall …?'), 'Yes.' with the same."""
    question = f"By how much did {CO}'s Markets revenue decline in the first quarter of 2021?"
    draft = compose_offline(_state(question, [_quarter_block(1, HIGHLIGHTS, 3)], [2021]))
    assert draft.startswith(f"{CO}'s Markets revenue fell 7% to $6.1bn in Q1 FY2021 [1]."), draft
    yes_no = f"Did {CO}'s Markets revenue fall in the first quarter of 2021?"
    assert compose_offline(_state(yes_no, [_quarter_block(1, HIGHLIGHTS, 3)], [2021])).startswith(
        f"Yes. {CO}'s Markets revenue fell 7% to $6.1bn in Q1 FY2021 [1]."), yes_no


# --- 8. ', and in how many countries?' from the quoted sentence ----------------------------------------------------

STORES_Q = (f"When it named its new CEO in August 2022, roughly how many retail stores did {CO} operate, and in how "
            "many countries?")
STORES = ("Retail stores\nWith approximately 1,900 retail stores in 24 countries across North America, Europe and "
          f"Asia, {CO} is a leading specialty retailer.\n")
STORES_PLAIN = f"Retail stores\n{CO} operated approximately 1,900 retail stores at the end of fiscal 2022.\n"


def test_a_second_count_stated_beside_the_first_is_added() -> None:
    """The first sentence states both the 1,900 stores and 'in 24 countries', citing the quoted sentence's
    block, which is still quoted after it."""
    state = _state(STORES_Q, [_block(1, STORES, 5, 2022)], [2022])
    said = Analyst(state, STORES_Q).sentences()
    assert said, said
    assert "1,900" in said[0] and "in 24 countries" in said[0] and said[0].endswith("[1]."), said
    assert said[0] == (f"{CO}'s number of retail stores operated was approximately 1,900 in FY2022, in 24 "
                       "countries [1]."), said
    assert any(s.startswith('The report says: "With approximately 1,900 retail stores in 24 countries') for s in said)
    assert compose_offline(state).startswith(said[0]), compose_offline(state)


def test_count_beside_adds_nothing_when_the_quote_states_no_such_count() -> None:
    """When the quoted sentence gives the stores but no countries, count_beside leaves the sentences as they are;
    and a question that asks no second count has nothing added even where the sentence states one."""
    state = _state(STORES_Q, [_block(1, STORES_PLAIN, 5, 2022)], [2022])
    analyst = Analyst(state, STORES_Q)
    first = analyst.first_sentences()
    assert first and "1,900" in first[0], first
    assert analyst.count_beside(first) == first
    assert "countries" not in analyst.sentences()[0]
    single = f"Roughly how many retail stores did {CO} operate in 2022?"
    plain = Analyst(_state(single, [_block(1, STORES, 5, 2022)], [2022]), single)
    said = plain.first_sentences()
    assert said and plain.count_beside(said) == said
    assert "in 24 countries" not in said[0]


def test_a_comma_before_a_name_alone_is_no_list() -> None:
    """'In 2020, the Starfall franchise accounted for 23%, and our three franchises combined for 58%': the comma
    after the year sets no list; Starfall's figure is its own (a list needs another name beside it)."""
    from app.models.providers.offline.composer.analyst import jointly_stated

    assert not jointly_stated("In 2020, the Starfall franchise accounted for 23% of net revenues, and our three "
                              "franchises combined for 58%", "Starfall")
    assert jointly_stated("Ironclad and Starfall together accounted for 40% of net revenues", "Starfall")


# --- spending on interest, a margin's rate of sales, a share given in the question --------------------------------


def test_what_it_spends_on_interest_is_its_interest_expense() -> None:
    """'How much more did Pemberley spend on interest in fiscal 2023 than in fiscal 2022?' asks its interest expense
    (not the 'Interest income' row beside it); 'pay in taxes' asks its income tax expense; 'pay in dividends' is
    read as before."""
    assert measure_asked(f"How much more did {CO} spend on interest in fiscal 2023 than in fiscal 2022?",
                         [CO]).phrase == "interest expense"
    assert measure_asked(f"How much did {CO} pay in taxes in 2021?", [CO]).phrase == "income tax expense"
    assert measure_asked(f"How much did {CO} pay in dividends in 2021?", [CO]).phrase == "dividends"


def test_a_margin_as_a_share_of_sales_is_its_percentage_row() -> None:
    """'Were its gross margins, as a share of net sales, better in fiscal 2021 than in fiscal 2020?' reads the gross
    margin percentage; the answer is the 'Gross margin percentage' row's move ('No.', 11.20% to 11.13%), and 'What
    was its gross margin as a percentage of net sales in 2021?' is that row's 11.13%, not a sentence's figure
    excluding gasoline nor a ratio of the two rates."""
    text = ("Gross Margin\n2021 2020 2019\nNet sales $ 192,052 $ 163,220 $ 149,351\n"
            "Less merchandise costs 170,684 144,939 132,886\nGross margin $ 21,368 $ 18,281 $ 16,465\n"
            "Gross margin percentage 11.13 % 11.20 % 11.02 %\n"
            "Excluding the impact of gasoline price inflation on net sales in 2021, gross margin percentage was "
            "11.22%, an increase of two basis points.")
    better = f"Were {CO}'s gross margins, as a share of net sales, better in fiscal 2021 than in fiscal 2020?"
    assert measure_asked(better, [CO]).phrase == "gross margin percentage"
    lead = Analyst(_state(better, [_block(1, text, 26, 2021)], [2021, 2020]), better).first_sentences()[0]
    assert lead.startswith("No.") and "11.13%" in lead and "11.20%" in lead
    level = f"What was {CO}'s gross margin as a percentage of net sales in 2021?"
    lead = Analyst(_state(level, [_block(1, text, 26, 2021)], [2021]), level).first_sentences()[0]
    assert "11.13%" in lead and "11.22%" not in lead


def test_no_ratio_of_two_rates_is_planned() -> None:
    """'as a percentage of' between two per cents (two years' gross margin percentages) plans no ratio: a rate of
    rates is no answer."""
    from app.calc_tools import Figure
    from app.models.providers.offline.calculator import plan_tool_calls

    figures = [Figure(label="Gross margin percentage", value=v, unit="%", company=CO, fiscal_year=2021,
                      source_id="x", quote=q) for v, q in ((11.13, "Gross margin percentage 11.13 %"),
                                                           (11.22, "gross margin percentage was 11.22%"))]
    calls = plan_tool_calls(f"What was {CO}'s gross margin as a percentage of net sales in 2021?", figures)
    assert not any(name == "ratio" for name, _ in calls)


def test_a_share_given_in_the_question_is_answered_by_the_sentence_that_states_it() -> None:
    """'Which franchises together made up 58% of Pemberley's consolidated net revenues in 2020?': the question
    gives the figure; the sentence stating 58% with its key words answers, whole ('… the Starfall, Ironclad and
    Moonrise franchises, collectively, accounted for 58% …')."""
    text = ("In 2020, the Starfall, Ironclad and Moonrise franchises, collectively, accounted for 58% of our "
            "consolidated net revenues. Our top franchise grew 12% in 2020.")
    question = f"Which franchises together made up 58% of {CO}'s consolidated net revenues in 2020?"
    lead = Analyst(_state(question, [_block(1, text, 35)], [2020]), question).first_sentences()[0]
    assert "Starfall, Ironclad and Moonrise" in lead and "58%" in lead and "[1]" in lead


def test_two_members_each_named_after_from_are_compared() -> None:
    """'How does Pemberley's revenue from EMEA compare with its revenue from the Americas in fiscal 2016?': the
    members are EMEA and the Americas, the measure revenue (each side 'revenue from …')."""
    pair = members_compared(f"How does {CO}'s revenue from EMEA compare with its revenue from the Americas in fiscal "
                            "2016?", [CO])
    assert pair is not None
    assert (pair.first, pair.second, pair.measure) == ("EMEA", "Americas", "revenue")


def test_a_groups_total_row_is_the_group_named_in_the_question() -> None:
    """A region table that groups countries under a heading and totals them ('Americas:' / 'United States …' /
    'Other …' / 'Total Americas 3,400,135 …'): the total row is the Americas asked, so the two members compare
    ('Americas revenue was higher than EMEA revenue in FY2016: $3,400,135k against $1,619,153k')."""
    text = ("The tables below list our revenue by geographic area for fiscal 2016, 2015 and 2014 (in thousands).\n"
            "Revenue 2016 2015 2014\nAmericas:\nUnited States $ 3,087,764 $ 2,548,024 $ 2,115,148\n"
            "Other 312,371 240,020 199,221\nTotal Americas 3,400,135 2,788,044 2,314,369\n"
            "EMEA 1,619,153 1,336,448 1,179,864\nAPAC:\nJapan 401,205 347,740 365,570\nOther 433,937 323,279 287,262\n"
            "Total APAC 835,142 671,019 652,832\nRevenue $ 5,854,430 $ 4,795,511 $ 4,147,065\n")
    question = f"How does {CO}'s revenue from EMEA compare with its revenue from the Americas in fiscal 2016?"
    lead = Analyst(_state(question, [_block(1, text, 100, 2016)], [2016]), question).first_sentences()[0]
    assert lead.startswith("Americas revenue was higher than EMEA revenue in FY2016")
    assert "$3,400,135k" in lead and "$1,619,153k" in lead


def test_a_member_owned_by_another_name_of_the_company_is_the_member() -> None:
    """'How did gross profit from Quillpay's Cash Hub segment compare with its Seller segment in 2020?' of a company
    known as Pemberley: 'Quillpay's' is the company by another name, so the members are Cash Hub and Seller."""
    pair = members_compared("How did gross profit from Quillpay's Cash Hub segment compare with its Seller segment "
                            "in 2020?", [CO])
    assert pair is not None and (pair.first, pair.second, pair.measure) == ("Cash Hub", "Seller", "gross profit")
