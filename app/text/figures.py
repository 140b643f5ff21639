"""Figures in text: numbers with their currency, scale and unit.

- `FIGURE`, `figures_in(text)`, `states_figure(text)`, `has_figure(wanted, available)`: figures as prose states
  them ('£1,311.2m', '$1.2 billion', '8.8%', '45 bps'), each read as a `FigureKey` (currency, value, scale,
  percent unit) so that two texts can be compared figure by figure.
- `declared_scales(text)`, `has_restated_figure(...)`: a figure restated in another scale than the table's
  ('$382m' for '381,603' under '(In thousands)').
- `parse_cell(cell)`: one table cell as (value, unit): '(63.9)' is -63.9, '£1,311.2m' is (1311.2, '£m').
- `unit_from_label(cell)` / `without_unit(cell)`: the unit a row label or header declares ('Revenue (£m)',
  '(€ millions)', '£m', '(pence)'), and the label without it.
- `table_scale(text)` / `SCALE_WORD_AFTER`: the unit a table declares ('($ in millions)' → '$m') and a scale word
  written after a figure ('1.2 billion').

Scales, currencies and declared units are app/text/units.py's, the one vocabulary. Pure functions, no I/O.
(app/text/statements.py keeps its own reader of statement cells: its columns, dashes and footnote marks are its
own grammar.)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from app.text.units import (  # noqa: F401  (SCALE_FACTORS, SCALE_SUFFIX: importable here too)
    SCALE,
    SCALE_FACTORS,
    SCALE_SUFFIX,
    SCALE_WORD,
    SHORT_SCALE,
    declared_unit,
    unit_declarations,
)

FIGURE = re.compile(
    r"(?<![\w.])(?P<cur>[£$€])?\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    rf"(?:\s?(?P<scale>{SCALE_WORD}|{SHORT_SCALE})\b)?"
    r"(?:\s?(?P<pct>%|(?:per\s?cent|percent|pp|bps)\b))?",
    re.IGNORECASE,
)

FigureKey = tuple[str, float, str, str]  # currency, value, scale, percent-unit ("" when absent)

SCALE_WORD_AFTER = re.compile(rf"\s?(?:{SCALE_WORD}|mn)\b")

NUMBER_CELL = re.compile(
    r"^(?P<neg>\()?(?P<sign>[+\-−])?(?P<cur>[£$€])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<unit>%|p|m|bn|k|x)?\)?$")
UNIT_IN_LABEL = re.compile(r"\((?P<unit>[£$€]\s?(?:m|bn|k)?|%|pence|p|m|bn)\)")


def states_figure(text: str) -> bool:
    """Whether the text states any figure."""
    return FIGURE.search(text) is not None


def parse_figure(match: re.Match[str]) -> FigureKey:
    """A FIGURE match as (currency, value, scale, percent unit): 'billion' → 'bn', 'per cent' → '%'."""
    scale = (match.group("scale") or "").lower()
    pct = re.sub(r"\s", "", (match.group("pct") or "").lower())
    pct = "%" if pct == "percent" else pct
    return match.group("cur") or "", float(match.group("num").replace(",", "")), SCALE.get(scale, scale), pct


def figures_in(text: str) -> list[FigureKey]:
    """Every figure the text states, in order."""
    return [parse_figure(m) for m in FIGURE.finditer(text)]


def has_figure(wanted: FigureKey, available: Iterable[FigureKey]) -> bool:
    """Same number and percent unit; currency and scale must agree where both texts state them (table cells
    such as '1,311.2' under a '(£m)' header carry neither)."""
    cur, value, scale, pct = wanted
    return any(
        math.isclose(value, v, rel_tol=1e-9) and pct == p and (not cur or not c or cur == c)
        and (not scale or not s or scale == s)
        for c, v, s, p in available
    )


def declared_scales(text: str) -> set[str]:
    """The scales a text declares for its bare cells ('(In thousands)', '($ in millions)', a column headed
    '(£m)', a line 'Millions of yen'), as 'k', 'm', 'bn'."""
    return {declaration.scale for declaration in unit_declarations(text)}


def has_restated_figure(wanted: FigureKey, decimals: int, available: Iterable[FigureKey], scales: set[str]) -> bool:
    """A figure restated in another scale or rounded: '$382m' is '381,603' of a table declared '(In thousands)',
    '$3,215m' is '3,215.4m', '10.2%' is '10.18%', each rounded to the decimals it is written with. A bare cell
    takes the scale its text declares; a percentage is never an amount."""
    cur, value, scale, pct = wanted
    if pct:  # '10.2%' is the 10.18% a calculation states, rounded
        return any(p == pct and not s and round(v, decimals) == value for c, v, s, p in available)
    if not cur and not scale and decimals >= 1:  # a ratio to two places: '1.00x' is the calculation's 1.0022x
        return any(not c and not s and not p and round(v, decimals) == value for c, v, s, p in available)
    if scale not in SCALE_FACTORS:
        return False
    # a bare cell rounded in the claim's own scale: '£58m' is the '58.3' of a row labelled 'Free cash flow (£m)'
    if any(not p and not s and (not cur or not c or cur == c) and round(v, decimals) == value != v
           for c, v, s, p in available):
        return True
    return any(round(v * SCALE_FACTORS[source] / SCALE_FACTORS[scale], decimals) == value
               for c, v, s, p in available if not p and (not cur or not c or cur == c)
               for source in ([s] if s else scales) if source in SCALE_FACTORS)


def parse_cell(cell: str) -> tuple[float, str] | None:
    """A table cell as (value, unit), or None when it is no number: '(63.9)' → (-63.9, ''), '6.7%' → (6.7, '%'),
    '£1,311.2m' → (1311.2, '£m'), '$5' → (5.0, '$')."""
    match = NUMBER_CELL.match(cell.strip().replace("\u2212", "-"))
    if not match:
        return None
    value = float(match.group("num").replace(",", ""))
    if match.group("neg") or match.group("sign") in ("-", "−"):
        value = -value
    cur, unit = match.group("cur") or "", match.group("unit") or ""
    if unit in ("m", "bn", "k") and cur:
        unit = cur + unit
    elif cur:
        unit = cur
    return value, unit


def unit_from_label(cell: str) -> str:
    """The unit a label or header cell declares: 'Revenue (£m)' → '£m', 'FY2024 (€ millions)' → '€m', a bare
    '£m' → '£m', '(pence)' → 'p'."""
    declared = declared_unit(cell)
    if declared is not None:
        return "".join(declared)
    match = UNIT_IN_LABEL.search(cell)
    if match:
        unit = match.group("unit").replace(" ", "")
        return {"pence": "p"}.get(unit, unit)
    bare = cell.strip()
    return bare if re.fullmatch(r"[£$€](?:m|bn|k)?", bare) else ""


def without_unit(cell: str) -> str:
    """A label or header cell without the unit it declares: 'Revenue (£m)' → 'Revenue', 'FY2024 (€ millions)' →
    'FY2024'."""
    for declaration in reversed(unit_declarations(cell)):
        cell = cell[:declaration.start] + cell[declaration.end:]
    return UNIT_IN_LABEL.sub("", cell)


def table_scale(text: str) -> str:
    """The unit a table declares: '($ in millions)' → '$m', '(in thousands)' → 'k', '(A$ millions)' → 'A$m'; ''
    when none."""
    declared = declared_unit(text)
    return "".join(declared) if declared else ""


RETURN_ON_LABEL = (r"return\s+on\s+(?:average\s+)?(?:tangible\s+)?(?:common\s+|shareholders['’]?\s+|"
                   r"stockholders['’]?\s+)?(?:equity|assets|capital)")
"""A row label that names a return on equity, assets or capital: a per cent however its cells are printed
('Return on tangible common equity 29 24 19' under '23 % 19 %' in a table 'in millions')."""
_RETURN_ON_ROW = re.compile(rf"(?im)^\s*{RETURN_ON_LABEL}\b.*$")


def return_on_rows(text: str) -> list[str]:
    """The lines of a text that are rows of a return on equity, assets or capital (`RETURN_ON_LABEL`)."""
    return [m.group(0) for m in _RETURN_ON_ROW.finditer(text)]

