"""End to end on a second corpus, examples/filings/corpus: three invented companies whose filings look the way
users ingest them (page-record JSONL without a fiscal year, plain-text 10-Ks identified only by their name and
cover, an earnings release, statement pages as pypdf extracts them). See examples/filings/README.md for the
corpus and the expected answers.

The folder is ingested once per module with `prov ingest` in a separate process; the questions then run in
process through `app.runtime.Runtime` on that home (offline provider, answer cache off), so the module stays
cheap. Figures are compared strictly: amounts are read with their sign and scale and compared as numbers,
never as substrings.

Checks that Prov fails today are marked xfail(strict=True) with what it does instead, so the gap stays visible
and a fix turns them into failures to un-mark."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.integration.corpus_home import asked_once, ingested_home, offline_runtime

pytestmark = pytest.mark.integration

CORPUS = REPO / "examples" / "filings" / "corpus"
KESTREL, ORBITAL, SALTMARSH = "Kestrel Mining", "Orbital Foods", "Saltmarsh Outfitters"


# --- fixtures -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> dict[str, str]:
    """One PROV_HOME with the filings ingested by the CLI, shared by the module."""
    return ingested_home(tmp_path_factory.mktemp("filings-home"), models_dir, CORPUS, 15)


@pytest.fixture(scope="module")
def runtime(env: dict[str, str]) -> Iterator[Any]:
    rt = offline_runtime(env)
    yield rt
    rt.close()


@pytest.fixture(scope="module")
def sources(runtime: Any) -> dict[str, dict]:
    return {s["source_id"]: s for s in runtime.kb.catalog.list_sources()}


def ask(runtime: Any, question: str) -> Any:
    return asked_once(runtime, question)


def describe(runtime: Any, result: Any) -> str:
    """What Prov did, for assertion messages: status, answer and the route flags."""
    flags = {}
    if result.status != "clarification":
        decision = runtime.trace(result.thread_id)["decision"] or {}
        flags = {k: decision.get(k) for k in ("is_out_of_scope", "needs_retrieval", "needs_news",
                                              "needs_clarification", "needs_calculation")}
    return f"status={result.status} route={flags} answer={result.answer!r}"


# --- strict figures -------------------------------------------------------------------------------------------

_SCALES = {"thousand": 1e-3, "k": 1e-3, "million": 1.0, "millions": 1.0, "m": 1.0, "mn": 1.0,
           "billion": 1e3, "billions": 1e3, "bn": 1e3, "b": 1e3}
_AMOUNT = re.compile(
    r"(?P<neg>[-−]|\()?\s*(?:US)?\$\s*(?P<neg2>\()?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\)?"
    r"(?:\s*(?P<scale>thousand|millions?|billions?|mn|bn|m|b|k)\b)?")


def amounts(text: str) -> list[tuple[float, bool]]:
    """Every dollar amount in `text`, left to right: (value in millions, with its sign; whether a scale was
    stated). '$4,210 million' → (4210.0, True); '$4.21 billion' → (4210.0, True); '(962)' is not read (no $);
    '$ 4,210' in a dumped table row → (4210.0, False): a figure without its unit does not count as stated."""
    found = []
    for m in _AMOUNT.finditer(text):
        value = float(m.group("num").replace(",", ""))
        scale = (m.group("scale") or "").lower()
        if scale:
            value *= _SCALES[scale]
        if m.group("neg") or m.group("neg2"):
            value = -value
        found.append((value, bool(scale)))
    return found


def states_amount(text: str, millions: float) -> bool:
    return any(abs(v - millions) < 1e-6 and scaled for v, scaled in amounts(text))


def lead_amount(text: str) -> tuple[float, bool] | None:
    """The first dollar amount the answer states: the figure it leads with."""
    found = amounts(text)
    return found[0] if found else None


def numbers(text: str) -> list[float]:
    """Plain numbers (citation markers and four-digit years dropped)."""
    text = re.sub(r"\[\d+\]", " ", text)
    return [float(n.replace(",", "")) for n in re.findall(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?", text)
            if not re.fullmatch(r"(?:19|20)\d{2}", n)]


def blocks(runtime: Any, thread_id: str) -> dict[int, str]:
    """The evidence blocks of the turn's prompt, by number, as the model saw them."""
    prompt = runtime.trace(thread_id)["prompt"]
    text = "\n".join(m["content"] for m in prompt if isinstance(m.get("content"), str))
    return {int(n): body for n, body in re.findall(r"<<<DATA \[(\d+)\]\n(.*?)DATA>>>", text, flags=re.S)}


def sentences_citing(answer: str, figure: str) -> list[tuple[str, list[int]]]:
    """The answer's sentences that state `figure`, each with the block numbers it cites."""
    parts = re.split(r"(?<=\])\s+|(?<=[.!?])\s+(?=[A-Z])", answer)
    return [(p, [int(n) for n in re.findall(r"\[(\d+)\]", p)]) for p in parts if figure in p]


def assert_cited_blocks_hold(runtime: Any, result: Any, figure: str) -> None:
    """Every sentence stating `figure` cites at least one block, and a cited block contains the figure."""
    held = blocks(runtime, result.thread_id)
    stating = sentences_citing(result.answer, figure)
    assert stating, f"no sentence states {figure}: {result.answer!r}"
    for sentence, cited in stating:
        assert cited, f"sentence without a citation: {sentence!r}"
        assert any(figure in held.get(n, "") for n in cited), (
            f"{sentence!r} cites {cited}, none of which holds {figure}")


# --- identity -------------------------------------------------------------------------------------------------


def test_each_source_has_its_company_year_and_form(sources: dict[str, dict]) -> None:
    expected = {  # prefix of the source id → (company, fiscal year, form, quarter)
        "corpus/KESTRELMINING_2024_10K.txt": (KESTREL, 2024, "10-K", None),
        "corpus/KESTRELMINING_2023_10K.txt": (KESTREL, 2023, "10-K", None),
        "corpus/SALTMARSHOUTFITTERS_2024Q2_EARNINGS.txt": (SALTMARSH, 2024, "earnings", 2),
        "ORBITALFOODS_2023_10K:p": (ORBITAL, 2023, "10-K", None),
        "ORBITALFOODS_2024Q1_10Q:p": (ORBITAL, 2024, "10-Q", 1),
    }
    for prefix, (company, year, form, quarter) in expected.items():
        rows = [s for sid, s in sources.items() if sid.startswith(prefix)]
        assert rows, prefix
        for s in rows:
            assert (s["company"], s["fiscal_year"], s["form"], s["fiscal_quarter"]) == (company, year, form, quarter), s
    assert len(sources) == 15
    assert {s["company"] for s in sources.values()} == {KESTREL, ORBITAL, SALTMARSH}


def test_a_june_year_end_is_that_year_read_from_the_cover(sources: dict[str, dict]) -> None:
    """The .txt 10-K carries no metadata: its period end and ticker come from the cover page."""
    s = sources["corpus/KESTRELMINING_2024_10K.txt"]
    assert str(s["period_end"]) == "2024-06-30" and s["fiscal_year"] == 2024 and s["ticker"] == "KSTM"
    assert "Kestrel Mining Corp." in json.loads(s["company_aliases"])


def test_one_canonical_spelling_per_company(runtime: Any) -> None:
    catalog = runtime.kb.catalog
    assert catalog.companies() == [KESTREL, ORBITAL, SALTMARSH]
    for spelling in ("ORBITALFOODS", "Orbital Foods", "Orbital Foods, Inc.", "ORBITAL FOODS, INC."):
        assert catalog.resolve_company(spelling) == ORBITAL, spelling
    for spelling in ("KESTRELMINING", "Kestrel Mining Corp.", "kestrel mining"):
        assert catalog.resolve_company(spelling) == KESTREL, spelling
    assert runtime.fiscal_years_held(KESTREL) == [2023, 2024]


@pytest.mark.parametrize(("query", "company"), [
    ("What was Kestrel Mining's revenue in fiscal 2024?", KESTREL),
    ("ORBITALFOODS net sales 2023", ORBITAL),
])
def test_search_scopes_to_the_named_company(env: dict[str, str], query: str, company: str) -> None:
    done = subprocess.run([sys.executable, "-m", "app.cli", "search", query, "--funnel", "--json"], env=env,
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    steps = [f["step"] for f in data["funnel"]]
    hits = data["results"]
    assert hits
    assert all(h["company"] == company for h in hits), [(h["source_id"], h["company"]) for h in hits]
    assert "scope" in steps, steps


# --- routing --------------------------------------------------------------------------------------------------

NOT_REFUSED = [
    "What was Kestrel Mining's net income in fiscal 2024?",                       # a figure
    "What is Project Bedrock at Kestrel Mining and how much did it cost in fiscal 2024?",  # a plan
    "What is Orbital Foods' Project Lantern?",                                      # a plan
    "Which company did Orbital Foods acquire in 2023 and for how much?",            # an acquisition
    "Who is Saltmarsh Outfitters' CEO?",                                            # an executive
    "What was ORBITALFOODS net income in the first quarter of 2024?",               # the file-name spelling
]


@pytest.mark.parametrize("question", NOT_REFUSED)
def test_questions_naming_a_held_company_are_not_refused(runtime: Any, question: str) -> None:
    result = ask(runtime, question)
    assert result.status != "refused", describe(runtime, result)


@pytest.mark.parametrize("question", [
    "What was Kestrel Mining's net income in fiscal 2024?",
    "What was ORBITALFOODS net income in the first quarter of 2024?",
    "Who was Saltmarsh Outfitters' chief executive officer in the second quarter of fiscal 2024?",
])
def test_a_held_company_and_period_is_not_sent_to_clarification(runtime: Any, question: str) -> None:
    result = ask(runtime, question)
    assert result.status != "clarification", describe(runtime, result)


def test_an_executive_question_without_a_period_is_not_sent_to_clarification(runtime: Any) -> None:
    result = ask(runtime, "Who is Saltmarsh Outfitters' CEO?")
    assert result.status != "clarification", describe(runtime, result)


# --- answers --------------------------------------------------------------------------------------------------


def test_whole_company_revenue_is_the_total_not_a_segment(runtime: Any) -> None:
    result = ask(runtime, "What was Kestrel Mining's total revenue for fiscal 2024?")
    assert result.status == "answered", describe(runtime, result)
    assert lead_amount(result.answer) == (4210.0, True), describe(runtime, result)
    assert_cited_blocks_hold(runtime, result, "4,210")


def test_whole_company_net_sales_from_page_records_is_the_total(runtime: Any) -> None:
    result = ask(runtime, "What were Orbital Foods' net sales in 2023?")
    assert result.status == "answered", describe(runtime, result)
    assert lead_amount(result.answer) == (2687.0, True), describe(runtime, result)
    assert_cited_blocks_hold(runtime, result, "2,687")


def test_capital_expenditure_from_the_cash_flow_statement(runtime: Any) -> None:
    result = ask(runtime, "What were Kestrel Mining's capital expenditures in fiscal 2024?")
    assert result.status == "answered", describe(runtime, result)
    lead = lead_amount(result.answer)
    # An outflow may be stated as $962 million or as -$962 million (the statement shows (962)); nothing else.
    assert lead is not None and lead[1] and abs(lead[0]) == 962.0, describe(runtime, result)
    assert not states_amount(result.answer, 938.0) or result.answer.index("962") < result.answer.index("938")
    assert_cited_blocks_hold(runtime, result, "962")


def test_current_ratio_is_computed_from_the_balance_sheet_and_cites_its_inputs(runtime: Any) -> None:
    result = ask(runtime, "What was Kestrel Mining's current ratio at June 30, 2024?")
    assert result.status == "answered", describe(runtime, result)
    exact = 2352 / 1112
    stated = [n for n in numbers(result.answer) if 1.5 < n < 3.0]
    assert any(round(exact, len(str(n).split(".")[1]) if "." in str(n) else 0) == n for n in stated), (
        describe(runtime, result))
    held = blocks(runtime, result.thread_id)
    cited_text = " ".join(held.get(int(n), "") for n in re.findall(r"\[(\d+)\]", result.answer))
    assert "2,352" in cited_text and "1,112" in cited_text, describe(runtime, result)


def test_acquisition_price_is_stated_and_cited(runtime: Any) -> None:
    result = ask(runtime, "What did Kestrel Mining pay for Redgum Copper?")
    assert result.status == "answered", describe(runtime, result)
    assert states_amount(result.answer, 291.0) and "Redgum Copper" in result.answer, describe(runtime, result)
    assert_cited_blocks_hold(runtime, result, "$291 million")


def test_acquisition_named_in_page_records_is_answered(runtime: Any) -> None:
    result = ask(runtime, "Which company did Orbital Foods acquire in 2023 and for how much?")
    assert result.status == "answered", describe(runtime, result)
    assert "Pinecrest Kitchens" in result.answer and states_amount(result.answer, 154.0), describe(runtime, result)
    assert_cited_blocks_hold(runtime, result, "$154 million")


def test_restructuring_plan_is_answered_with_its_charge(runtime: Any) -> None:
    result = ask(runtime, "What is Project Bedrock at Kestrel Mining and how much did it cost in fiscal 2024?")
    assert result.status == "answered", describe(runtime, result)
    assert "Project Bedrock" in result.answer and states_amount(result.answer, 41.0), describe(runtime, result)
    assert_cited_blocks_hold(runtime, result, "$41 million")


def test_named_executive_is_answered(runtime: Any) -> None:
    result = ask(runtime, "Who is the chief executive officer of Kestrel Mining?")
    assert result.status == "answered", describe(runtime, result)
    assert "Anneliese Varga" in result.answer, describe(runtime, result)
    assert_cited_blocks_hold(runtime, result, "Anneliese Varga")


def test_named_executive_in_an_earnings_release_is_answered(runtime: Any) -> None:
    result = ask(runtime, "Who was Saltmarsh Outfitters' chief executive officer in the second quarter of fiscal 2024?")
    assert result.status == "answered", describe(runtime, result)
    assert "Priya Castellanos-Reid" in result.answer, describe(runtime, result)


def test_quarter_figure_from_an_earnings_release(runtime: Any) -> None:
    result = ask(runtime, "What were Saltmarsh Outfitters' net sales in the second quarter of fiscal 2024?")
    assert result.status == "answered", describe(runtime, result)
    assert lead_amount(result.answer) == (612.4, True), describe(runtime, result)
    assert_cited_blocks_hold(runtime, result, "612.4")


def test_comparable_sales_from_an_earnings_release(runtime: Any) -> None:
    result = ask(runtime, "What were Saltmarsh Outfitters' comparable sales in the second quarter of fiscal 2024?")
    assert result.status == "answered", describe(runtime, result)
    assert 3.8 in numbers(result.answer) and "4.2" not in result.answer, describe(runtime, result)


def test_quarter_figure_from_a_10q_in_page_records(runtime: Any) -> None:
    result = ask(runtime, "What were Orbital Foods' net sales in the first quarter of 2024?")
    assert result.status == "answered", describe(runtime, result)
    assert lead_amount(result.answer) == (701.0, True), describe(runtime, result)
    assert_cited_blocks_hold(runtime, result, "701")


# --- insufficient ---------------------------------------------------------------------------------------------


def test_a_period_the_kb_does_not_hold_is_insufficient_and_names_the_periods_held(runtime: Any) -> None:
    result = ask(runtime, "What was Kestrel Mining's revenue in fiscal 2019?")
    assert result.status == "insufficient", describe(runtime, result)
    assert "FY2023" in result.answer and "FY2024" in result.answer, result.answer
    assert not result.citations and not states_amount(result.answer, 4210.0)


def test_a_metric_the_filings_do_not_state_is_insufficient(runtime: Any) -> None:
    result = ask(runtime, "What was Kestrel Mining's same-store sales growth in fiscal 2024?")
    assert result.status == "insufficient", describe(runtime, result)
    assert not result.citations


def test_a_company_not_in_the_kb_is_insufficient(runtime: Any) -> None:
    """Recorded behaviour: an unknown company gets 'insufficient' after a search of every filing, not a
    refusal."""
    result = ask(runtime, "What was Quillfeather Aerospace's revenue in fiscal 2023?")
    assert result.status == "insufficient", describe(runtime, result)
    assert not result.citations
    assert not any(v for v, _ in amounts(result.answer)), result.answer
