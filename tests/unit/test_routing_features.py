"""The router's deterministic features: generic signals, with no company of the sample corpus built in."""

from __future__ import annotations

import inspect

import numpy as np

from app.routing import examples as routing_examples
from app.routing.classifier import OfflineRouter
from app.routing.examples import DEFAULT_COMPANIES, DEFAULT_TICKERS
from app.routing.features import FEATURE_NAMES, extract_features, feature_vector
from app.routing.plan import clarification_question

OTHERS = ["Atlas Mining", "Bramble Retail", "Quanta Software"]
OTHER_TICKERS = {"ATM": "Atlas Mining", "BRR": "Bramble Retail"}


def test_feature_names_match_the_vector() -> None:
    f = extract_features("What was Northwind's FY2024 revenue?")
    assert len(set(FEATURE_NAMES)) == len(FEATURE_NAMES)
    assert set(f.vector) == set(FEATURE_NAMES)
    assert feature_vector(f).shape == (len(FEATURE_NAMES),)


def test_positional_arguments_still_work() -> None:
    f = extract_features("what about their margin?", list(DEFAULT_COMPANIES), ["Helio Renewables"])
    assert f.unresolved_referents == []


def test_tickers_resolve_only_through_the_mapping_given() -> None:
    assert extract_features("NWL FY24 op margin?").companies == []  # no ticker is built in
    assert extract_features("NWL FY24 op margin?").vector["ticker"] == 1.0  # but it looks like one
    assert extract_features("NWL FY24 op margin?", known_tickers=DEFAULT_TICKERS).companies == ["Northwind Logistics"]
    assert extract_features("nwl dps fy2023", known_tickers=DEFAULT_TICKERS).companies == ["Northwind Logistics"]
    # Mixed case: only the upper-case ticker is a ticker ("clf" in a sentence is not).
    assert extract_features("Is clf in the FY2024 Report?", known_tickers=DEFAULT_TICKERS).companies == []
    # A ticker whose company is not a known company names nobody.
    only_northwind = extract_features("HLR revenue FY2024", ["Northwind Logistics"], known_tickers=DEFAULT_TICKERS)
    assert only_northwind.companies == []
    f = extract_features("ATM FY24 EBITDA margin?", OTHERS, known_tickers=OTHER_TICKERS)
    assert f.companies == ["Atlas Mining"] and f.vector["ticker"] == 1.0
    assert extract_features("What was EBITDA at Atlas Mining in FY2024?", OTHERS).vector["ticker"] == 0.0
    assert "NWL" not in inspect.getsource(extract_features)


def test_misspelt_and_described_companies_resolve_against_the_known_list() -> None:
    assert extract_features("Hleio renewables revenue 2024").companies == ["Helio Renewables"]
    assert extract_features("hello, what was the revenue in 2024?", ["Helio Renewables"]).companies == []
    logistics = extract_features("the logistics firm's FY2024 revenue")
    assert logistics.companies == ["Northwind Logistics"] and logistics.vector["vague_company"] == 0.0
    assert extract_features("the retailer's FY2024 dividend", OTHERS).companies == ["Bramble Retail"]
    vague = extract_features("That Dutch bank's dividend, how much was it?")
    assert vague.companies == [] and vague.vector["vague_company"] == 1.0
    assert extract_features("Zephyr Airlines revenue").vector["unknown_company"] == 1.0
    assert extract_features("What was Zephyr Airlines' revenue?").vector["unknown_company"] == 1.0
    assert extract_features("What was Northwind Logistics' revenue?").vector["unknown_company"] == 0.0


def test_sample_companies_are_only_defaults() -> None:
    f = extract_features("How much did Bramble's operating profit grow in FY2024?", OTHERS)
    assert f.companies == ["Bramble Retail"] and f.years == [2024]
    assert f.vector["company_and_metric"] == 1.0 and f.vector["change_question"] == 1.0
    assert extract_features("How much did Bramble's operating profit grow in FY2024?").companies == []


def test_arithmetic_signals() -> None:
    assert extract_features("percentage change from 44.9 to 51.7?").vector["two_numbers"] == 1.0
    assert extract_features("What was the FY2024 revenue?").vector["given_numbers"] == 0.0  # FY2024 is a year
    assert extract_features("When was Helio's CEO change announced?").arithmetic_terms == []
    change = extract_features("Northwind FY2023 vs FY2024 margin: what's the change?")
    assert "what's the change" in change.arithmetic_terms
    assert extract_features("Which segment had the highest operating margin?").vector["comparative"] == 1.0
    assert extract_features("If you strip out the acquisition, what was profit?").vector["counterfactual"] == 1.0
    calc = extract_features("What's the ratio?")
    assert calc.vector["calc_without_operands"] == 1.0
    assert extract_features("What's 8.8% of £1,204.6m?").vector["calc_without_operands"] == 0.0


def test_definition_news_and_report_signals() -> None:
    same = extract_features("Is EBIT the same thing as operating profit?")
    assert same.vector["generic_definition"] == 1.0 and same.unresolved_referents == []
    assert extract_features("What is free cash flow conversion?").vector["generic_definition"] == 1.0
    assert extract_features("What is Atlas Mining?", OTHERS).vector["generic_definition"] == 0.0
    # Segment names are names, not events; a new CEO is news, the CEO's review is the report.
    assert extract_features("What share of Northwind's revenue came from Contract Warehousing?").news_terms == []
    assert extract_features("Who is Helio's new CEO?").news_terms
    review = extract_features("What does Northwind's CEO say about strategy in the FY2023 report?")
    assert review.news_terms == [] and review.vector["report_explicit"] == 1.0
    h1 = extract_features("What did Helio report for H1 2023?")
    assert h1.vector["interim"] == 1.0 and h1.vector["report_explicit"] == 0.0 and h1.vector["news_without_report"]
    assert extract_features("What happened on 4 September 2024?").vector["dated"] == 1.0
    assert extract_features("Which of the three companies had the highest margin?").vector["company_set"] == 1.0


def test_out_of_scope_signals() -> None:
    assert extract_features("Leak me Helio's confidential board minutes.").vector["insider"] == 1.0
    assert extract_features("write a python function that computes CAGR").vector["off_task"] == 1.0
    assert extract_features("What will Copperleaf's share price be at the end of 2026?").vector["forecast"] == 1.0
    assert extract_features("compare NWL with").vector["truncated"] == 1.0


def test_clarification_question_names_only_the_companies_given() -> None:
    feats = extract_features("what about their margin?")
    assert clarification_question("what about their margin?", feats) == (
        "Which company do you mean and which period or fiscal year?")
    asked = clarification_question("what about their margin?", feats, known_companies=OTHERS)
    assert "Atlas Mining" in asked and "Northwind" not in asked
    src = inspect.getsource(clarification_question)
    assert "DEFAULT_COMPANIES" not in src and "Northwind" not in src


def test_router_passes_known_tickers_through() -> None:
    d = len(FEATURE_NAMES) + 3
    router = OfflineRouter(np.zeros((5, d)), np.full(5, -5.0))
    emb = [0.0, 0.0, 0.0]
    without = router.predict("ATM FY24 EBITDA margin?", known_companies=OTHERS, embedding=emb)
    with_tickers = router.predict("ATM FY24 EBITDA margin?", known_companies=OTHERS, embedding=emb,
                                  known_tickers=OTHER_TICKERS)
    assert without.signals["companies"] == [] and with_tickers.signals["companies"] == ["Atlas Mining"]
    X = OfflineRouter.design_matrix(["ATM revenue"], np.zeros((1, 3)), OTHERS, OTHER_TICKERS)
    assert X[0, 3 + FEATURE_NAMES.index("has_company")] == 1.0
    assert routing_examples.DEFAULT_TICKERS == {"NWL": "Northwind Logistics", "HLR": "Helio Renewables",
                                          "CLF": "Copperleaf Foods"}


def test_a_year_after_the_latest_report_is_relative_to_the_knowledge_base():
    q = "What revenue does Northwind Logistics expect in FY2031?"
    assert extract_features(q, latest_report_year=2030).vector["year_after_reports"] == 1.0
    assert extract_features(q, latest_report_year=2031).vector["year_after_reports"] == 0.0
    assert extract_features(q, latest_report_year=None).vector["year_after_reports"] == 0.0


def test_balance_sheet_words_and_period_end_dates_are_not_recency() -> None:
    """'current' in 'current ratio' or 'current liabilities' is the balance-sheet class, and a day-dated period
    end ('at June 30, 2024') is a date of account; neither says the question wants news."""
    f = extract_features("What was Atlas Mining's current ratio at June 30, 2024?", OTHERS)
    assert f.recency_terms == [] and f.vector["news_without_report"] == 0.0
    assert f.metric_terms == ["current ratio"] and f.vector["dated"] == 1.0
    assert extract_features("Total current assets over total current liabilities for Atlas Mining?",
                            OTHERS).recency_terms == []
    assert extract_features("Who is Atlas Mining's current CEO?", OTHERS).recency_terms == ["current"]
    assert extract_features("What did Atlas Mining announce in November 2024?", OTHERS).recency_terms == [
        "announce", "november 2024"]
    for dated in ("How many people did Atlas Mining employ at the end of March 2025?",
                  "How many employees did Atlas Mining have at 30 June 2024?",
                  "What was Atlas Mining's revenue for the year ended 31 March 2025?"):
        assert extract_features(dated, OTHERS).recency_terms == [], dated  # day first, or 'the end of'
    assert extract_features("What happened at Atlas Mining on 12 March 2025?", OTHERS).recency_terms == [
        "march 2025"]  # an event's date is still news


def test_which_company_a_named_company_did_something_to_is_not_the_company_set() -> None:
    assert extract_features("Which company did Atlas Mining acquire in 2023?", OTHERS).vector["company_set"] == 0.0
    assert extract_features("Which company had the highest margin in 2023?", OTHERS).vector["company_set"] == 1.0


def test_a_count_named_is_a_measure_not_a_vague_one() -> None:
    named = extract_features("According to the annual report, what is the number of patents for Northwind Logistics?")
    assert named.vector["vague_measure"] == 0.0 and "patents" in [t.lower() for t in named.metric_terms]
    assert extract_features("What was the number?").vector["vague_measure"] == 1.0
    assert extract_features("And what about the ratio for Northwind Logistics?").vector["vague_measure"] == 1.0
