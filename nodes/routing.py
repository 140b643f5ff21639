"""The supervisor's routing step and its branch functions.

`route` asks the routing model (app/models/, the factory's `router`) for a `RouteDecision`, holds it to guarantees that no model
output can break (a question naming a company the knowledge base holds is never refused; one naming such a company
and a period it holds is never sent to clarification; one naming such a company and asking what its filings state
is searched in them, and calculated when it names a catalogue metric) and records it. The branch functions
are plain `(state) -> name | list[name]`, unit-tested with dicts: the model judges what a question asks, this
code decides where the flow goes, and raises on anything it does not expect.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from app.metrics import find_metrics
from app.routing import lexicon as lex
from app.routing.decision import RouteDecision
from app.routing.features import KNOWN_YEARS
from app.text.companies import companies_named
from app.text.fiscal_naming import company_named_years, in_prov_years, naming_note
from app.text.names import unheld_names
from app.text.periods import YEAR, years_in
from nodes.conversation import MAX_CLARIFICATION_ROUNDS, content_terms, without_thread_tags
from nodes.state import SupervisorState

Gather = Literal["retrieve", "news"]


def route(state: SupervisorState, *, router: Any, known_companies: Callable[[], Sequence[str]],
          known_years: Callable[[], Sequence[int]] | None = None,
          aliases: Callable[[], Mapping[str, str]] = dict,
          period_ends: Callable[[str], Mapping[str, int]] | None = None,
          names_by_start: Callable[[str], bool] | None = None,
          mentions: Callable[[str], Sequence[str]] | None = None,
          news_companies: Callable[[], Sequence[str]] | None = None,
          row_owners: Callable[[str], Sequence[str]] | None = None) -> dict[str, Any]:
    """Call the router on the standalone question, hold its decision to the guarantees below, and merge the
    companies and years it saw into the turn's. `known_years` gives the fiscal years the knowledge base holds;
    without it any fiscal year the question names counts as held; `news_companies` the companies news items are
    held about; `names_by_start` whether a company names its fiscal years by the year they begin (its 'fiscal
    2022' is then read as FY2023, in the years and the question every later step reads, and the answer says so).
    Names written where a company goes that find no held company, in a question naming none that is held, are the
    turn's absent companies."""
    known = list(known_companies())
    decision = router(state["question"], known_companies=known,
                      context_entities=list(state.get("context_entities") or []))
    decision = RouteDecision.model_validate(decision)
    own_words = without_thread_tags(state["question"])
    table = dict(aliases())
    # names the sources state count too (a ticker on the cover: "JnJ" is Johnson & Johnson)
    named = companies_named(own_words, known, table)
    decision = keep_known_companies_in_scope(decision, named)
    decision = answer_named_company_and_period(decision, named, periods_named(own_words, known_years))
    # (news about a company none is held about gives way to its filings first: the filed fact's guarantee would
    # otherwise keep the news branch beside them)
    decision = search_reports_without_news(decision, own_words, named, news_companies)
    decision = search_reports_for_company_facts(decision, own_words, named, known_years)
    decision = overrule_needless_clarification(decision, state, known)
    decision = calculate_what_it_compares(decision, own_words)
    companies = _merge(state.get("companies") or [], decision.signals.get("companies") or [])
    seen_years = decision.signals.get("years") or []
    if own_years := years_in(own_words, KNOWN_YEARS):
        # years the router read in the thread's tag ('… [following: … in FY2024?]') are not the ones a
        # follow-up naming its own asks about ('And what does it expect to spend in FY2025?')
        seen_years = [y for y in seen_years if y in own_years]
    years = _merge(state.get("fiscal_years") or [], seen_years)
    years = years_of_period_ends(own_words, companies, years, period_ends)
    starting = [c for c in companies if names_by_start is not None and names_by_start(c)]
    years, note = years_in_company_words(own_words, companies, years, starting)
    update: dict[str, Any] = {}
    if note:
        # every later step reads the question's years as Prov dates them; the user's words stay in `asked`
        update["question"] = in_prov_years(state["question"])
    holds = lambda name: bool(companies_named(name, known, table))  # noqa: E731
    absent = unheld_names(own_words, holds, [*companies, *named])
    if absent and not companies and not named and row_owners is not None:
        decision, companies, absent = about_a_member(decision, absent, row_owners)
    if not absent and companies and not named and mentions is not None:
        # a follow-up that names a company no document mentions ('What about Brackenridge Mining's capex?' after
        # questions about Copperleaf) is about that company, not the thread's: nothing held answers it. A name
        # the documents do mention (a segment, a subsidiary, a product) keeps the thread's company.
        foreign = [name for name in unheld_names(own_words, holds, named) if not mentions(name)]
        if foreign:
            absent, companies = foreign, []
    if absent and not companies and mentions is not None and decision.is_out_of_scope and not (
            lex.METRIC.search(own_words) or lex.REPORT.search(own_words)):
        # (a company's figure or report asked of an unheld name is answered 'not held' below: another company's
        # filing that mentions it, as a customer or a rival, holds none of its figures)
        decision, companies, absent = about_what_documents_mention(decision, absent, mentions)
    decision = say_what_is_not_held(decision, absent, own_words)
    decision = calculate_given_numbers(decision, state, own_words)
    if decision.signals.get("arithmetic"):
        companies, years, absent = [], [], []
    if not companies and not absent:
        decision = ask_what_a_vague_question_means(decision, state, known)
        decision = ask_which_company(decision, state, known)
    return {**update, "decision": decision, "companies": companies, "fiscal_years": years, "period_note": note,
            "start_named": starting, "absent_companies": absent}


def years_in_company_words(question: str, companies: Sequence[str], years: Sequence[int],
                           starting: Sequence[str]) -> tuple[list[int], str]:
    """The fiscal years a question means by the years it names in its companies' own words, and the note an
    answer carries about them. Prov dates a year by the calendar year it ends in; a company that names its years
    by the year they begin ('fiscal 2022 ended January 28, 2023') means FY2023 by 'fiscal 2022', so the years a
    question names so ('from fiscal 2021 to fiscal 2022') are each read a year on, and the answer says so. 'FY2022'
    and bare years are read as written, and so is every year when not every company the question names is among
    `starting` (those that name their years so)."""
    named = set(company_named_years(question))
    if not named or not companies or not set(companies) <= set(starting):
        return list(years), ""
    moved = sorted(y for y in years if y in named)
    if not moved:
        return list(years), ""
    read = sorted({y + 1 if y in named else y for y in years})
    return read, " ".join(naming_note(c, moved) for c in companies)


def years_of_period_ends(question: str, companies: Sequence[str], years: Sequence[int],
                         period_ends: Callable[[str], Mapping[str, int]] | None) -> list[int]:
    """The fiscal years a question means by the days it names: a day on which a report of a company it names ends
    is that report's fiscal year ('the half-year ended 31 December 2024' of a June year end is FY2025; 'fiscal 2024
    (the year ended March 31, 2025)' is the report filed as FY2025). A question about one period takes those years
    alone; one about a change keeps the other years it names too. Without such a day, `years` as they are."""
    from app.text.dates import period_end_months, read_dates
    from app.text.question_kinds import read_ask

    if period_ends is None or not companies:
        return list(years)
    days = {f"{y:04d}-{m:02d}-{d:02d}": y for _, (y, m, d) in read_dates(question)[0] if y and m and d}
    months = {f"{y:04d}-{m:02d}": y for y, m in period_end_months(question)}
    if not days and not months:
        return list(years)
    ends = [period_ends(c) for c in companies]
    matched = {day: held[day] for day in days for held in ends if day in held}
    # 'the quarter to December 2022' names the month its period ends in: the report that ends in that month
    matched |= {day: fiscal for month in months for held in ends for day, fiscal in held.items()
                if day.startswith(month) and day not in matched}
    days |= {day: months[day[:7]] for day in matched if day not in days}
    if not matched:
        return _without_filing_days(question, days, years)
    if read_ask(question).kind not in ("change", "yes_no_change"):
        return sorted(set(matched.values()))
    calendar = {days[day] for day in matched}
    return sorted(set(matched.values()) | (set(years) - calendar))


def _without_filing_days(question: str, days: Mapping[str, int], years: Sequence[int]) -> list[int]:
    """The years a question asks about without the year of a day early in the year after a fiscal year it names,
    when that day ends no period: the day its report states a thing at ('according to its fiscal 2017 Form 10-K (as
    of January 25, 2018)' asks of FY2017, not of 2018). A change keeps every year it names."""
    from app.text.periods import fiscal_years_named
    from app.text.question_kinds import read_ask

    named = set(fiscal_years_named(question))
    after = {y for day, y in days.items() if y - 1 in named and y not in named and int(day[5:7]) <= 3}
    if not after or read_ask(question).kind in ("change", "yes_no_change"):
        return list(years)
    return [y for y in years if y not in after]


def ask_which_company(decision: RouteDecision, state: SupervisorState, known: Sequence[str]) -> RouteDecision:
    """Guarantee: a question about a company's figure or filing that names no company ('what was the cash provided
    by operating activities in 2013?'), in a knowledge base of several companies, on a thread that names none, asks
    which company, however the router decided: searching every company's filings answers with whichever company's
    figure ranks first, or with nothing. Called only when the turn has no company and names no unheld one. Left as
    decided: a question about a set of companies ('which company had the highest…', peers), a definition, news
    only, and a turn that already had its clarification round."""
    from app.routing.features import extract_features
    from app.routing.plan import clarification_question

    if (decision.is_out_of_scope or decision.needs_clarification or len(known) < 2 or state.get("clarifications")
            or state.get("context_entities") or (decision.needs_news and not decision.needs_retrieval)):
        return decision
    question = without_thread_tags(state["question"])
    feats = extract_features(question, known)
    if not feats.vector.get("metric_without_subject") or feats.vector.get("peers") or feats.companies:
        return decision
    asked = clarification_question(question, feats, known_companies=known)
    signals = {**decision.signals, "clarification_added": f"names no company, and the knowledge base holds "
                                                          f"{len(known)}"}
    return decision.model_copy(update={"needs_clarification": True, "clarification_question": asked,
                                       "signals": signals})


def calculate_given_numbers(decision: RouteDecision, state: SupervisorState, question: str) -> RouteDecision:
    """Guarantee: a question that is arithmetic and nothing else ('What is 100000 divided by 100?', 'what is that
    times 100?' after an answer that gave a figure) is calculated from the numbers it gives and the previous
    answer's figure, with no search, whatever the router said. One that points back with no answer before it is
    left as decided (app/text/arithmetic.py)."""
    from app.text.arithmetic import arithmetic_asked, lead_value

    asked = arithmetic_asked(question)
    if asked is None:
        return decision
    previous = previous_answer(state)
    figure = lead_value(previous) if previous is not None else None
    if asked.points_back and figure is None:
        return decision
    plan = decision.plan.model_copy(update={"source": "none"})
    signals = {**decision.signals, "arithmetic": asked.expression(figure)}
    return decision.model_copy(update={"is_out_of_scope": False, "needs_clarification": False,
                                       "clarification_question": None, "needs_retrieval": False,
                                       "needs_news": False, "needs_calculation": True, "plan": plan,
                                       "signals": signals})


def previous_answer(state: Mapping[str, Any]) -> str | None:
    """The latest answered turn's answer on the thread, None on a new thread."""
    from app.turns import Turn

    for turn in reversed([Turn.model_validate(t) for t in state.get("recent_turns") or []]):
        if turn.status == "answered":
            return turn.answer
    return None


def ask_what_a_vague_question_means(decision: RouteDecision, state: SupervisorState, known: Sequence[str]
                                    ) -> RouteDecision:
    """Guarantee: a question that compares or moves something it does not name ('Which one is bigger?', 'Did it go
    up or down?'), which nothing in the turn resolves, asks what is meant instead of being refused as out of
    scope. A question with a topic of its own stays out of scope ('Which planet is bigger?'). Called only when the
    turn has no company and names no unheld one."""
    from app.routing.features import extract_features
    from app.routing.plan import clarification_question

    if not decision.is_out_of_scope or len(state.get("clarifications") or []) >= MAX_CLARIFICATION_ROUNDS:
        return decision
    question = without_thread_tags(state["question"])
    terms = content_terms(question)
    if not terms or not terms <= lex.VAGUE_FIGURE_ASK or not terms & lex.VAGUE_FIGURE_MOVES:
        return decision
    asked = clarification_question(question, extract_features(question, known), known_companies=known)
    signals = {**decision.signals, "out_of_scope_overruled": "compares or moves a figure it does not name"}
    return decision.model_copy(update={"is_out_of_scope": False, "needs_clarification": True,
                                       "needs_retrieval": True, "clarification_question": asked,
                                       "signals": signals})


def about_what_documents_mention(decision: RouteDecision, absent: Sequence[str],
                                 mentions: Callable[[str], Sequence[str]]) -> tuple[RouteDecision, list[str], list[str]]:
    """Guarantee: a question the router took for out of scope, about a business no held company is but whose
    documents mention it ('Where are Fenmoor Cold Storage's sites?', a company Northwind acquired; a subsidiary, a
    customer named in the news), is asked of the companies whose reports and news mention it, not refused. A region or
    country is no business ('the capital of France'). Returns the decision, the turn's companies and the names
    still absent."""
    from app.facts.members import is_region

    owners = {name: list(mentions(name)) for name in absent if not is_region(name)}
    if not owners or not all(owners.get(name) for name in absent):
        return decision, [], list(absent)
    companies = list(dict.fromkeys(c for name in absent for c in owners[name]))
    signals = {**decision.signals, "mentioned_by": {name: owners[name] for name in absent}}
    decision = decision.model_copy(update={"is_out_of_scope": False, "needs_clarification": False,
                                           "clarification_question": None, "needs_retrieval": True,
                                           "needs_news": True, "signals": signals})
    return decision, companies, []


def about_a_member(decision: RouteDecision, absent: Sequence[str], row_owners: Callable[[str], Sequence[str]]
                   ) -> tuple[RouteDecision, list[str], list[str]]:
    """Guarantee: a question that names no held company but a product, brand or segment that one held company's
    reports table as a row of their own ('How quickly is Remicade eroding?': 'REMICADE 462 647' in Johnson &
    Johnson's sales by product) is asked of that company, not answered 'not held'. A rival or customer another
    company's report mentions in its prose is no row of its tables and stays absent; a name that rows of two
    companies' tables give is left as it is. Returns the decision, the turn's companies and the names still
    absent."""
    owners = {name: list(dict.fromkeys(row_owners(name))) for name in absent}
    found = {o[0] for o in owners.values() if len(o) == 1}
    if len(found) != 1 or not all(len(o) == 1 for o in owners.values()):
        return decision, [], list(absent)
    company = found.pop()
    signals = {**decision.signals, "member_of": {name: company for name in absent}}
    decision = decision.model_copy(update={"is_out_of_scope": False, "needs_clarification": False,
                                           "clarification_question": None, "needs_retrieval": True,
                                           "signals": signals})
    return decision, [company], []


def say_what_is_not_held(decision: RouteDecision, absent: Sequence[str], question: str) -> RouteDecision:
    """Guarantee: a question about a company the knowledge base holds no filings of goes to the report branch,
    which answers that it holds none (retrieval searches nothing then), rather than asking which company was
    meant; a refusal stands unless the question asks about reports or figures ('the capital of France')."""
    if not absent or not (decision.needs_clarification or decision.is_out_of_scope):
        return decision
    if decision.is_out_of_scope and not (lex.REPORT.search(question) or lex.METRIC.search(question)
                                         or lex.REPORT_KIND.search(question)):
        return decision
    signals = {**decision.signals, "absent_companies": list(absent)}
    return decision.model_copy(update={"is_out_of_scope": False, "needs_clarification": False,
                                       "needs_retrieval": True, "clarification_question": None,
                                       "signals": signals})


def periods_named(question: str, known_years: Callable[[], Sequence[int]] | None = None) -> list[int]:
    """Fiscal years the question names ('FY2022', 'fiscal 2021', 'Q2 2023', 'June 30, 2022') that the
    knowledge base holds; every year named when the held years are not known."""
    named = years_in(question, KNOWN_YEARS)
    if known_years is None:
        return named
    held = set(known_years())
    return [y for y in named if y in held]


def keep_known_companies_in_scope(decision: RouteDecision, named: Sequence[str]) -> RouteDecision:
    """Guarantee: a question that names a company the knowledge base holds is never refused as out of scope.
    The refusal is overruled into a report search, and the reason recorded in the signals."""
    if not decision.is_out_of_scope or not named:
        return decision
    plan = decision.plan.model_copy(update={"source": "reports"})
    signals = {**decision.signals, "companies": _merge(decision.signals.get("companies") or [], named),
               "out_of_scope_overruled": f"names {', '.join(named)}, which the knowledge base holds"}
    return decision.model_copy(update={"is_out_of_scope": False, "needs_retrieval": True, "plan": plan,
                                       "signals": signals})


def answer_named_company_and_period(decision: RouteDecision, named: Sequence[str], years: Sequence[int]
                                    ) -> RouteDecision:
    """Guarantee: a question that names a company and a period the knowledge base holds is never sent to
    clarification: it is searched instead."""
    if not decision.needs_clarification or not named or not years:
        return decision
    return search_instead_of_asking(decision, {
        "clarification_overruled": f"names {', '.join(named)} and {', '.join(f'FY{y}' for y in years)}",
        "companies": _merge(decision.signals.get("companies") or [], named),
        "years": _merge(decision.signals.get("years") or [], years)})


def search_reports_for_company_facts(decision: RouteDecision, question: str, named: Sequence[str],
                                     known_years: Callable[[], Sequence[int]] | None = None) -> RouteDecision:
    """Guarantee: a question that names a company the knowledge base holds and asks about something its filings
    state (a figure, metric or ratio, a deal, a plan, an officer or adviser, a quarter or fiscal period; see
    `asks_about_filings`) includes the report search; news alone only when it asks for news (lexicon NEWS_ASKED:
    latest, this week, announced, a month...). It is searched rather than clarified, and a metric the catalogue
    knows (app.metrics) is calculated, unless a target or guidance for it is asked. Left as the router decided:
    a question naming a year the knowledge base does not hold (news, guidance, or the declared insufficient
    answer), and a clarification about a measure or company the question leaves open ("the quarter", "the
    number", "that retailer")."""
    if (decision.is_out_of_scope or not named or not asks_about_filings(question)
            or unheld_years(question, known_years)):
        return decision
    if decision.needs_clarification and (lex.VAGUE_MEASURE.search(question) or lex.DESCRIPTOR.search(question)):
        return decision
    update: dict[str, Any] = {}
    reasons: list[str] = []
    if decision.needs_clarification:
        update.update(needs_clarification=False, clarification_question=None)
        reasons.append("clarification_overruled")
    if not decision.needs_retrieval and not lex.NEWS_ASKED.search(question):
        update["needs_retrieval"] = True
        reasons.append("retrieval_added")
    metrics = [] if lex.FORWARD.search(question) else [m.name for m in find_metrics(question)]
    if metrics and not decision.needs_calculation:
        update["needs_calculation"] = True
        reasons.append("calculation_added")
    if not update:
        return decision
    retrieval = update.get("needs_retrieval", decision.needs_retrieval)
    source = {(True, True): "both", (True, False): "reports", (False, True): "news"}.get(
        (retrieval, decision.needs_news), decision.plan.source)
    why = f"names {', '.join(named)} and asks what its filings state" + (
        f" (the catalogue metric {', '.join(metrics)})" if "calculation_added" in reasons else "")
    signals = {**decision.signals, **{r: why for r in reasons},
               "companies": _merge(decision.signals.get("companies") or [], named)}
    return decision.model_copy(update={**update, "plan": decision.plan.model_copy(update={"source": source}),
                                       "signals": signals})


def search_reports_without_news(decision: RouteDecision, question: str, named: Sequence[str],
                                news_companies: Callable[[], Sequence[str]] | None) -> RouteDecision:
    """Guarantee: a question sent to the news alone about companies the knowledge base holds filings of but no
    news item about ('the outcome of the shareholder vote at the AGM held on May 3, 2023') searches those
    filings instead: the news branch cannot answer it, and a filing (an 8-K, the annual report) may, as it may an
    event dated by its month ('Who did Foot Locker appoint as CEO in August 2022?'). Left as the router decided:
    a question that asks for the news itself (lexicon NEWS_ITSELF: latest, news, this week...), which the
    declared insufficient answer fits, and any question when the held news is not known."""
    if (news_companies is None or not named or not decision.needs_news or decision.needs_retrieval
            or decision.is_out_of_scope or decision.needs_clarification or lex.NEWS_ITSELF.search(question)):
        return decision
    with_news = set(news_companies())
    if any(company in with_news for company in named):
        return decision
    signals = {**decision.signals, "retrieval_added": f"news only, and no news item about {', '.join(named)} is "
                                                      f"held"}
    return decision.model_copy(update={"needs_retrieval": True, "needs_news": False, "signals": signals,
                                       "plan": decision.plan.model_copy(update={"source": "reports"})})


def calculate_what_it_compares(decision: RouteDecision, question: str) -> RouteDecision:
    """Guarantee: a question that asks how a figure changed ('how did X change', 'did X rise'), a judgement a
    metric decides ('is it capital-intensive?') or a metric of the catalogue is calculated when it is searched:
    the change or the metric is the calculator's arithmetic, never the composer's."""
    from app.facts.query import group_named
    from app.metrics import metrics_asked
    from app.text.question_kinds import asks_share, read_ask

    if decision.needs_calculation or not decision.needs_retrieval or decision.is_out_of_scope:
        return decision
    ask = read_ask(question)
    kind = ask.kind
    # a change, or a share: asked, or of the group a ranking is among ('the largest … among the short-term
    # investments' is stated with its share of them)
    ranked_by_computed = kind == "extreme" and (ask.of_change or asks_share(question) or bool(group_named(question)))
    if kind not in ("change", "yes_no_change", "judgement") and not ranked_by_computed and not (
            metrics_asked(question)[0] and not lex.FORWARD.search(question)):
        return decision
    signals = {**decision.signals, "calculation_added": f"asks for {kind if kind != 'figure' else 'a metric'}"}
    return decision.model_copy(update={"needs_calculation": True, "signals": signals})


def asks_about_filings(question: str) -> bool:
    """Whether the question asks about something a company's filings state: a line item or metric (lexicon
    METRIC, the catalogue of app.metrics), a deal, plan, officer, adviser or period of account (lexicon
    REPORT_KIND: quarters and fiscal periods, not a bare year or a half-year, which news covers as well)."""
    return bool(lex.METRIC.search(question) or find_metrics(question) or lex.REPORT_KIND.search(question))


def unheld_years(question: str, known_years: Callable[[], Sequence[int]] | None = None) -> list[int]:
    """The years the question names that the knowledge base does not hold (none when the held years are not
    known)."""
    if known_years is None:
        return []
    held = set(known_years())
    return [y for y in years_in(question, KNOWN_YEARS) if y not in held]


def overrule_needless_clarification(decision: RouteDecision, state: SupervisorState, known: Sequence[str]
                                    ) -> RouteDecision:
    """A clarification the turn cannot use: after MAX_CLARIFICATION_ROUNDS rounds in one turn; with one company
    (or none) known; or when the thread already answers it."""
    if not decision.needs_clarification:
        return decision
    rounds = len(state.get("clarifications") or [])
    if rounds >= MAX_CLARIFICATION_ROUNDS:
        signals = {**decision.signals, "clarification_overruled_after_rounds": rounds}
        return decision.model_copy(update={"needs_clarification": False, "signals": signals})
    if rounds or not content_terms(state["question"]):
        return decision
    if len(known) <= 1:
        # With one company (or none named) in the knowledge base, "which company?" has one answer or none, and
        # the question does say what it is about: asking would only delay the answer. Search instead.
        return search_instead_of_asking(decision, {
            "clarification_overruled": f"{len(known)} company known",
            "companies": list(known) or list(decision.signals.get("companies") or [])})
    if state.get("context_entities") or state["question"] != state.get("asked", state["question"]):
        # The thread answers it: the question names no other company than the one the thread is about, or
        # enrichment already completed it from the previous turns. Asking again would only repeat the thread.
        context = list(state.get("companies") or state.get("context_entities") or [])
        return search_instead_of_asking(decision, {
            "clarification_overruled": "resolved from the thread"
                                       + (f" (about {', '.join(context)})" if context else ""),
            "companies": context,
            "years": list(decision.signals.get("years") or []) or list(state.get("context_years") or [])})
    return decision


def search_instead_of_asking(decision: RouteDecision, signals: dict[str, Any]) -> RouteDecision:
    """The decision without its clarification, the reason recorded in its signals; a question that asked for
    nothing else is searched in the reports."""
    gathers = decision.needs_retrieval or decision.needs_news or decision.needs_calculation
    return decision.model_copy(update={"needs_clarification": False, "needs_retrieval": decision.needs_retrieval
                                       or not gathers, "signals": {**decision.signals, **signals}})


def _merge(first: Sequence[Any], second: Sequence[Any]) -> list[Any]:
    return list(dict.fromkeys([*first, *second]))


def _decision(state: Mapping[str, Any]) -> RouteDecision:
    decision = state.get("decision")
    if decision is None:
        raise ValueError("no routing decision in state: the route node must run first")
    return RouteDecision.model_validate(decision)


def after_route(state: Mapping[str, Any]) -> Literal["refuse", "clarify"] | list[str]:
    """Out of scope → refuse; clarification → clarify; otherwise the gather branches that the flags ask for,
    in parallel: reports (`retrieve`) when retrieval is needed, or a calculation names companies (the figures
    must come from somewhere); `news` when news is needed; `read_memory` when the plan's `memory_read` is set. A question that sets none of them still gets a
    report search, so an unflagged question ends in evidence or the declared insufficient answer."""
    decision = _decision(state)
    if decision.is_out_of_scope:
        return "refuse"
    if decision.needs_clarification:
        return "clarify"
    branches: list[str] = []
    # A calculation needs figures: from the reports, unless the question gives them itself ("from 120 to 150"),
    # or is arithmetic on them and on the previous answer's figure ("what is that times 100?")
    given = gives_numbers(state.get("question", "")) or bool(decision.signals.get("arithmetic"))
    if decision.needs_retrieval or (decision.needs_calculation and not given):
        branches.append("retrieve")
    if decision.needs_news:
        branches.append("news")
    if not branches and not decision.needs_calculation:
        branches.append("retrieve")
    # Memory is read beside them when the route plan asks for it (nodes/memory.read_memory).
    if decision.plan is not None and decision.plan.memory_read != "none":
        branches.append("read_memory")
    return branches or ["join"]


def gives_numbers(question: str) -> bool:
    """Two or more numbers that are not years: the question brings its own figures."""
    numbers = re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?", question)
    return len([n for n in numbers if not re.fullmatch(YEAR, n)]) >= 2


def after_join(state: Mapping[str, Any]) -> Literal["prepare_calculation", "assemble"]:
    """With everything gathered: calculate when the flag says so, else assemble the prompt."""
    return "prepare_calculation" if _decision(state).needs_calculation else "assemble"
