"""app.text.companies: the one company matcher. The first part holds the cases app/knowledge/fusion.companies_in
(search, enrichment, the user's figures) was tested on; those of app/routing/companies.companies_named (routing,
the memory guard) stay in tests/unit/test_routing_guarantees.py. The last part holds each case the two readers
disagreed on, with what each said and what the one matcher says now."""

from __future__ import annotations

import pytest

from app.text.companies import companies_named, company_aliases, company_spans, name_words, normalize_name
from app.text.identity import normalize_company

# --- the cases of the search matcher (was app/knowledge/fusion.companies_in) -----------------------------------

COMPANIES = [
    "Northwind Logistics plc",
    "American Express Company",
    "American Water Works Company, Inc.",
    "Johnson & Johnson",
    "Block, Inc.",
    "Copperleaf Foods Ltd",
]


def test_normalize_name_drops_suffixes_and_punctuation() -> None:
    assert normalize_name("Northwind Logistics plc") == "northwind logistics"
    assert normalize_name("American Water Works Company, Inc.") == "american water works"
    assert normalize_name("Johnson & Johnson") == "johnson johnson"
    assert normalize_name("The Acme Group Holdings Ltd") == "acme"


def test_aliases_full_name_and_unique_first_word() -> None:
    aliases = company_aliases(COMPANIES)
    assert aliases["northwind logistics"] == "Northwind Logistics plc"
    assert aliases["northwindlogistics"] == "Northwind Logistics plc"
    assert aliases["northwind"] == "Northwind Logistics plc"
    assert aliases["copperleaf"] == "Copperleaf Foods Ltd"
    assert "american" not in aliases  # shared by two companies (and a common word)
    assert aliases["american express"] == "American Express Company"
    assert aliases["american water works"] == "American Water Works Company, Inc."


def test_shared_first_word_not_an_alias_even_if_uncommon() -> None:
    aliases = company_aliases(["Zephyr Air", "Zephyr Rail"])
    assert "zephyr" not in aliases
    assert aliases["zephyr air"] == "Zephyr Air"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What was Northwind Logistics revenue in FY2024?", ["Northwind Logistics plc"]),
        ("What did Northwind earn?", ["Northwind Logistics plc"]),
        ("northwind's margin", ["Northwind Logistics plc"]),
        ("Northwind Logistics plc results", ["Northwind Logistics plc"]),
        ("How did American do last year?", []),
        ("american express card fees", ["American Express Company"]),
        ("American Water Works capital expenditure", ["American Water Works Company, Inc."]),
        ("Johnson & Johnson pharmaceutical sales", ["Johnson & Johnson"]),
        ("Johnson and Johnson sales", ["Johnson & Johnson"]),
        ("Northwindish growth", []),
        ("revenue growth in FY2024", []),
    ],
)
def test_companies_named(query: str, expected: list[str]) -> None:
    assert companies_named(query, COMPANIES) == expected


def test_companies_in_order_of_first_mention() -> None:
    assert companies_named("Compare Copperleaf with Northwind Logistics", COMPANIES) == [
        "Copperleaf Foods Ltd", "Northwind Logistics plc"]
    assert companies_named("Compare Northwind with Copperleaf and Northwind again", COMPANIES) == [
        "Northwind Logistics plc", "Copperleaf Foods Ltd"]


def test_corporate_suffixes_ignored_on_both_sides() -> None:
    assert companies_named("Copperleaf Foods Limited results", COMPANIES) == ["Copperleaf Foods Ltd"]
    assert companies_named("Acme revenue", ["Acme Holdings plc"]) == ["Acme Holdings plc"]
    assert companies_named("Acme Corporation revenue", ["Acme Inc."]) == ["Acme Inc."]


def test_common_word_company_needs_capital() -> None:
    assert companies_named("How do I block a payment?", COMPANIES) == []
    assert companies_named("Block revenue in FY2024", COMPANIES) == ["Block, Inc."]
    assert companies_named("What did analysts say about Block?", COMPANIES) == ["Block, Inc."]


def test_no_companies() -> None:
    assert companies_named("Northwind revenue", []) == []
    assert company_aliases([]) == {}


def test_one_word_aliases_need_to_look_like_a_name() -> None:
    companies = ["The Home Depot, Inc.", "Block", "Northwind Logistics plc"]
    assert companies_named("home prices in the south", companies) == []
    assert companies_named("What did Home Depot earn?", companies) == ["The Home Depot, Inc."]
    assert companies_named("BLOCK gross profit", companies) == ["Block"]
    assert companies_named("northwind revenue fy2024", companies) == ["Northwind Logistics plc"]
    assert companies_named("Revenue at NORTHWIND", companies) == ["Northwind Logistics plc"]


def test_leading_words_of_a_long_name_find_it_when_no_other_company_shares_them() -> None:
    companies = ["MGM Resorts International", "American Water Works", "American Water Utilities"]
    assert companies_named("What was MGM Resorts' revenue?", companies) == ["MGM Resorts International"]
    assert companies_named("American Water revenue", companies) == []  # two companies start so


def test_an_upper_case_abbreviation_spelling_a_name_word_by_word_finds_it() -> None:
    companies = ["American Express", "Netflix", "Adobe Systems"]
    assert companies_named("Does AMEX have an improving margin?", companies) == ["American Express"]
    assert companies_named("Does AMD have a healthy quick ratio?", companies) == []
    assert companies_named("What was NET revenue?", companies) == []  # one-word names are never abbreviated


def test_a_name_written_without_spaces_is_found_only_when_written_as_a_name() -> None:
    assert companies_named("What was Best Buy's revenue?", ["BESTBUY"]) == ["BESTBUY"]
    assert companies_named("Which laptop is the best buy?", ["BESTBUY"]) == []


# --- where the two readers disagreed ---------------------------------------------------------------------------
# in: app/knowledge/fusion.companies_in (search, enrichment, figures); named: app/routing/companies.companies_named
# (routing, the memory guard). The one matcher keeps what each did right.


def test_abbreviations_and_the_names_the_sources_state_count_everywhere() -> None:
    """in: found; named: [] (it read neither abbreviations nor the catalog's aliases)."""
    assert companies_named("Does AMEX have an improving margin?", ["American Express", "Netflix"]) == [
        "American Express"]
    known = ["Johnson & Johnson", "Pfizer"]
    aliases = {"jnj": "Johnson & Johnson", "pfe": "Pfizer"}
    assert companies_named("What did JnJ earn in FY2023?", known, aliases) == ["Johnson & Johnson"]
    assert companies_named("What was PFE's revenue?", known, aliases) == ["Pfizer"]
    assert companies_named("What was PFE's revenue?", known) == []  # a ticker counts only as a stated alias


def test_ordinary_words_in_lower_case_are_never_a_name_however_many() -> None:
    """in: found (a name of two words or more needed no capital; a squashed one none in an all-lower-case
    text; 'apple' and 'orchard' were not on its list of common words); named: []."""
    assert companies_named("Which laptop is the best buy?", ["Best Buy Co., Inc."]) == []
    assert companies_named("which laptop is the best buy?", ["BESTBUY"]) == []
    assert companies_named("what was home depot's revenue in fy2023?", ["The Home Depot, Inc."]) == []
    assert companies_named("What did home depot earn?", ["The Home Depot, Inc."]) == []
    assert companies_named("apple revenue fy2023", ["Apple Inc."]) == []
    assert companies_named("orchard's fy2022 revenue", ["Orchard Inc."]) == []
    # written like a name, they are one
    assert companies_named("What did Home Depot earn?", ["The Home Depot, Inc."]) == ["The Home Depot, Inc."]
    assert companies_named("Apple revenue FY2023", ["Apple Inc."]) == ["Apple Inc."]


def test_a_name_of_two_words_in_lower_case_counts_when_its_words_are_not_ordinary() -> None:
    """in: found for a name stored with spaces, [] for one stored squashed; named: [] for both (a lower-case
    run counted only in an all-lower-case text). One word in lower case still counts only there (both agreed)."""
    assert companies_named("What was northwind logistics' revenue?", ["Northwind Logistics plc"]) == [
        "Northwind Logistics plc"]
    assert companies_named("What was activision blizzard's revenue?", ["ACTIVISIONBLIZZARD"]) == [
        "ACTIVISIONBLIZZARD"]
    assert companies_named("What did northwind earn?", ["Northwind Logistics plc"]) == []
    assert companies_named("what did northwind earn?", ["Northwind Logistics plc"]) == ["Northwind Logistics plc"]


def test_an_alias_of_one_letter_names_nobody() -> None:
    """in: found (the article 'A' named Agilent by its ticker); named: []."""
    known = ["Agilent Technologies", "AT&T Inc."]
    aliases = {"a": "Agilent Technologies", "t": "AT&T Inc."}
    assert companies_named("A question about margins", known, aliases) == []
    assert companies_named("What was T revenue?", known, aliases) == []
    assert companies_named("Did AT&T and Agilent grow?", known, aliases) == ["AT&T Inc.", "Agilent Technologies"]



def test_a_company_short_name_that_is_a_persons_surname_names_the_person_not_the_company() -> None:
    known = ["Halden & Halden", "Corvid Retail"]
    question = "Under the letter covering Richard Halden's retirement from Corvid Retail, may he recruit staff?"
    assert companies_named(question, known) == ["Corvid Retail"]
    assert [c for _, _, c in company_spans(question, known)] == ["Corvid Retail"]
    assert companies_named("Did Ms. Halden leave Corvid Retail?", known) == ["Corvid Retail"]
    # the short name on its own, or first in its sentence, still names the company; the full name always does
    assert companies_named("How did Halden do in 2024?", known) == ["Halden & Halden"]
    assert companies_named("Compare Halden and Corvid Retail.", known) == ["Halden & Halden", "Corvid Retail"]
    assert companies_named("What did Richard Halden & Halden earn?", known) == ["Halden & Halden"]
