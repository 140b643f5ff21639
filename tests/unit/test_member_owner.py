"""A segment named with the company's short name before it ('Kestrel Macau' of Kestrel Resorts) is asked as the
question writes it ('Kestrel Macau's net revenues', read as the segment 'Macau') and found as the table's row
names it; a fourth-quarter release's 'three months ended' columns are the fourth quarter's. Every company and
figure here is made up."""

from __future__ import annotations

from app.facts.query import same_member
from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Kestrel Resorts International"
TABLE = ("KESTREL RESORTS INTERNATIONAL AND SUBSIDIARIES\n"
         "SUPPLEMENTAL DATA - NET REVENUES\n"
         "(In thousands)\n"
         "Three months ended\n"
         "December 31,\n"
         "2024 2023\n"
         "Coastal Resorts $ 1,297,282 $ 1,106,686\n"
         "Regional Operations 591,452 499,607\n"
         "Kestrel Macau 174,720 314,717\n"
         "Management and other operations 28,762 24,101\n"
         "$ 2,092,216 $ 1,945,111\n")


def test_a_row_with_the_owners_short_name_before_the_member_is_that_member():
    assert same_member("Macau", "Kestrel Macau", CO)
    assert not same_member("Macau", "Kestrel Macau")  # without the owner, another name
    assert not same_member("Macau", "Cotai Macau", CO)  # another word than the owner's
    assert not same_member("Macau", "Kestrel", CO)


def test_the_segment_asked_with_the_companys_short_name_is_its_fourth_quarter_row():
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2024, p.13 [text]", text=TABLE,
                  source_id="KESTREL_2024Q4_EARNINGS", chunk_id="KESTREL_2024Q4_EARNINGS:p13::0", company=CO,
                  fiscal_year=2024, page=13)
    said = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2024]},
                   "What were Kestrel Macau's net revenues in the fourth quarter of 2024?").figure_answer()
    assert said and "Kestrel Macau net revenues were $174,720k" in said[0]
