"""Arithmetic a question asks of numbers it gives, or of the figure the previous answer gave.

'What is 100000 divided by 100?', 'what is that times 100?', 'and what is that less 1?', 'What is the sum of 1,204.6
and 1,311.2?', 'What is the growth from 120 to 150?': the question is a calculation and nothing else, so no filing
is searched. `arithmetic_asked` reads it into an `Arithmetic`: its operands (a number, or `PREVIOUS` for a word
that points at the previous answer's figure: 'that', 'it', 'this', 'the result') and the expression they make,
left to right as said ('that divided by 1000 times 100' is (that / 1000) * 100). None for anything else: a
question that names a measure, a company or a period ('what is revenue divided by assets?') is not arithmetic
on given numbers. `lead_value` reads the figure an answer led with, which `PREVIOUS` stands for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.text.followups import without_thread_tags

PREVIOUS = "previous"
"""An operand that stands for the figure the thread's previous answer gave."""

_NUMBER = r"-?[$£€¥]?\s?\d[\d,]*(?:\.\d+)?%?|\(\d[\d,]*(?:\.\d+)?\)"
_POINTER = (r"(?:that|it|this|the\s+result|that\s+result|this\s+result|that\s+(?:value|amount|number|figure|sum|"
            r"total|difference|change)|this\s+(?:value|amount|number|figure|sum|total|difference|change)|"
            r"the\s+answer)")
_OPERAND = rf"(?:{_NUMBER}|{_POINTER})"
_INFIX = {
    "+": r"plus|\+|added\s+to",
    "-": r"minus|less|-|−|take\s+away",
    "*": r"times|multiplied\s+by|\*|x|×",
    "/": r"divided\s+by|over|/|÷",
    "%": r"as\s+a\s+(?:percentage|percent)\s+of|as\s+a\s+(?:share|portion|proportion)\s+of",
}
_OP = "|".join(f"(?P<op{i}>{words})" for i, words in enumerate(_INFIX.values()))
_OPS = list(_INFIX)
_LEAD = re.compile(r"(?i)^\s*(?:(?:and|so|ok|okay|now|then|also|well)\b\s*,?\s*)*"
                   r"(?:(?:what|how\s+much)\s+(?:is|was|would\s+be|will\s+be|does\s+it\s+come\s+to)|what's|calculate|"
                   r"compute|work\s+out|tell\s+me)?\s*,?\s*(?:then\s*,?\s*)?(?:the\s+(?:value|result)\s+of\s+)?")
_TAIL = re.compile(r"(?i)\s*(?:,?\s*then|,?\s*please)?\s*[?.!]*\s*$")
_PREFIX = re.compile(
    rf"(?i)^(?:the\s+)?(?P<name>sum|total|product|difference|ratio|(?:percentage\s+|percent\s+)?(?:change|growth|"
    rf"increase|decrease))\s+(?:of|between|from)\s+(?P<a>{_OPERAND})\s+(?:and|to)\s+(?P<b>{_OPERAND})$")
_CHAIN = re.compile(rf"(?i)^(?P<first>{_OPERAND})(?P<rest>(?:\s*(?:{_OP})\s*{_OPERAND})+)$")
_STEP = re.compile(rf"(?i)\s*(?:{_OP})\s*(?P<operand>{_OPERAND})")


@dataclass(frozen=True)
class Arithmetic:
    """A calculation asked of given numbers: `operands` as read (a float, or PREVIOUS), `template` the expression
    with {0}, {1} … in their places, `unit` '%' for a percentage."""

    operands: tuple[float | str, ...]
    template: str
    unit: str = ""

    @property
    def points_back(self) -> bool:
        return PREVIOUS in self.operands

    def expression(self, previous: float | None = None) -> str | None:
        """The expression with every operand written in; None when it points back and no previous figure is
        given."""
        values = []
        for operand in self.operands:
            if operand == PREVIOUS:
                if previous is None:
                    return None
                operand = previous
            values.append(_plain(float(operand)))
        return self.template.format(*values)


def _plain(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def _operand(text: str) -> float | str:
    text = text.strip()
    if re.fullmatch(_POINTER, text, re.IGNORECASE):
        return PREVIOUS
    negative = text.startswith("-") or text.startswith("(")
    number = float(re.sub(r"[^\d.]", "", text))
    return -number if negative else number


def _op_of(match: re.Match[str]) -> str:
    return next(_OPS[i] for i in range(len(_OPS)) if match.group(f"op{i}"))


def arithmetic_asked(question: str) -> Arithmetic | None:
    """The calculation a question asks of the numbers it gives (module docstring); None for any other."""
    body = _TAIL.sub("", _LEAD.sub("", without_thread_tags(question), count=1)).strip()
    if not body:
        return None
    if prefix := _PREFIX.match(body):
        a, b = _operand(prefix.group("a")), _operand(prefix.group("b"))
        name = prefix.group("name").lower()
        if name in ("sum", "total"):
            return Arithmetic((a, b), "{0} + {1}")
        if name == "product":
            return Arithmetic((a, b), "{0} * {1}")
        if name == "difference":
            return Arithmetic((a, b), "{0} - {1}")
        if name == "ratio":
            return Arithmetic((a, b), "{0} / {1}")
        if name.startswith(("percentage", "percent")) or name == "growth":
            return Arithmetic((a, b), "({1} - {0}) / abs({0}) * 100", "%")
        return Arithmetic((a, b), "{1} - {0}")  # the change, increase or decrease from a to b
    chain = _CHAIN.match(body)
    if chain is None:
        return None
    operands: list[float | str] = [_operand(chain.group("first"))]
    template, unit = "{0}", ""
    for step in _STEP.finditer(chain.group("rest")):
        op = _op_of(step)
        operands.append(_operand(step.group("operand")))
        n = len(operands) - 1
        if op == "%":
            template, unit = (f"({template})" if n > 1 else template) + f" / {{{n}}} * 100", "%"
        else:
            template = f"({template}) {op} {{{n}}}" if n > 1 else f"{template} {op} {{{n}}}"
    if len(operands) < 2 or all(o == PREVIOUS for o in operands):
        return None
    return Arithmetic(tuple(operands), template, unit)


_CITATION = re.compile(r"\[\d+\]")
_RESULT = re.compile(r"=\s*(?P<n>-?[$£€¥]?\d[\d,]*(?:\.\d+)?)")
_FIGURE = re.compile(r"(?<![\w.])(?P<neg>-|\()?[$£€¥]?(?P<n>\d[\d,]*(?:\.\d+)?)")
_YEARISH = re.compile(r"(?:19|20)\d{2}")


def lead_value(answer: str) -> float | None:
    """The figure an answer led with: a computation's result ('… = 35.8'), else the first figure of its first
    sentence that is not a year or a citation ('MRO's weighted average exercise price per share was 60.94 in
    FY2007 [1].' → 60.94). None when it states none."""
    first = re.split(r"(?<=[.!?])\s+(?=[A-Z])", _CITATION.sub(" ", answer.strip()), maxsplit=1)[0]
    if result := _RESULT.search(first):
        return float(re.sub(r"[^\d.-]", "", result.group("n")))
    for found in _FIGURE.finditer(first):
        number = found.group("n")
        if _YEARISH.fullmatch(number) or re.match(r"FY|Q[1-4]|H[12]", first[max(found.start() - 2, 0):found.start()]):
            continue
        value = float(number.replace(",", ""))
        return -value if found.group("neg") else value
    return None
