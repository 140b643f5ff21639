"""app.text.units: the one vocabulary of scales and currencies, and the one reader of a declared unit, used by the
statement reader, the figure readers, chunking's statement headers, the memory write policy and the composer."""

from __future__ import annotations

import pytest

from app.memory.policy import decide
from app.models.providers.offline.composer import compose_offline
from app.models.providers.offline.composer.wording import format_figure, in_asked_scale
from app.text.figures import declared_scales, table_scale, unit_from_label, without_unit
from app.text.statements import read_statement
from app.text.units import (
    CURRENCIES,
    asked_scale,
    currency_named,
    declared_unit,
    money_scale,
    unit_currency,
    unit_declarations,
)
from app.turns import Block, MemoryItem

# --- one reader of a declared unit ------------------------------------------------------------------------------
# What the four readers it replaces said (statements: app/text/statements._UNIT_LINE with its currency list;
# table_scale: app/text/figures._TABLE_SCALE; declared_scales: app/text/figures._DECLARED; chunking: the unit line
# that starts a statement's header, app/knowledge/chunking._UNIT_DECLARED; '-' is nothing):
#
# | declared                            | statements  | table_scale | declared_scales | chunking |
# |-------------------------------------|-------------|-------------|-----------------|----------|
# | (€ millions)                        | €, millions | €m          | m               | -        |
# | (A$ millions)                       | A$, millions| -           | -               | -        |
# | (£m)                                | -           | -           | m               | -        |
# | € thousand                          | -           | -           | -               | -        |
# | Millions of yen                     | -           | -           | -               | -        |
# | (in millions of Canadian dollars)   | C$, millions| m           | m               | yes      |
# | ¥ million                           | -           | -           | -               | -        |
# | CHF m                               | -           | -           | -               | -        |
# | $m (a line of its own)              | -           | -           | -               | -        |
# | (Dollars in millions)               | $, millions | -           | m               | yes      |

FORMS = [
    ("(€ millions)", ("€", "m")),
    ("(A$ millions)", ("A$", "m")),
    ("(£m)", ("£", "m")),
    ("€ thousand", ("€", "k")),
    ("Millions of yen", ("¥", "m")),
    ("(in millions of Canadian dollars)", ("C$", "m")),
    ("¥ million", ("¥", "m")),
    ("CHF m", ("CHF", "m")),
    ("$m", ("$", "m")),
    ("(Dollars in millions)", ("$", "m")),
    ("(in millions, except per share data)", ("", "m")),
    ("($ in thousands)", ("$", "k")),
    ("(Millions)", ("", "m")),
    ("In thousands, except share data", ("", "k")),
    ("Amounts in EUR million", ("€", "m")),
    ("US$bn", ("$", "bn")),
]


@pytest.mark.parametrize(("text", "expected"), FORMS)
def test_every_form_of_a_declared_unit_is_read_by_the_one_reader(text: str, expected: tuple[str, str]) -> None:
    assert declared_unit(text) == expected
    assert declared_scales(text) == {expected[1]}
    assert table_scale(text) == "".join(expected)


@pytest.mark.parametrize(("text", "expected"), FORMS)
def test_a_statement_page_takes_its_currency_and_scale_from_any_of_them(text: str, expected: tuple[str, str]) -> None:
    page = "\n".join(["CONSOLIDATED INCOME STATEMENT", text, "Year ended 31 March,", "2024", "2023",
                      "Revenue", "1,311.2  1,204.6", "Operating profit", "93.0  80.1", "Net income", "60.2  55.0"])
    statement = read_statement(page)
    scales = {"k": "thousands", "m": "millions", "bn": "billions"}
    assert (statement.currency or "", statement.scale) == (expected[0], scales[expected[1]])
    assert [r.line_item for r in statement.rows] == ["Revenue", "Operating profit", "Net income"]


def test_a_statement_header_starts_at_any_of_them_in_chunking() -> None:
    """A statement below a page's first lines is found by its unit line ('Millions of yen' found none before)."""
    from app.knowledge.chunking import statement_headers

    narrative = [f"Narrative line {i} about the year, which runs on for a while and states no units at all." for i in
                 range(16)]
    statement = ["KANZAKI PRECISION", "CONSOLIDATED STATEMENT OF INCOME", "Millions of yen", "FY2025", "FY2024"]
    assert statement_headers([*narrative, *statement, "Net sales 152,310 148,020"]) == [(16, statement)]


@pytest.mark.parametrize("text", ["(2023: 1.2 million)", "The company sold 5 million units",
                                  "invested in million-dollar homes", "Revenue rose to $5m", "(1 million shares)",
                                  "sterling"])
def test_a_scale_after_a_number_or_a_currency_alone_declares_nothing(text: str) -> None:
    assert declared_unit(text) is None and unit_declarations(text) == []


def test_labels_and_column_headers_declare_units_the_same_way() -> None:
    assert unit_from_label("FY2024 (€ millions)") == "€m" and without_unit("FY2024 (€ millions)").strip() == "FY2024"
    assert unit_from_label("Revenue (A$ millions)") == "A$m"
    assert unit_from_label("Revenue (£m)") == "£m" and without_unit("Revenue (£m)").strip() == "Revenue"
    assert unit_from_label("£m") == "£m" and unit_from_label("(pence)") == "p" and unit_from_label("(%)") == "%"


# --- one vocabulary of scales and currencies --------------------------------------------------------------------


@pytest.mark.parametrize(("text", "symbol"), [
    ("$", "$"), ("US$", "$"), ("USD", "$"), ("U.S. dollars", "$"), ("A$", "A$"), ("AUD", "A$"), ("C$", "C$"),
    ("CAD", "C$"), ("£", "£"), ("GBP", "£"), ("pounds", "£"), ("sterling", "£"), ("€", "€"), ("EUR", "€"),
    ("euros", "€"), ("¥", "¥"), ("JPY", "¥"), ("yen", "¥"), ("CHF", "CHF"), ("Swiss francs", "CHF"),
    ("HK$", "HK$"), ("Hong Kong dollars", "HK$"), ("R$", "R$"),
])
def test_currencies_are_read_in_every_way_they_are_written(text: str, symbol: str) -> None:
    assert currency_named(f"figures in {text}") == symbol


def test_every_written_form_of_the_vocabulary_is_read_as_its_symbol() -> None:
    for symbol, forms in CURRENCIES.items():
        for form in forms:
            assert currency_named(f"in {form} millions") == symbol, form
            assert currency_named(f"in {form.upper()}") == symbol, form


def test_words_that_contain_a_currency_are_not_one() -> None:
    assert currency_named("compound growth") is None and currency_named("Cheyenne") is None


def test_a_unit_splits_into_its_currency_and_scale() -> None:
    assert unit_currency("A$m") == ("A$", "m") and unit_currency("CHFm") == ("CHF", "m")
    assert unit_currency("£bn") == ("£", "bn") and unit_currency("%") == ("", "%")
    assert [money_scale(u) for u in ("$k", "m", "£bn", "¥m", "A$m", "%", "x", "", "$")] == [
        "k", "m", "bn", "m", "m", None, None, None, None]
    assert format_figure(4210, "A$m") == "A$4,210m" and format_figure(-63.9, "$m") == "-$63.9m"
    assert format_figure(1204, "CHFm") == "CHF 1,204m" and format_figure(8.8, "%") == "8.8%"


@pytest.mark.parametrize(("text", "asked"), [
    ("Answer in millions.", ("", "m")), ("Answer in USD millions.", ("$", "m")), ("in A$ millions", ("A$", "m")),
    ("Answer in pounds millions", ("£", "m")), ("in yen billions", ("¥", "bn")), ("use billions", ("", "bn")),
    ("convert to thousands", ("", "k")), ("What was revenue?", None),
])
def test_the_scale_and_currency_a_question_asks(text: str, asked: tuple[str, str] | None) -> None:
    assert asked_scale(text) == asked


def test_a_figure_is_restated_in_the_scale_and_currency_asked() -> None:
    assert in_asked_scale("Answer in pounds millions.", 1_311_200, "£k", 2024) == (
        "£1,311m in FY2024 (stated as £1,311,200k)")
    assert in_asked_scale("Answer in yen billions.", 1_234_567, "¥m", 2025) == (
        "¥1,234.6bn in FY2025 (stated as ¥1,234,567m)")
    assert in_asked_scale("Answer in A$ millions.", 4_210_000, "k", 2024) == (
        "A$4,210m in FY2024 (stated as 4,210,000k)")  # the page gave no currency: the one asked stands in
    assert in_asked_scale("Answer in yen billions.", 4_210, "$m", 2024) == (
        "$4.2bn in FY2024 (stated as $4,210m)")  # no exchange rate: the statement's currency stays


# --- a standing instruction is kept and applied ----------------------------------------------------------------

PAGES = {
    "£": ("NORTHWIND LOGISTICS PLC", "£ thousand", "1,311,200  1,204,600", "£1,311m in FY2024 (stated as £1,311,200k)"),
    "A$": ("NORTHWIND LOGISTICS PLC", "(in thousands of Australian dollars)", "4,210,000  3,980,000",
           "A$4,210m in FY2024 (stated as A$4,210,000k)"),
    "¥": ("NORTHWIND LOGISTICS PLC", "Millions of yen", "1,234,567  1,198,000",
          "¥1,234.6bn in FY2024 (stated as ¥1,234,567m)"),
}


@pytest.mark.parametrize(("instruction", "currency"), [
    ("Answer in pounds millions", "£"), ("Always answer in A$ millions.", "A$"), ("Answer in yen billions", "¥"),
])
def test_a_standing_instruction_on_scale_and_currency_is_kept_and_applied_to_a_figure(instruction: str,
                                                                                      currency: str) -> None:
    """The write policy kept 'answer in pounds millions' and 'in yen billions', but the composer's own reader of an
    asked scale knew only USD, EUR and GBP by their codes and signs: the instruction was never applied."""
    decision = decide(instruction)
    assert decision.kept and decision.type == "constraint" and decision.key == "answer units"
    company, unit_line, values, expected = PAGES[currency]
    page = "\n".join([company, "CONSOLIDATED INCOME STATEMENT", unit_line, "Year ended 31 March,", "2024", "2023",
                      "Revenue", values, "Operating profit", "93,000  80,100", "Net income", "60,200  55,000"])
    block = Block(n=1, kind="report", header="[1] Northwind Logistics FY2024, p.12", source_id="nw", chunk_id="nw-12",
                  company="Northwind Logistics", fiscal_year=2024, text=page)
    row = f"Revenue: 2024 {values.split()[0]}; 2023 {values.split()[1]}"
    constraint = MemoryItem(id="c1", type="constraint", key=decision.key, value=decision.value, scope="user",
                            status="active", source="t:1", created_at="2025-01-01T00:00:00", admitted=True)
    from app.evidence import Claim, RetrievalResult

    state = {"question": "What was Northwind's revenue in FY2024?", "blocks": [block], "memory": [constraint],
             "retrieval_result": RetrievalResult(status="found", claims=[
                 Claim(text=row, evidence_chunk_ids=["nw-12"], company="Northwind Logistics", verified=True)])}
    answer = compose_offline(state)
    assert expected in answer and answer.endswith("[1].")
    without = compose_offline({**state, "memory": []})
    assert "stated as" not in without
