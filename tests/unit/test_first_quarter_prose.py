"""A first quarter's 10-Q: its year to date is its quarter, so a sentence of its summary that names no period
('Firmwide average deposits of $2.2 trillion were up 36%') states the first quarter's figure, and the answer that
says so keeps its citation (the block's header names the filing's quarter). A later quarter's 10-Q's prose is not
read so: its year to date is not its quarter. Companies and figures are invented."""

from __future__ import annotations

from app.evidence import Evidence
from app.models.providers.offline.composer import compose_offline
from app.turns import Block
from nodes.assemble import evidence_header
from nodes.generate import check_citations

_TEXT = ("Financial highlights\n• Firmwide average loans of $1.0 trillion were up 1%, driven by higher loans in "
         "wealth management.\n• Firmwide average deposits of $2.2 trillion were up 36%, reflecting significant "
         "inflows across the lines of business.\n")
_Q1 = "What were Ternline Bank's firmwide average deposits in the first quarter of 2021?"


def _block(filing: str) -> Block:
    doc = Evidence(chunk_id=f"{filing}:p5::0", source_id=f"{filing}:p5", title=filing, company="Ternline Bank",
                   fiscal_year=2021, page=5, text=_TEXT)
    return Block(n=1, kind="report", header=evidence_header(1, doc), text=_TEXT, source_id=doc.source_id,
                 chunk_id=doc.chunk_id, title=filing, company="Ternline Bank", fiscal_year=2021, page=5)


def _answer(question: str, block: Block) -> str:
    return compose_offline({"question": question, "blocks": [block], "companies": ["Ternline Bank"],
                            "fiscal_years": [2021]})


def test_a_first_quarter_filings_undated_sentence_is_the_quarters() -> None:
    block = _block("TERNLINE_2021Q1_10Q")
    answer = _answer(_Q1, block)
    assert answer.startswith("Ternline Bank's firmwide average deposits were $2.2tn in Q1 FY2021 [1]"), answer
    kept, check = check_citations(answer, [block], _Q1, [2021])
    assert kept and kept[0].startswith("Ternline Bank's firmwide average deposits were $2.2tn in Q1 FY2021"), check


def test_a_later_quarters_undated_sentence_is_not_said_to_be_its_quarter() -> None:
    answer = _answer("What were Ternline Bank's firmwide average deposits in the second quarter of 2021?",
                     _block("TERNLINE_2021Q2_10Q"))
    assert "in Q2 FY2021 [1]" not in answer, answer
