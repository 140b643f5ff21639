"""A balance sheet that lists inventories as a caption over its parts, with no total line ('Inventories, net' /
'Raw materials and supplies' / 'Work in process and finished goods'), states the inventories all the same: the
statement reader gives the caption a row, each column the sum of its parts, so the quick ratio's 'current assets
less inventory' can be computed (it had fallen back to cash and receivables). Every figure is made up."""

from __future__ import annotations

from app.text.statements import read_statement

HEAD = ("Kestrel Packaging plc and Subsidiaries\nConsolidated Balance Sheets\n($ in millions)\n"
        "As of June 30, 2024 2023\nAssets\nCurrent assets:\nCash and cash equivalents $ 412 $ 388\n"
        "Trade receivables, net 1,020 998\n")
TAIL = "Prepaid expenses and other current assets 210 205\nTotal current assets 2,862 2,801\n"


def _rows(middle: str) -> dict[str, list[float | None]]:
    return {r.line_item: r.values for r in read_statement(HEAD + middle + TAIL).rows}


def test_a_caption_over_its_parts_is_their_sum():
    rows = _rows("Inventories, net\nRaw materials and supplies 540 560\nWork in process and finished goods 680 650\n")
    assert rows["Inventories, net"] == [1220.0, 1210.0]
    assert rows["Raw materials and supplies"] == [540.0, 560.0]  # the parts stay rows of their own
    assert rows["Prepaid expenses and other current assets"] == [210.0, 205.0]


def test_a_stated_total_is_not_summed_again_and_other_rows_are_no_parts():
    stated = _rows("Inventories 1,220 1,210\nRaw materials and supplies 540 560\n")
    assert stated["Inventories"] == [1220.0, 1210.0] and list(stated).count("Inventories") == 1
    # a caption followed by rows that are not an inventory's parts gives no row
    assert "Inventories, net" not in _rows("Inventories, net\nPrepaid expenses 540 560\nOther assets 680 650\n")


def test_the_quick_ratio_takes_current_assets_less_the_summed_inventories():
    from app.evidence import Evidence
    from app.facts.readers import extract_figures
    from app.models.providers.offline.calculator import plan_tool_calls

    page = (HEAD + "Inventories, net\nRaw materials and supplies 540 560\nWork in process and finished goods 680 650\n"
            + TAIL + "Liabilities\nCurrent liabilities:\nTrade payables 1,500 1,480\nTotal current liabilities 2,400 "
            "2,350\n")
    figures = extract_figures([Evidence(chunk_id="k:p51::0", source_id="KESTREL_2024_10K:p51", company="Kestrel",
                                        fiscal_year=2024, page=51, text=page)])
    plan = plan_tool_calls("What was Kestrel's quick ratio in FY2024?", figures)
    assert plan and plan[0][0] == "metric"
    args = plan[0][1]
    assert 1220.0 in args["inputs"].values() and 2862.0 in args["inputs"].values()
