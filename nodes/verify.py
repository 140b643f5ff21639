"""Claim verification: every figure and capitalised entity of a claim must appear in the full text of the
evidence it cites, and a claim that does not state what a figure question asks is not an answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from app.evidence import Claim, Evidence
from app.facts.capital import capital_ratios
from app.text.statements import quarters_headed, regional_split_rows
from app.text.figures import (FIGURE, declared_scales, figures_in, has_figure, has_restated_figure, parse_figure,
                              return_on_rows)
from app.text.questions import answers_question

_SENTENCE_WORDS = frozenset(
    """a an and as at after before but by during for from he her his however in it its of on or our over
    she that the their there these they this those to under we when where while with""".split()
)
_ENTITY = re.compile(r"[^\W\d_][\w&'’.-]*")


def verify_claim(claim: Claim, evidence_by_id: Mapping[str, Evidence]) -> Claim:
    """Every figure and capitalised entity of the claim must appear in the full text of the evidence it cites
    (all cited chunks must have been admitted). Returns a copy with `verified`, `unsupported` and `company`."""
    cited = [evidence_by_id[i] for i in claim.evidence_chunk_ids if i in evidence_by_id]
    uncited = not cited or len(cited) != len(claim.evidence_chunk_ids)
    unsupported = unsupported_terms(claim.text, " ".join(d.text for d in cited))
    company = claim.company or next((d.company for d in cited if d.company), None)
    verified = not uncited and not unsupported
    return claim.model_copy(update={"verified": verified, "unsupported": unsupported, "company": company})


def answered(claim: Claim, question: str, companies: Sequence[str], context: str = "") -> Claim:
    """A verified claim that does not state what a figure question asks (the measure, with a figure) is not an
    answer, however many words it shares with the question. `context`: what its cited chunk stands under (a
    segment's title or the heading over its row, nodes/draft.sentence_context)."""
    if not claim.verified or answers_question(question, claim.text, companies, context):
        return claim
    return claim.model_copy(update={"verified": False, "unsupported": [*claim.unsupported, "(not the measure asked)"]})


_SHORT_QUARTER = re.compile(r"(?<![\w-])(?:(?P<q>[1-4])Q|Q(?P<q2>[1-4]))(?:\s?['’])?(?P<yy>\d{2})(?![\w,.-]?\d)")


def spelled_quarters(text: str) -> str:
    """The quarters a text writes in short ('1Q21', "Q4'20"), spelled out as the statement reader names them
    ('Q1 2021 Q4 2020'); '' when it writes none."""
    short = " ".join(dict.fromkeys(f"Q{m.group('q') or m.group('q2')} 20{m.group('yy')}"
                                   for m in _SHORT_QUARTER.finditer(text)))
    # (and those a quarterly table's day header names, as the statement reader dates its rows, and the spans a
    # split sales schedule heads its columns with: 'SECOND QUARTER SIX MONTHS' over '2023 2022' names H1 2023)
    spans = " ".join(dict.fromkeys(p for row in regional_split_rows(text) for p in row.periods or ()))
    return " ".join(x for x in (short, quarters_headed(text), spans) if x)


def unsupported_terms(claim: str, evidence: str) -> list[str]:
    """The claim's figures and capitalised words that the evidence text does not contain. A quarter a table
    heads in short ('1Q21') is there as a claim spells it ('Q1 2021')."""
    evidence = f"{evidence}\n{spelled_quarters(evidence)}"
    available = figures_in(evidence)
    for row in return_on_rows(evidence):  # 'Return on tangible common equity 29 24 19': per cents
        available += [(c, v, s, "%") for c, v, s, p in figures_in(row) if not p and not c and not s]
    for ratio in capital_ratios(evidence):  # a capital table's per cents, '%' printed on its first row only
        available += figures_in(f"{ratio.held}% {ratio.minimum}%")
    if _PERCENT_COLUMNS.search(evidence):
        # a table whose columns are percentages by their header ('Change in %', '% Chg') prints bare numbers
        available += [(c, v, s, "%") for c, v, s, p in available if not p and not c and not s]
    scales = declared_scales(evidence)
    figures = [m.group(0).strip() for m, key in ((m, parse_figure(m)) for m in FIGURE.finditer(claim))
               if not has_figure(key, available)
               and not has_restated_figure(key, _decimals(m.group("num")), available, scales)]
    plain = evidence.replace("’", "'")
    entities = [e for e in claim_entities(claim) if not re.search(rf"(?<!\w){re.escape(e)}(?!\w)", plain, re.I)]
    return list(dict.fromkeys([*figures, *entities]))


_PERCENT_COLUMNS = re.compile(r"(?i)\bin\s+%|%\s*(?:chg|change)\b|\(%\)|\bchange\s+in\s+%|\bper\s*cent\b\s*$",
                              re.MULTILINE)


def _decimals(number: str) -> int:
    return len(number.split(".")[1]) if "." in number else 0


def claim_entities(claim: str) -> list[str]:
    """Capitalised words (possessives and trailing punctuation removed), minus common sentence openers."""
    words = (re.sub(r"'s$", "", w.replace("’", "'")).rstrip(".-'") for w in _ENTITY.findall(claim))
    return [w for w in dict.fromkeys(words) if w and w[0].isupper() and w.casefold() not in _SENTENCE_WORDS]
