"""app.text.identity: which filing a name or a cover page describes, and which company a name means."""

from __future__ import annotations

from datetime import date

import pytest

from app.text.identity import (
    FilingIdentity,
    display_company,
    normalize_company,
    normalize_form,
    parse_fiscal_year,
    read_cover,
    read_identity,
    read_registrant,
    read_name,
    spelling_rank,
)

# A cover page in the layout of an annual report on Form 10-K (fictional registrant).
ANNUAL_COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
(Mark One)
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended February 2, 2019
OR
Commission File Number: 1-9999
ORCHARD LANE STORES CO., INC.
(Exact name of registrant as specified in its charter)
Minnesota 41-0000000
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbol(s) Name of each exchange on which registered
Common Stock, $0.10 par value per share OLS New York Stock Exchange
Our Annual Report on Form 10-Q is not this document.
"""

# The same kind of cover as PDF text often comes out: one field per line, registrant on the phrase's line.
QUARTERLY_COVER = """FORM 10-Q
QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the quarterly period ended July 2, 2023
Commission File Number 1-0000 QUILLON PHARMA INC. (Exact name of registrant as specified in its charter)
Title of each class
Trading Symbol(s)
Name of each exchange on which registered
Common Stock, $0.05 par value
QLP
New York Stock Exchange
"""

RELEASE = """Tamsin Tools Reports Fourth-Quarter and Full-Year 2022 Results
RIVERTON, Jan. 24, 2023 -- Tamsin Tools (NYSE: TMT) today announced results for the fourth quarter of 2022.
"""


# --- names -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "expected"), [
    ("BESTBUY_2019_10K", FilingIdentity(company="BESTBUY", fiscal_year=2019, form="10-K")),
    ("Pfizer_2023Q2_10Q", FilingIdentity(company="Pfizer", fiscal_year=2023, fiscal_quarter=2, form="10-Q")),
    ("AMCOR_2022_8K_dated-2022-07-01",
     FilingIdentity(company="AMCOR", fiscal_year=2022, form="8-K", filing_date=date(2022, 7, 1))),
    ("JOHNSON_JOHNSON_2022Q4_EARNINGS", FilingIdentity(company="JOHNSON JOHNSON", fiscal_year=2022,
                                                       fiscal_quarter=4, form="earnings",
                                                       aliases=("JOHNSON_JOHNSON",))),
    ("3M_2018_10K", FilingIdentity(company="3M", fiscal_year=2018, form="10-K")),
    ("BESTBUY_2019_10K:p12", FilingIdentity(company="BESTBUY", fiscal_year=2019, form="10-K")),
    ("filings/BESTBUY_2019_10K.pdf", FilingIdentity(company="BESTBUY", fiscal_year=2019, form="10-K")),
    ("BESTBUY 2019 10K", FilingIdentity(company="BESTBUY", fiscal_year=2019, form="10-K")),  # a title from it
    ("acme-fy2023.md", FilingIdentity(fiscal_year=2023)),
    ("corpus/acme_FY-2019_report.txt", FilingIdentity(fiscal_year=2019)),
    ("acme-2023.md", FilingIdentity()),  # a bare year in a free name is not a fiscal year
    ("records.json#2", FilingIdentity()),
])
def test_read_name(name: str, expected: FilingIdentity) -> None:
    assert read_name(name) == expected


def test_an_impossible_filing_date_in_a_name_is_dropped() -> None:
    assert read_name("AMCOR_2022_8K_dated-2022-13-45").filing_date is None


# --- cover pages -------------------------------------------------------------------------------------------------


def test_annual_cover() -> None:
    found = read_cover(ANNUAL_COVER)
    assert found.company == "ORCHARD LANE STORES CO., INC."
    assert (found.form, found.period_end, found.fiscal_year) == ("10-K", date(2019, 2, 2), 2019)
    assert found.ticker == "OLS" and found.fiscal_quarter is None


def test_quarterly_cover_with_one_field_per_line() -> None:
    found = read_cover(QUARTERLY_COVER)
    assert found.company == "QUILLON PHARMA INC."
    assert (found.form, found.period_end, found.fiscal_year, found.ticker) == ("10-Q", date(2023, 7, 2), 2023, "QLP")


def test_year_ending_mid_year_is_named_for_the_year_it_ends() -> None:
    found = read_cover("Harbour Mining plc\nAnnual Report\nResults for the year ended 30 June 2024\n")
    assert (found.fiscal_year, found.period_end) == (2024, date(2024, 6, 30))
    assert found.company == "Harbour Mining plc"  # a short line ending in a corporate suffix


def test_earnings_release() -> None:
    found = read_cover(RELEASE)
    assert (found.form, found.fiscal_year, found.fiscal_quarter, found.ticker) == ("earnings", 2022, 4, "TMT")


def test_form_header_beats_a_mention_of_another_form() -> None:
    text = "FORM 8-K\nCURRENT REPORT\nDate of Report (Date of earliest event reported): July 1, 2022\n" \
           "See our Annual Report on Form 10-K."
    found = read_cover(text)
    assert found.form == "8-K" and found.filing_date == date(2022, 7, 1)


def test_a_form_only_referred_to_is_not_the_documents_form() -> None:
    assert read_cover("As described in our Annual Report on Form 10-K, revenue rose.").form is None


def test_plain_prose_says_nothing() -> None:
    assert read_cover("Revenue rose 6% in the north.") == FilingIdentity()


# --- both together -----------------------------------------------------------------------------------------------


def test_name_wins_over_cover_for_the_year_and_the_cover_gives_the_human_spelling() -> None:
    cover = "ZEPHYRGAMES INC.\n(Exact name of registrant as specified in its charter)\n" \
            "FORM 10-K\nFor the fiscal year ended December 31, 2021\n"
    found = read_identity("ZEPHYR_GAMES_2022_10K", text=cover)
    assert found.fiscal_year == 2022  # the name says 2022; the cover's period end says 2021
    assert found.period_end == date(2021, 12, 31)
    assert found.company == "Zephyrgames"
    assert "ZEPHYR GAMES" in found.aliases and "ZEPHYRGAMES INC." in found.aliases


def test_token_and_registrant_of_one_company() -> None:
    cover = "ACTIVE BLIZZARD ARTS, INC.\n(Exact name of registrant as specified in its charter)\n"
    found = read_identity("ACTIVEBLIZZARDARTS_2021_10K", text=cover)
    assert found.company == "Active Blizzard Arts"
    assert found.aliases == ("ACTIVEBLIZZARDARTS", "ACTIVE BLIZZARD ARTS, INC.")


def test_a_token_that_starts_the_registrants_name_is_the_same_company() -> None:
    cover = "Marlow Resorts International\n(Exact name of registrant as specified in its charter)\n"
    assert read_identity("MARLOWRESORTS_2022_10K", text=cover).company == "Marlow Resorts International"


def test_earlier_names_win() -> None:
    found = read_identity("NORTHWIND_2024_10K", "NORTHWIND_2023Q1_10Q")
    assert (found.fiscal_year, found.form, found.fiscal_quarter) == (2024, "10-K", 1)


def test_registrant_without_a_name_is_the_company() -> None:
    found = read_identity("report.pdf", text=ANNUAL_COVER)
    assert found.company == "Orchard Lane Stores"
    assert found.aliases == ("ORCHARD LANE STORES CO., INC.",)


# --- company names -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spellings", [
    ["PFIZER", "Pfizer", "Pfizer Inc.", "pfizer, inc"],
    ["ACTIVISIONBLIZZARD", "Activision Blizzard", "Activision Blizzard, Inc."],
    ["JOHNSON_JOHNSON", "Johnson & Johnson", "Johnson and Johnson"],
    ["3M", "3M COMPANY", "3M Co."],
    ["The Quayside Group plc", "QUAYSIDE", "Quayside Holdings"],
    ["Nestlé S.A.", "NESTLE"],
])
def test_one_company_however_spelled(spellings: list[str]) -> None:
    assert len({normalize_company(s) for s in spellings}) == 1


def test_different_companies_stay_apart() -> None:
    assert normalize_company("Acme Rail") != normalize_company("Acme Air")
    assert normalize_company("Group") == "group"  # a name that is only a suffix keeps it


@pytest.mark.parametrize(("raw", "shown"), [
    ("ACTIVISION BLIZZARD, INC.", "Activision Blizzard"),
    ("Best Buy Co., Inc.", "Best Buy"),
    ("3M COMPANY", "3M"),
    ("The Coca-Cola Company", "Coca-Cola"),
    ("AT&T INC.", "AT&T"),
    ("CVS HEALTH CORP", "CVS Health"),
    ("AMAZON.COM, INC.", "Amazon.com"),
    ("MGM RESORTS INTERNATIONAL", "MGM Resorts International"),
    ("RHEINFELD Antriebstechnik AG", "Rheinfeld Antriebstechnik"),
])
def test_display_company(raw: str, shown: str) -> None:
    assert display_company(raw) == shown


def test_display_company_takes_the_filings_own_spelling() -> None:
    cover = "KESTREL-NORTH HOLDINGS INC.\nAnnual Report\nKestrel-North Holdings Inc. (the Company) makes valves."
    assert display_company("KESTREL-NORTH HOLDINGS INC.", cover) == "Kestrel-North"
    assert display_company("CVS HEALTH CORPORATION", "CVS Health Corporation and its subsidiaries") == "CVS Health"


def test_spelling_rank_prefers_human_spellings() -> None:
    names = ["JOHNSON_JOHNSON", "Pfizer Inc.", "ACTIVISIONBLIZZARD", "Activision Blizzard", "Pfizer"]
    assert sorted(names, key=spelling_rank, reverse=True) == [
        "Activision Blizzard", "Pfizer", "Pfizer Inc.", "ACTIVISIONBLIZZARD", "JOHNSON_JOHNSON"]


# --- years and forms ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "year"), [("2024", 2024), ("FY2024", 2024), ("fy2024", 2024), ("FY 2024", 2024),
                                            ("FY24", 2024), ("fiscal 2019", 2019)])
def test_parse_fiscal_year(value: str, year: int) -> None:
    assert parse_fiscal_year(value) == year


@pytest.mark.parametrize("value", ["12", "24", "FY", "twenty24", "FY1800", "2024-25", ""])
def test_parse_fiscal_year_refuses(value: str) -> None:
    with pytest.raises(ValueError):
        parse_fiscal_year(value)


@pytest.mark.parametrize(("value", "form"), [("10K", "10-K"), ("10-q", "10-Q"), ("Form 8-K", "8-K"),
                                            ("EARNINGS", "earnings"), ("earnings release", "earnings"),
                                            ("8Q", None), ("memo", None)])
def test_normalize_form(value: str, form: str | None) -> None:
    assert normalize_form(value) == form


# --- reports beyond US filings -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "year", "quarter", "form"), [
    ("OSPREYWATER_2024_AR", 2024, None, "annual"),
    ("OSPREYWATER_2025H1_HY", 2025, 2, "half-year"),  # the first half of FY2025: it ends the second quarter
    ("OSPREYWATER_2024_Annual_Report.pdf", 2024, None, "annual"),
    ("OSPREYWATER_2024_IR", 2024, None, "half-year"),
])
def test_annual_and_half_year_reports_by_name(name: str, year: int, quarter: int | None, form: str) -> None:
    found = read_name(name)
    assert (found.company, found.fiscal_year, found.fiscal_quarter, found.form) == ("OSPREYWATER", year, quarter, form)


def test_covers_of_other_markets() -> None:
    german = ("Annual Report 2024\nOSPREY\nWasserwerke AG\nFinancial year 1 January to 31 December 2024\n"
              "Frankfurt Stock Exchange | Ticker symbol: OSW\nOsprey Wasserwerke AG supplies water.")
    found = read_identity("OSPREY_2024_AR", text=german)
    assert (found.company, found.fiscal_year, found.ticker) == ("Osprey Wasserwerke", 2024, "OSW")
    assert read_cover("Annual Report 2024\nFor the year ended 30 June 2024").fiscal_year == 2024
    assert read_cover("Financial year 1 January to 31 December 2023\n").fiscal_year == 2023
    assert read_cover("OSPREY MINING LIMITED\nASX: OSP\n").ticker == "OSP"
    assert read_cover("Securities code: 6597\nTokyo Stock Exchange").ticker == "6597"
    assert read_cover("listed on the TSX under the symbol OSW.").ticker == "OSW"


def test_an_earnings_release_names_its_company_in_its_dateline() -> None:
    release = ("March 9, 2025\nOsprey Outdoor Announces Fourth Quarter Fiscal 2024 Results\nNet Sales of $3.2 Billion\n"
               "BOLINGBROOK, Ill.--(BUSINESS WIRE)-- Osprey Outdoor, Inc. (NASDAQ: OSPO) today\nannounced financial "
               "results for the thirteen-week period ended February 1, 2025.")
    assert read_registrant(release) == ("Osprey Outdoor, Inc.", False)
    found = read_identity("OSPREYOUTDOOR_2025Q4_EARNINGS", text=release)
    assert found.company == "Osprey Outdoor" and "OSPREYOUTDOOR" in found.aliases
    # a sentence that names no ticker names no registrant
    assert read_registrant("Revenue of Osprey Outdoor rose 6% and it announced a dividend.") == (None, False)


def test_a_capitalised_file_token_for_a_filing_under_an_earlier_name_is_shown_as_a_name() -> None:
    from app.text.identity import read_identity

    cover = ("FORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13\nFor the fiscal year ended December 31, 2020\n"
             "OSPREY PAYMENTS, INC.\n(Exact name of registrant as specified in its charter)\nDelaware")
    found = read_identity("KESTRELPAY_2020_10K", text=cover)
    assert found.company == "Kestrelpay", found
    assert "KESTRELPAY" in found.aliases and "OSPREY PAYMENTS, INC." in found.aliases, found
