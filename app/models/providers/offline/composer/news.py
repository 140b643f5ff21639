"""News in the offline composer's answer: the items whose best sentence (or headline) supports the question most,
each as that sentence with its date, newest first, so a correction comes before what it corrects."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.models.providers.offline.composer.wording import CAUSAL, MONEY, cite
from app.text.figures import states_figure
from app.text.periods import years_named
from app.text.sentences import is_boilerplate, looks_like_instruction, split_sentences
from app.text.terms import sentence_support, topic_terms
from app.turns import Block

MAX_NEWS_SENTENCES = 3
HEADLINE_BONUS = 0.5
_RECENCY = re.compile(r"(?i)\b(latest|recent|recently|newest|most recent|last|current|currently|now|today|"
                      r"this (?:week|month|quarter|year))\b")


NAMED_BONUS = 1.0
"""What an item gains for each name the question says (besides its companies') that the item mentions."""
RELATIVE_FLOOR = 0.5
"""A news item is stated only when its support is at least this share of the best item's."""


def news_sentences(question: str, news: Sequence[Block], limit: int = MAX_NEWS_SENTENCES) -> list[str]:
    """The `limit` news items whose best sentence (or headline) supports the question most (at least
    RELATIVE_FLOOR of the best one's support; an item that names what the question names besides its companies
    gains NAMED_BONUS), each as that sentence with its date, newest first, so a correction comes before what it
    corrects. Of a question that dates its event ('on 16 October 2024'), the items published then, when any is
    held. The best item's sentence is joined by the ones that answer the question's other parts (or what the item
    gives as a reason, or its amount, for 'why …' and 'what did X announce'), and that item leads. When no item
    shares a term with the question ("any news on Helio?"), the newest items' headlines or first sentences."""
    if not news:
        return []
    from app.text.dates import read_dates

    # a day or month the question names ('in June 2025', 'on 16 October 2024') says when the items asked about
    # were published: those items, when any is held, and its words are no topic a sentence must hold
    days = _days_asked(question)
    published = [b for b in news if any((b.published_at or "").startswith(day) for day in days)]
    if published:
        news, question = published, read_dates(question)[2]
    topic = topic_terms(question, [b.company for b in news if b.company])
    years = years_named(question)
    best: dict[str, tuple[float, Block, str]] = {}  # one sentence per news item, from its best chunk
    for block in news:
        score, sentence = best_news_sentence(topic, block, years)
        if sentence and (block.source_id not in best or score > best[block.source_id][0]):
            best[block.source_id] = (score, block, sentence)
    relevant = [p for p in best.values() if p[0] > 0]
    # an item that supports the question less than half as well as the best one is no answer to it ('Who did
    # Northwind appoint to lead …?': the appointment, not the latest results that mention the acquisition)
    top_score = max((p[0] for p in relevant), default=0.0)
    # then a question that names something besides the companies ('the Redmesa Electric storage order') is about
    # the items that name it more than about an older item on storage orders in general
    names = other_names(question, [b.company for b in news if b.company])
    relevant = [(score + NAMED_BONUS * sum(_mentions(block, n) for n in names), block, sentence)
                for score, block, sentence in relevant if score >= RELATIVE_FLOOR * top_score]
    if _RECENCY.search(question) or not relevant:
        # "The latest news", or nothing shares a term with the question: the newest items, each by its
        # best sentence (or headline).
        newest = sorted(best.values(), key=lambda p: p[1].published_at or "", reverse=True)
        top = [(s, b, t if s > 0 else _headline(b) or t) for s, b, t in newest[:limit]]
    else:
        top = sorted(relevant, key=lambda p: -p[0])[:limit]
    out = []
    lead = max(top, key=lambda p: p[0])[1] if top else None
    for _, block, sentence in sorted(top, key=lambda p: p[1].published_at or "", reverse=True):
        corrects = block.title.lower().startswith("correction") and not sentence.lower().startswith("correction")
        first, more = other_parts(question, block, sentence) if block is lead else ([], [])
        if first:  # the reason a 'why …, and …' part asks, before what the item was chosen for
            sentence, more = first[0], [sentence, *more]
        if block is lead and not more and _WHAT_SAID.search(question):
            # 'What did Helio announce about Redmesa Electric?': what the item says, its body's lead and the
            # figures it gives, rather than its headline alone
            body = [t for t in split_sentences(block.text) if not looks_like_instruction(t) and not is_boilerplate(t)]
            if sentence == block.title.strip() and body:
                sentence = body[0]
            figures = [t for t in body if t != sentence and states_figure(t)]
            # an amount of money first ('The contract is valued at approximately $165m'), else any figure
            more = sorted(figures, key=lambda t: not MONEY.search(t))[:1]
        if more:
            # 'When did Helio announce the order, and what is it worth?': the sentence that answers the second
            # part joins the first ('…; the contract is valued at approximately $165m')
            sentence = "; ".join([sentence.rstrip(". "), *(_joined(m, block.text) for m in more)])
        said = cite(f"{'Correction, ' if corrects else ''}{block.published_at or 'Undated'}: {sentence}", [block.n])
        # the item that answers every part of the question leads; the others follow, newest first
        out.insert(0 if more else len(out), said)
    return out


_WHAT_SAID = re.compile(r"(?i)^\s*what\s+did\b.*\b(?:announce|say|report|disclose|reveal|state|confirm|tell)\b")
"""A question that asks what an item said ('What did Helio announce about Redmesa Electric in June 2025?')."""


def published_then(question: str, news: Sequence[Block]) -> bool:
    """Whether a news item was published on a day or in a month the question dates its event by."""
    days = _days_asked(question)
    return any((b.published_at or "").startswith(day) for b in news for day in days)


def _days_asked(question: str) -> list[str]:
    """The publication dates' starts of the days and months the question dates its event by ('2025-06' of 'in
    June 2025', '2024-10-16' of 'on 16 October 2024')."""
    from app.text.dates import when_it_happened

    return [f"{y:04d}-{m:02d}" + (f"-{d:02d}" if d else "") for y, m, d in when_it_happened(question)]


def _joined(sentence: str, text: str) -> str:
    """A sentence as the second clause of another: its opening word in lower case ('The contract is …' → 'the
    contract is …'), unless the item's text writes that word capitalised inside a sentence too, as a name
    ('Helio will …')."""
    sentence = sentence.rstrip(". ")
    first, _, rest = sentence.partition(" ")
    named = (re.search(rf"(?<![.!?:]\s)(?<!^)\b{re.escape(first)}\b", text.strip()) is not None
             or rest[:1].isupper())  # 'Rheinfeld Antriebstechnik AG cut …': a name of several words
    return sentence if named or not first[:1].isupper() or first.isupper() else sentence[:1].lower() + sentence[1:]


def other_parts(question: str, block: Block, said: str) -> tuple[list[str], list[str]]:
    """For each part of a question after its first ('…, and what is it worth?'), the item's sentence that
    supports that part best (words reports use for it counted: 'worth' is said as 'valued'), unless already
    said; and for a first part that asks why, the sentence that gives a reason, when `said` gives none. Returns
    (the first part's, the later parts')."""
    from app.text.question_kinds import said_otherwise
    from app.text.questions import question_part_texts

    before: list[str] = []
    out: list[str] = []
    parts = question_part_texts(question)
    for i, part in enumerate(parts):
        # the first part is what the item's sentence was chosen for, unless it asks why and that sentence gives no
        # reason ('Why did Rheinfeld lower its forecast, and what revenue does it now expect?')
        why = bool(re.match(r"(?i)\s*why\b", part)) and not CAUSAL.search(said)
        if (i == 0 and not why) or len(parts) < 2:
            continue
        topic = topic_terms(part, [block.company] if block.company else [])
        topic |= said_otherwise(topic)
        if not topic:
            continue
        scored = [(sentence_support(topic, t), -j, t) for j, t in enumerate(split_sentences(block.text))
                  if not looks_like_instruction(t) and not is_boilerplate(t) and (not why or CAUSAL.search(t))]
        best = max(scored, default=(0.0, 0, ""))
        if best[0] > 0 and best[2] != said and best[2] not in (*before, *out) and best[2] not in said:
            (before if i == 0 else out).append(best[2])
    return before, out


_NAME = re.compile(r"(?<!^)(?<![.?!]\s)\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")
_NOT_NAMES = re.compile(r"(?i)^(?:january|february|march|april|may|june|july|august|september|october|november|"
                        r"december|fy|fiscal|q[1-4]|h[12])$")


def other_names(question: str, companies: Sequence[str]) -> list[str]:
    """The capitalised names a question says besides its companies' ('Redmesa Electric' in 'When did Helio
    announce the Redmesa Electric storage order?'); not its first word, months or period names."""
    own = {w.casefold() for c in companies for w in re.findall(r"[A-Za-z]+", c)}
    out = []
    for m in _NAME.finditer(question.strip()):
        words = [w for w in m.group(0).split() if w.casefold() not in own and not _NOT_NAMES.match(w)]
        if words:
            out.append(" ".join(words))
    return out


def _mentions(block: Block, name: str) -> bool:
    text = f"{block.title} {block.text}".casefold()
    return all(w.casefold() in text for w in name.split())


def _headline(block: Block) -> str:
    candidates = [block.title.strip(), *split_sentences(block.text)[:1]]
    return next((c for c in candidates if c and not looks_like_instruction(c) and not is_boilerplate(c)), "")


def best_news_sentence(topic: set[str], block: Block, years: Sequence[int] = ()) -> tuple[float, str]:
    """The item's headline or sentence that supports the question most, and its support (0: none does).
    The headline competes too: a publisher's correction states the corrected figure there. Sentences
    addressed to a model ('ignore all previous instructions') and boilerplate (a safe harbour) never count."""
    title = block.title.strip()
    texts = [t for t in (title, *split_sentences(block.text)) if t]
    # The headline is the item's own summary: on equal support it wins over a sentence of the body.
    candidates = [(sentence_support(topic, t, years) + (HEADLINE_BONUS if t == title else 0.0), -i, t)
                  for i, t in enumerate(texts) if not looks_like_instruction(t) and not is_boilerplate(t)]
    candidates = [c for c in candidates if c[0] > (HEADLINE_BONUS if c[2] == title else 0.0)] or [
        (0.0, -i, t) for i, t in enumerate(texts[:1]) if not looks_like_instruction(t) and not is_boilerplate(t)]
    if not candidates:
        return 0.0, ""
    score, _, text = max(candidates)
    return score, text
