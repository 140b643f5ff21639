"""Which figures a question uses: `most_relevant` (the figures the calculator is shown: the inputs the question's
metric or line items need, then those whose labels share most words with it), `relevant_figures` (the figures
whose labels best match the question, which the calculator computes with) and `apply_user_figures` (the user's
own figures, from admitted memory records, in place of the documents'). Pure, no I/O.
"""

import re
from collections.abc import Sequence
from typing import Any

from app.calc_tools import Figure
from app.facts.measures import TOTAL_WORDS, is_company_total, label_words, measure_words
from app.metrics import label_match, needed_inputs
from app.text.companies import companies_named
from app.text.periods import years_named
from app.text.question_kinds import asks_trend
from app.text.units import SCALE_FACTORS, unit_currency


def apply_user_figures(figures: Sequence[Figure], records: Sequence[Any], companies: Sequence[str]) -> list[Figure]:
    """The user's own figures in place of the documents': an admitted fact record that names one of the turn's
    companies, one year and a measure in its key, and one amount in its value ("Ternline's FY2024 net income" =
    "$150m"), stands in for every figure of that company, year and measure, converted to the figure's unit
    ($150m as 150,000 under a '$k' statement), citing the user's statement. A calculation then uses what the
    user said, as the answer says it does. A figure the documents do not state is added as the user gave it; a
    record that names no company of the turn, no single year or no single amount changes nothing, and neither
    does one in another currency than the statement's, or a bare number under a scaled one (no rate or scale is
    guessed: the calculation keeps the statement's figure, which the answer's citations show)."""
    out = list(figures)
    for record in records:
        parsed = _user_figure(record, companies)
        if parsed is None:
            continue
        company, year, measure, amount = parsed
        mine = Figure(label=measure, value=amount[1], unit=amount[3] or amount[0] + amount[2], company=company,
                      fiscal_year=year, source_id=f"memory:{record.id}", chunk_id=f"memory:{record.id}",
                      quote=record.said or record.value)
        met = False
        for i, figure in enumerate(out):
            if (figure.source_id.startswith("memory:") or (figure.company or "").lower() != company.lower()
                    or figure.fiscal_year != year or not _same_measure(figure.label, measure)):
                continue
            met = True
            value = _in_unit(amount, figure.unit)
            if value is not None:
                out[i] = mine.model_copy(update={"label": figure.label, "value": value, "unit": figure.unit,
                                                 "period": figure.period})
        if not met:
            out.append(mine)
    return out


def _user_figure(record: Any, companies: Sequence[str]) -> tuple[str, int, str, tuple[str, float, str, str]] | None:
    """(company, year, measure, amount) of a record like "ternline's fy2024 net income" = "$150m"; None unless
    the key names exactly one of `companies` and one year, and the value holds exactly one figure."""
    from app.text.figures import figures_in

    named = companies_named(record.key, list(companies))
    years = sorted(set(years_named(record.key)))
    amounts = figures_in(record.value)
    if len(named) != 1 or len(years) != 1 or len(amounts) != 1:
        return None
    company_words = {w for w in re.findall(r"[a-z]+", named[0].lower())}
    words = [w for w in re.findall(r"[a-z][a-z&'’-]*|\d+", record.key.lower())
             if re.sub(r"['’]s?$", "", w) not in company_words and not re.fullmatch(r"(?:fy)?\d{2,4}", w)
             and w not in _KEY_FILLER]
    measure = " ".join(words).strip()
    return (named[0], years[0], measure, amounts[0]) if measure else None


_KEY_FILLER = {"in", "for", "of", "the", "fiscal", "year", "fy", "during", "at", "end"}


def _same_measure(label: str, measure: str) -> bool:
    """Whether a statement's label and the measure a user named are one line item: the line item's own names
    ('Net income', 'Total revenues' for 'revenue'), or the same measure words once totals are set aside."""
    if label_match(label, measure) is not None:
        return True
    items = {item for item, _ in needed_inputs(measure, [])}
    if len(items) == 1 and label_match(label, items.pop()) is not None:
        return True
    mine = measure_words(measure)
    return bool(mine) and mine == measure_words(label)


def _in_unit(amount: tuple[str, float, str, str], unit: str) -> float | None:
    """The user's amount in a statement's unit ('$m' 150 in '$k' is 150,000); None across currencies, between
    a percentage and an amount, or where either scale is unknown (a bare '150' under '$k')."""
    currency, value, scale, percent = amount
    if percent or unit.endswith("%"):
        return value if percent and unit.endswith("%") else None
    theirs, their_scale = unit_currency(unit)
    if currency and theirs and currency != theirs:
        return None
    if their_scale == scale:
        return value
    if their_scale in SCALE_FACTORS and scale in SCALE_FACTORS:
        return value * SCALE_FACTORS[scale] / SCALE_FACTORS[their_scale]
    return None


def most_relevant(figures: Sequence[Figure], question: str, limit: int, years: Sequence[int] = ()) -> list[Figure]:
    """At most `limit` figures, so that a model reading them gets the ones that matter within its context: first
    the inputs the question's metric or line items need (app.metrics.needed_inputs: 'Revenues' for an EBITDA
    margin, though the question never says revenue), then those whose labels share most words with the
    question. Among equally matching figures the company's own total ('Total revenue', 'Net sales', 'Revenue')
    comes before a segment's ('Road revenue'); a question that names the segment matches the segment's row by
    one more word. Evidence order breaks the rest."""
    words = measure_words(question)
    # a question that names no period asks about the latest one the figures cover ('Is its liquidity healthy?')
    latest = [max(f.fiscal_year for f in figures if f.fiscal_year)] if any(f.fiscal_year for f in figures) else []
    needs = needed_inputs(question, list(years) or years_named(question) or latest, asks_trend(question))

    def rank(indexed: tuple[int, Figure]) -> tuple[int, int, int, int]:
        figure = indexed[1]
        # the inputs in the order they are needed: a judgement's first metric's (the current ratio's current
        # assets and liabilities) before a fallback formula's
        needed = next((k for k, (item, year) in enumerate(needs)
                       if figure.fiscal_year == year and label_match(figure.label, item) is not None), len(needs))
        overlap = len(words & measure_words(figure.label))
        return needed, -overlap, 0 if overlap and is_company_total(figure.label) else 1, indexed[0]

    keep = {i for i, _ in sorted(enumerate(figures), key=rank)[:limit]}
    return [f for i, f in enumerate(figures) if i in keep]


def relevant_figures(question: str, figures: Sequence[Figure]) -> list[Figure]:
    """Figures whose labels best match the question (most shared words, fewest extra), each company's best (two
    companies compared may name one measure differently: 'EBITDA' and 'Adjusted EBITDA'); none when no label
    shares a word with it: a ratio of whatever figures were found is no answer ('combined ratio' is not
    assets/assets)."""
    q_words = label_words(question)

    def score(f: Figure) -> tuple[int, int]:
        label = label_words(f.label)
        return len(label & q_words), -len(label - q_words - TOTAL_WORDS)

    best: dict[str, tuple[int, int]] = {}
    for f in figures:
        company = (f.company or "").casefold()
        best[company] = max(best.get(company, (0, 0)), score(f))
    return [f for f in figures if (b := best[(f.company or "").casefold()])[0] > 0 and score(f) == b]
