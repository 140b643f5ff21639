"""Search over whole filings ingested as page records, with no fiscal year given: the named company's filings
only (a funnel step says so), however the company is written; the statement page a figure question needs;
pages judged as units."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.knowledge.base import KnowledgeBase
from app.settings import get_settings
from tests.fakes import WordHashEmbedder

pytestmark = pytest.mark.integration


PROSE = ("Our capital allocation priorities are investing in the business, paying dividends and repurchasing shares. "
         "Capital expenditure supports growth in our plants, and we review property, plant and equipment needs "
         "each year with the board. Purchases of new equipment are planned against demand.")


def cash_flow_page(company: str, capex: str) -> str:
    return ("Table of Contents\n" + company + " and Subsidiaries\nConsolidated Statement of Cash Flow s\n"
            "Years ended December 31\n(Millions)\n2021\n2020\n2019\n"
            "Net income\n1,204\n1,118\n1,050\nDepreciation and amortization\n410\n398\n377\n"
            f"Purchases of property, plant and equipment (PP&E)\n({capex})\n(760)\n(701)\n"
            "Dividends paid\n(300)\n(280)\n(270)\nNet cash provided by operating activities\n1,802\n1,650\n1,580\n")


def pages(doc: str, company: str, capex: str) -> list[dict]:
    texts = [f"{company} annual report cover page. FORM 10-K.", PROSE, PROSE.replace("dividends", "buybacks"),
             cash_flow_page(company, capex), "Legal proceedings. We are party to ordinary-course litigation."]
    return [{"source_id": f"{doc}:p{n}", "title": doc, "page": n, "company": company.upper().replace(" ", ""),
             "doc_type": "report", "text": text} for n, text in enumerate(texts, start=1)]


@pytest.fixture
def kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KnowledgeBase:
    get_settings.cache_clear()
    embedder = WordHashEmbedder()
    monkeypatch.setattr(KnowledgeBase, "embedder", property(lambda self: embedder))
    records = [*pages("KESTRELTOOLS_2021_10K", "Kestrel Tools", "812"),
               *pages("BRAMBLEFOODS_2021_10K", "Bramble Foods", "455")]
    path = tmp_path / "filings.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    base = KnowledgeBase(get_settings())
    base.ingest([path])
    return base


def test_a_question_naming_a_company_searches_its_filings_only_however_it_is_written(kb: KnowledgeBase) -> None:
    for query in ("What was Kestrel Tools capital expenditure in FY2021?",
                  "What was KESTRELTOOLS capital expenditure in FY2021?",
                  "what was kestrel tools' capital expenditure in fy2021?"):
        res = kb.search(query, k=5)
        assert {h.title for h in res.hits} == {"KESTRELTOOLS_2021_10K"}, query
        scope = next(s for s in res.funnel if s.step == "scope")
        assert scope.kept == 5 and scope.removed == 5
        assert scope.reason.endswith(kb.catalog.resolve_company("Kestrel Tools"))


def test_the_fiscal_year_is_read_from_the_title(kb: KnowledgeBase) -> None:
    assert kb.catalog.fiscal_years() == [2021]


def test_the_statement_page_a_figure_question_needs_comes_first(kb: KnowledgeBase) -> None:
    res = kb.search("What is the FY2021 capital expenditure amount for Bramble Foods? Use the cash flow statement.",
                    k=5)
    assert (res.hits[0].title, res.hits[0].page) == ("BRAMBLEFOODS_2021_10K", 4)
    assert "(455)" in res.hits[0].text
    assert "cash flow statement the question needs" in res.hits[0].why
    assert any(s.step == "pages" for s in res.funnel)


def test_without_a_company_named_nothing_is_scoped(kb: KnowledgeBase) -> None:
    res = kb.search("capital expenditure priorities", k=10)
    assert not any(s.step == "scope" for s in res.funnel)
    assert {h.title for h in res.hits} == {"KESTRELTOOLS_2021_10K", "BRAMBLEFOODS_2021_10K"}


def test_the_page_that_states_a_count_asked_for_ranks_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    # 'employee' is everywhere in a filing (stock plans, benefits); the page that says how many there are leads
    get_settings.cache_clear()
    embedder = WordHashEmbedder()
    monkeypatch.setattr(KnowledgeBase, "embedder", property(lambda self: embedder))
    plans = ("Total employees' stock options at the end of 2021: total employees' grants and total employees' "
             "awards under each plan for employees, as of the end of 2021.")
    texts = [plans, plans.replace("options", "awards"), plans.replace("grants", "pensions"),
             "Human capital. As of December 31, 2021, we had approximately 3,700 total employees, most of them "
             "full-time. We review pay and training every year.",
             "Legal proceedings. We are party to ordinary-course litigation."]
    records = [{"source_id": f"KESTRELTOOLS_2021_10K:p{n}", "title": "KESTRELTOOLS_2021_10K", "page": n,
                "company": "KESTRELTOOLS", "doc_type": "report", "text": text} for n, text in enumerate(texts, 1)]
    path = tmp_path / "filings.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    base = KnowledgeBase(get_settings())
    base.ingest([path])
    res = base.search("Kestrel Tools total employees end 2021", k=3)
    assert res.hits[0].page == 4, [(h.page, h.why) for h in res.hits]
    assert any(s.step == "retrieve:counts" for s in res.funnel)
