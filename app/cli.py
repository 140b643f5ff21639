"""The `prov` command line. Exit codes: 0 done, 1 internal error, 2 bad input, 3 waiting for a clarification
reply, 130 interrupted. Every command has --json. Heavy modules are imported inside the commands."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console

from app.errors import BadInput, not_plain_text

EXIT_OK, EXIT_ERROR, EXIT_BAD_INPUT, EXIT_CLARIFY, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

app = typer.Typer(help="Prov: answers about company reports and news, with the evidence behind every answer.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
kb_app = typer.Typer(help="Knowledge base inspection.", no_args_is_help=True)
app.add_typer(kb_app, name="kb")
memory_app = typer.Typer(help="What Prov remembers of its users: list and erase.", no_args_is_help=True)
app.add_typer(memory_app, name="memory")

USER_HELP = "Whose memory, cache and threads to use (default: PROV_USER, else 'local')."

out = Console()
err = Console(stderr=True, soft_wrap=True)  # an error is one line, however long


def _settings():  # type: ignore[no-untyped-def]
    from app.settings import get_settings

    return get_settings()


def _kb():  # type: ignore[no-untyped-def]
    from app.knowledge.base import KnowledgeBase

    return KnowledgeBase(_settings())


def _print_json(obj: Any) -> None:
    from app.knowledge.catalog import dumps

    sys.stdout.write(dumps(obj) + "\n")


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


_STAGES = {"read": "reading files", "chunk": "chunking", "embed": "embedding chunks", "index": "committing sources"}
PLAIN_PROGRESS_MIN_CHUNKS = 200  # below this an ingest is quick and prints no progress lines off a terminal


def _parse_year(value: str | None) -> int | None:
    """--year accepts 2024, FY2024, fy2024 and FY24."""
    from app.text.identity import parse_fiscal_year

    if value is None:
        return None
    try:
        return parse_fiscal_year(value)
    except ValueError:
        raise BadInput(f"--year must be a fiscal year such as 2024, FY2024 or FY24, not {value!r}") from None


def _ingest_progress():  # type: ignore[no-untyped-def]
    """(callback, Rich progress or None). On a terminal: Rich bars per stage, on stderr. Otherwise: plain
    'embedded N/M chunks' lines on stderr at every tenth of a big ingest."""
    if err.is_terminal:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), console=err, transient=True)
        tasks: dict[str, Any] = {}

        def on_terminal(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(_STAGES.get(stage, stage), total=total)
            progress.update(tasks[stage], completed=done, total=total)

        return on_terminal, progress
    last_tenth = [-1]

    def on_plain(stage: str, done: int, total: int) -> None:
        if stage != "embed" or total < PLAIN_PROGRESS_MIN_CHUNKS:
            return
        tenth = done * 10 // total
        if tenth > last_tenth[0]:
            last_tenth[0] = tenth
            err.print(f"embedded {done}/{total} chunks ({done * 100 // total}%)", highlight=False)

    return on_plain, None


@app.command()
def ingest(
    # readable=False: Prov says in one line why a path cannot be read (Click would print its usage box)
    paths: List[Path] = typer.Argument(..., readable=False,
                                       help="Files or folders (folders recurse; hidden entries skipped)."),
    doc_type: Optional[str] = typer.Option(None, "--type", help="report or news; overrides the file's own."),
    company: Optional[str] = typer.Option(None, "--company", help="Company name; overrides the file's own."),
    year: Optional[str] = typer.Option(None, "--year", help="Fiscal year (2024, FY2024 or FY24); overrides the "
                                                            "file's own."),
    prune: bool = typer.Option(False, "--prune", help="Remove sources under PATHS whose files are gone."),
    reread: bool = typer.Option(False, "--reread", help="Read and index unchanged sources again (after an upgrade "
                                                        "that reads or chunks text better)."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Add or update sources: .txt .md .html .pdf .json .jsonl. Unchanged sources are skipped (unless --reread).
    Company, fiscal year, form and period not given are read from file names (BESTBUY_2019_10K) and cover pages."""
    from app.knowledge.loaders import Overrides

    if doc_type is not None and doc_type not in ("report", "news"):
        _fail(f"--type must be 'report' or 'news', not {doc_type!r}")
    try:
        fiscal_year = _parse_year(year)
    except BadInput as exc:
        _fail(str(exc))
    if not prune:
        _refuse_unusable(paths)
    kb = _kb()
    progress_cb, progress = _ingest_progress() if not as_json else (None, None)
    if progress:
        progress.start()
    try:
        summary = kb.ingest(paths, Overrides(doc_type=doc_type, company=company, fiscal_year=fiscal_year),  # type: ignore[arg-type]
                            prune=prune, reread=reread, on_progress=progress_cb)
    except KeyboardInterrupt:
        if progress:
            progress.stop()
        err.print("[yellow]interrupted:[/] sources committed so far are complete; the rest are unchanged. "
                  "Run the same command again to finish.")
        raise typer.Exit(EXIT_INTERRUPTED)
    finally:
        if progress:
            progress.stop()
    if as_json:
        _print_json(summary.as_dict())
    else:
        d = summary.as_dict()
        out.print(f"added {d['added']}, updated {d['updated']}, unchanged {d['unchanged']}, "
                  f"removed {d['removed']}, failed {d['failed']} "
                  f"({d['chunks_written']} chunks written in {d['seconds']} s)")
        from rich.markup import escape

        for f in summary.failed:
            err.print(f"[red]failed[/] {escape(f.path)}: {escape(f.reason)}", highlight=False)
        if any(f.kept for f in summary.failed):
            err.print("failures are kept in the dead-letter list: prov kb status")
    if summary.failed:
        # the embedding server gave up: not the user's input, and the same command finishes the job later
        raise typer.Exit(EXIT_ERROR if getattr(summary, "embedding_error", None) else EXIT_BAD_INPUT)


def _refuse_unusable(paths: List[Path]) -> None:
    """When no path named can be read (missing, unreadable, a FIFO, a link loop), say why in one line each and
    exit 2 before any store is opened; where some can, the ingest goes on and lists the others as failed."""
    from rich.markup import escape

    from app.errors import not_plain_text, shown
    from app.knowledge.loaders import path_problem

    problems = [(p, why) for p in paths if (why := path_problem(p))]
    if problems and len(problems) == len(paths):
        for path, why in problems:
            name = str(path) if not_plain_text(str(path)) is None else shown(str(path))  # no newline or bidi echoed
            err.print(f"[bold red]error:[/] {escape(name)}: {why}", highlight=False)
        raise typer.Exit(EXIT_BAD_INPUT)


def _filters(company: str | None, year: int | None, doc_type: str | None, since: str | None, until: str | None):  # type: ignore[no-untyped-def]
    from app.knowledge.base import Filters

    if doc_type is not None and doc_type not in ("report", "news"):
        raise BadInput(f"--type must be 'report' or 'news', not {doc_type!r}")

    def parse(value: str | None, flag: str) -> date | None:
        if value is None:
            return None
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise BadInput(f"{flag} must be a date like 2024-06-30, not {value!r}") from None

    return Filters(company=company, fiscal_year=year, doc_type=doc_type,
                   published_from=parse(since, "--since"), published_to=parse(until, "--until"))


@app.command()
def search(
    query: Optional[str] = typer.Argument(None, help="What to look for."),
    k: int = typer.Option(5, "-k", min=1, max=100, help="How many results."),
    mode: str = typer.Option("hybrid", "--mode", help="hybrid, dense or sparse."),
    company: Optional[str] = typer.Option(None, "--company"),
    year: Optional[int] = typer.Option(None, "--year", help="Fiscal year."),
    doc_type: Optional[str] = typer.Option(None, "--type", help="report or news."),
    since: Optional[str] = typer.Option(None, "--since", help="Published on or after (YYYY-MM-DD)."),
    until: Optional[str] = typer.Option(None, "--until", help="Published on or before (YYYY-MM-DD)."),
    batch: Optional[Path] = typer.Option(None, "--batch", readable=False,
                                         help="JSONL of {id, query, [company, year, type]}; "
                                              "writes one JSON line per query."),
    funnel: bool = typer.Option(False, "--funnel", help="Also print what each step removed."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Hybrid search over the knowledge base, with why each chunk was picked."""
    if mode not in ("hybrid", "dense", "sparse"):
        _fail(f"--mode must be hybrid, dense or sparse, not {mode!r}")
    if batch is not None:
        if query:
            _fail("give either a QUERY or --batch, not both")
        _search_batch(batch, k, mode)
        return
    if not query or not query.strip():
        _fail("the query is empty")
    if problem := not_plain_text(query):
        _fail(f"the query {problem}; send plain text")
    try:
        filters = _filters(company, year, doc_type, since, until)
    except BadInput as exc:
        _fail(str(exc))
    kb = _kb()
    response = kb.search(query, k=k, mode=mode, filters=filters)  # type: ignore[arg-type]
    if as_json:
        _print_json([h.as_dict() for h in response.hits] if not funnel else {
            "results": [h.as_dict() for h in response.hits], "funnel": [f.as_dict() for f in response.funnel]})
        return
    _render_hits(response, show_funnel=funnel)


def _search_batch(path: Path, k: int, mode: str) -> None:
    if not path.is_file():
        _fail(f"--batch file not found: {path}")
    queries = []
    try:
        lines = path.read_bytes().splitlines()
    except OSError as exc:
        _fail(f"--batch file {path} cannot be read: {exc.strerror or exc}")
    for n, raw in enumerate(lines, start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            _fail(f"{path}:{n}: not UTF-8 text (byte {exc.start + 1} of the line)")
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            if not isinstance(item, dict) or not str(item.get("query", "")).strip():
                raise ValueError("needs a non-empty 'query'")
            if problem := not_plain_text(str(item["query"])):
                raise ValueError(f"the query {problem}")
            filters = _filters(item.get("company"), item.get("year") or item.get("fiscal_year"),
                               item.get("type") or item.get("doc_type"), item.get("since"), item.get("until"))
        except (ValueError, BadInput) as exc:
            _fail(f"{path}:{n}: {exc}")
        queries.append((item.get("id", n), item["query"], filters))
    kb = _kb()
    for qid, text, filters in queries:
        response = kb.search(text, k=k, mode=mode, filters=filters)  # type: ignore[arg-type]
        _print_json({"id": qid, "results": [h.as_dict() for h in response.hits]})


def _render_hits(response, show_funnel: bool) -> None:  # type: ignore[no-untyped-def]
    from rich.markup import escape
    from rich.panel import Panel

    if not response.hits:
        out.print("no results" + ("" if response.funnel else
                                  " (the knowledge base is empty: add sources with `prov ingest PATH`)"))
    for h in response.hits:
        where = " · ".join(str(x) for x in [h.company, f"FY{h.fiscal_year}" if h.fiscal_year else None,
                                              f"p.{h.page}" if h.page else None, h.section,
                                              "table" if h.is_table else None,
                                              h.published_at.isoformat() if h.published_at else None] if x)
        body = escape(h.text if len(h.text) < 700 else h.text[:700] + " …")
        out.print(Panel(body, title=f"[bold]#{h.rank}[/] {escape(h.source_id)}  score {h.score:.4f}",
                        subtitle=escape(f"{where} — {h.why}"), title_align="left", subtitle_align="left"))
    if show_funnel:
        for step in response.funnel:
            out.print(f"  {step.step:<28} kept {step.kept:>4}  removed {step.removed:>4}  {escape(step.reason)}")


@kb_app.command("status")
def kb_status(as_json: bool = typer.Option(False, "--json")) -> None:
    """Sources, chunks, counts by company and type, sources past their TTL, dead letters."""
    status = _kb().status()
    status["backends"] = _runtime().backends()
    if as_json:
        _print_json(status)
        return
    from rich.table import Table

    out.print(f"[bold]{status['sources']}[/] sources, [bold]{status['chunks']}[/] chunks in {status['home']} "
              f"(generation {status['generation']}; dense: {status['dense_store']}; sparse: {status['sparse_backend']})")
    out.print(f"checkpoints: {status['backends']['checkpoints']} · memory: {status['backends']['memory']}",
              highlight=False)
    table = Table("company", "sources", "chunks")
    for company, c in sorted(status["by_company"].items()):
        table.add_row(company, str(c["sources"]), str(c["chunks"]))
    out.print(table)
    out.print("by type: " + ", ".join(f"{t} {n}" for t, n in sorted(status["by_type"].items())))
    if status["past_ttl"]:
        out.print(f"[yellow]{len(status['past_ttl'])} source(s) past their TTL:[/]")
        for s in status["past_ttl"]:
            out.print(f"  {s['source_id']} (published {s['published_at']}, {s['days_old']} days, TTL {s['ttl_days']})")
    if status["dead_letters"]:
        out.print(f"[red]{len(status['dead_letters'])} dead letter(s):[/]")
        for d in status["dead_letters"]:
            out.print(f"  {d['path']}: {d['reason']}", highlight=False)


# --- conversation -------------------------------------------------------------------------------------------


def _runtime():  # type: ignore[no-untyped-def]
    import atexit

    from app.runtime import Runtime

    runtime = Runtime(_settings())
    atexit.register(runtime.close)  # the stores closed before their stamps are recorded (app/errors.VerifiedStamps)
    return runtime


def _guarded(action):  # type: ignore[no-untyped-def]
    """Run a runtime operation; a BadInput becomes a one-line message and exit 2 (nothing was changed)."""
    from app.runtime import TurnFailed

    try:
        return action()
    except BadInput as exc:
        _fail(str(exc))
    except TurnFailed as exc:
        _fail(str(exc), EXIT_ERROR)


def _emit(result, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    """Print a turn's result; exit 3 when the thread waits for a clarification reply."""
    if as_json:
        _print_json(result.as_json())
    else:
        _render_turn(result)
    if result.status == "clarification":
        raise typer.Exit(EXIT_CLARIFY)


def _render_turn(result) -> None:  # type: ignore[no-untyped-def]
    from rich.markup import escape

    if result.status == "clarification":
        out.print(f"[bold yellow]clarification needed:[/] {escape(result.answer)}")
        out.print(f"reply with: prov resume --thread {result.thread_id} \"YOUR REPLY\"", highlight=False)
        err.print(f"thread {result.thread_id}", highlight=False)
        return
    style = {"answered": "green", "refused": "yellow", "insufficient": "yellow", "noted": "cyan"}.get(result.status,
                                                                                                  "white")
    out.print(f"[bold {style}]{result.status}[/]: {escape(result.answer)}")
    if result.cached:
        out.print(f"  [yellow]cached answer, for reference only:[/] first given {escape(result.cached_at or '')} to "
                  f"\"{escape(result.cached_question or '')}\"; its sources are unchanged since (--no-cache asks again)")
    for c in result.citations:
        where = f", p.{c['page']}" if c.get("page") else ""
        out.print(f"  [{c['n']}] {escape(c['source_id'])}{escape(where)} — {escape(c['title'] or '')}: "
                  f"[dim]{escape(c['quote'][:160])}[/]")
    for f in result.flagged:
        out.print(f"  [yellow]removed:[/] {escape(f)}")
    err.print(f"thread {result.thread_id} · checkpoint {result.checkpoint_id}", highlight=False)


@app.command()
def run(
    question: str = typer.Argument(..., help="The question (or a statement to remember: 'answer in millions')."),
    thread: Optional[str] = typer.Option(None, "--thread", help="Continue this thread (default: a new one)."),
    user: Optional[str] = typer.Option(None, "--user", help=USER_HELP),
    no_cache: bool = typer.Option(False, "--no-cache", help="Answer afresh: do not serve a cached answer."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Answer a question with citations. Exit 3 (and the question) when a clarification is needed."""
    runtime = _runtime()
    _emit(_guarded(lambda: runtime.run(question, thread, user=user, use_cache=not no_cache)), as_json)


@app.command()
def resume(
    reply: Optional[str] = typer.Argument(None, help="Your answer to the clarification question (none: finish a "
                                          "turn that was cut off)."),
    thread: str = typer.Option(..., "--thread", help="The thread waiting for the reply, or with a cut-off turn."),
    user: Optional[str] = typer.Option(None, "--user", help=USER_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Answer a thread's clarification question (the reply is merged into the original question); or, with no
    reply, finish a turn that was cut off (`interrupted` in `prov threads`) from its last checkpoint."""
    runtime = _runtime()
    _emit(_guarded(lambda: runtime.resume(thread, reply, user=user)), as_json)


@app.command()
def replay(
    thread: str = typer.Option(..., "--thread", help="The thread to replay."),
    list_: bool = typer.Option(False, "--list", help="List the thread's checkpoints."),
    checkpoint: Optional[str] = typer.Option(None, "--checkpoint", help="Re-run from this checkpoint."),
    fork: Optional[str] = typer.Option(None, "--fork", help="Replay the turn with this edited question."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """List a thread's checkpoints, re-run from one, or fork a turn with an edited question."""
    chosen = sum([list_, checkpoint is not None and fork is None, fork is not None])
    if chosen != 1:
        _fail("give exactly one of --list, --checkpoint CID or --fork QUESTION (--fork may add --checkpoint)")
    runtime = _runtime()
    if list_:
        rows = _guarded(lambda: runtime.checkpoints(thread))
        if as_json:
            _print_json([{k: r[k] for k in ("checkpoint_id", "step", "node", "next", "created_at")} for r in rows])
            return
        from rich.table import Table

        table = Table("step", "node", "next", "created_at")
        table.add_column("checkpoint_id", overflow="fold", min_width=36)
        for r in rows:
            table.add_row(str(r["step"]), r["node"], ",".join(r["next"]) or "-", r["created_at"][:19], r["checkpoint_id"])
        out.print(table)
        return
    if fork is not None:
        _emit(_guarded(lambda: runtime.fork(thread, fork, checkpoint)), as_json)
    else:
        _emit(_guarded(lambda: runtime.replay(thread, checkpoint)), as_json)


threads_app = typer.Typer(help="The conversation threads: list (the default) and prune.")
app.add_typer(threads_app, name="threads")


@threads_app.callback(invoke_without_command=True)
def threads(ctx: typer.Context, as_json: bool = typer.Option(False, "--json")) -> None:
    """The conversation threads, newest first, and the stores they are kept in. A turn cut off mid-way (its process
    killed, or a step failed) is `interrupted`, with the step it stopped before; `prov resume --thread` finishes it."""
    if ctx.invoked_subcommand is not None:
        return
    runtime = _runtime()
    rows = runtime.threads()
    if as_json:
        _print_json(rows)
        return
    backends = runtime.backends()
    err.print(f"checkpoints: {backends['checkpoints']} · memory: {backends['memory']}", highlight=False)
    if not rows:
        out.print("no threads yet: start one with `prov run QUESTION`")
        return
    from rich.table import Table

    table = Table("user", "turns", "status", "last question", "updated")
    table.add_column("thread", overflow="fold", min_width=12)
    for r in rows:
        status = f"interrupted (at {r['stopped_at']})" if r["status"] == "interrupted" else r["status"]
        table.add_row(r["user"], str(r["turns"]), status, r["last_question"][:60], (r["updated_at"] or "")[:19],
                      r["thread_id"])
    out.print(table)


@threads_app.command("prune")
def threads_prune(
    older_than: float = typer.Option(..., "--older-than", metavar="DAYS",
                                     help="Remove threads whose last checkpoint is older than this many days."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Remove old threads: their checkpoints, cached answers, archived turns and thread-scoped memory, from whichever
    backend is in use. A user's own records (profile, facts, constraints) are kept."""
    runtime = _runtime()
    done = _guarded(lambda: runtime.prune(older_than))
    if as_json:
        _print_json(done)
        return
    out.print(f"removed {len(done['removed'])} thread(s) last used before {done['before']} from {done['backend']}")
    for t in done["removed"]:
        out.print(f"  {t}", highlight=False)


@app.command()
def trace(
    thread: Optional[str] = typer.Option(None, "--thread", help="The thread to trace."),
    turn: Optional[int] = typer.Option(None, "--turn", min=1, help="Only this turn (1 is the first)."),
    checkpoint: Optional[str] = typer.Option(None, "--checkpoint", help="The state at this checkpoint instead."),
    prompt: bool = typer.Option(False, "--prompt", help="Also print each turn's assembled prompt (or the one at "
                                                        "--checkpoint)."),
    diff: Optional[List[str]] = typer.Option(None, "--diff", help="Compare two threads turn by turn: --diff A "
                                                                  "--diff B (or --diff A B)."),
    regenerate: bool = typer.Option(False, "--regenerate", help="With --turn: run the turn's assembly, generation "
                                                                   "and citation check again from its recorded state "
                                                                   "(no routing or retrieval; nothing written)."),
    model: Optional[str] = typer.Option(None, "--model", help="With --regenerate: the large model to use instead."),
    extra: Optional[List[str]] = typer.Argument(None, hidden=True),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """What each turn of a thread asked, how it was routed, what search kept, what was in the prompt and why
    (every block's producer, rule and tokens), what memory admitted, refused and wrote, and what was cited."""
    runtime = _runtime()
    if regenerate:
        if not thread or turn is None:
            _fail("--regenerate needs --thread ID and --turn N")
        again = _guarded(lambda: runtime.regenerate(thread, turn, model=model))
        again.pop("block_texts", None)
        if as_json:
            _print_json(again)
            return
        out.print(f"turn {turn}, as recorded ({again['original']['status']}):", highlight=False)
        out.print(again["original"]["answer"] or "", highlight=False, markup=False)
        out.print(f"regenerated with {again['model']} ({again['status']}):", highlight=False)
        out.print(again["answer"], highlight=False, markup=False)
        for call in again["calls"]:
            out.print(f"call: {call['role']} on {call['model']}, {call['blocks']} block(s), {call['prompt_chars']} "
                      f"prompt characters, {call['seconds']} s", highlight=False)
        out.print(f"logged to {again['log']}", highlight=False)
        return
    if diff:
        pair = [*diff, *(extra or [])]
        if len(pair) != 2:
            _fail("--diff needs two threads: prov trace --diff THREAD_A THREAD_B")
        rows = _guarded(lambda: runtime.diff(pair[0], pair[1]))
        if as_json:
            _print_json(rows)
            return
        _render_diff(pair, rows)
        return
    if extra:
        _fail(f"unexpected argument {extra[0]!r}")
    if not thread:
        _fail("give --thread ID (or --diff A B)")
    if checkpoint is not None:
        data = _guarded(lambda: runtime.trace(thread, checkpoint))
        if as_json:
            _print_json(data)
            return
        _render_checkpoint_trace(data, prompt)
        return
    turns = _guarded(lambda: runtime.turns(thread))
    if turn is not None:
        if turn > len(turns):
            _fail(f"thread {thread} has {len(turns)} turn(s); --turn {turn} is not one of them")
        turns = [turns[turn - 1]]
    if as_json:
        _print_json(turns)
        return
    for t in turns:
        _render_turn_trace(t)
        if prompt:  # the prompt of this turn, from the checkpoint it ended at
            _print_prompt(runtime.trace(thread, t["checkpoint_id"])["prompt"])


def _print_prompt(messages: list) -> None:  # type: ignore[type-arg]
    for message in messages:
        out.print(f"[bold]--- {message['role']} ---[/]")
        out.print(message["content"], highlight=False, markup=False)


def _render_turn_trace(t: dict) -> None:  # type: ignore[type-arg]
    from rich.markup import escape
    from rich.table import Table

    route = t["route"] or {}
    flags = [k for k, v in route.items() if k != "plan" and v]
    plan = route.get("plan") or {}
    out.print(f"[bold]turn {t['turn']}[/] ({t['status']}): {escape(t['question'] or '')}")
    out.print(f"  route: {', '.join(flags) or '-'} · memory_read {plan.get('memory_read', '-')}"
              f"{' · cache hit' if t['cache']['hit'] else ''}")
    if t["funnel"]:
        f = t["funnel"]
        out.print(f"  funnel: {f['attempts']} attempt(s), {f['evidence']} admitted, {f['claims']} claims verified, "
                  f"{f['dropped_claims']} dropped, {f['fetched']} fetched")
    if t["manifest"]:
        table = Table("block", "producer", "rule", "tokens", "in")
        for m in t["manifest"]:
            table.add_row(escape(m["block"]), escape(m["producer"]),
                          escape(m["rule"] + (f" ({m['note']})" if m["note"] else "")), str(m["tokens"]),
                          "yes" if m["included"] else "no")
        out.print(table)
    mem = t["memory"]
    for r in mem["admitted"]:
        out.print(f"  memory admitted: {r['type']} {escape(r['key'])} = {escape(r['value'])} ({escape(r['rule'])}; "
                  f"score {r['score']:g}, {r['tokens']} tokens)")
    for r in mem["refused"]:
        out.print(f"  memory left out: {r['type']} {escape(r['key'])} ({escape(r['rule'])})")
    for w in mem["written"]:
        out.print(f"  memory written: {w['type']} {escape(w['key'])} = {escape(w['value'])} ({escape(w['rule'])})")
    for w in mem["not_written"]:
        out.print(f"  not remembered: \"{escape(w['text'][:80])}\" ({escape(w['rule'])})")
    for c in t["citations"]:
        out.print(f"  [{c['n']}] {escape(c['source_id'])}" + (f", p.{c['page']}" if c.get("page") else ""))


def _render_diff(pair: list, rows: list) -> None:  # type: ignore[type-arg]
    from rich.markup import escape

    same = sum(1 for r in rows if not r["differences"])
    out.print(f"{escape(pair[0])} vs {escape(pair[1])}: {same} of {len(rows)} turn(s) alike")
    for r in rows:
        if not r["differences"]:
            continue
        out.print(f"[bold]turn {r['turn']}[/]: {escape(str(r['question'][0] or r['question'][1] or ''))}")
        for key, (a, b) in r["differences"].items():
            out.print(f"  {key}: {escape(str(a))} → {escape(str(b))}")


def _render_checkpoint_trace(data: dict, prompt: bool) -> None:  # type: ignore[type-arg]
    from rich.markup import escape
    from rich.table import Table

    decision = data["decision"] or {}
    flags = [k for k in ("is_out_of_scope", "needs_retrieval", "needs_news", "needs_clarification",
                         "needs_calculation") if decision.get(k)]
    out.print(f"[bold]question:[/] {escape(data['question'] or '')}")
    out.print(f"[bold]route:[/] {', '.join(flags) or 'none'} · plan {decision.get('plan')}")
    table = Table("block", "role", "producer", "rule", "tokens", "in")
    for m in data["manifest"]:
        table.add_row(escape(m["block"]), m["role"], escape(m["producer"]), escape(m["rule"] + (
            f" ({m['note']})" if m["note"] else "")), str(m["tokens"]), "yes" if m["included"] else "no")
    out.print(table)
    check = data["citation_check"]
    if check:
        out.print(f"citations valid {check['valid']}, removed {check['removed']}, flagged {len(check['flagged'])}"
                  f"{', failed closed' if check['fail_closed'] else ''}")
    if prompt:
        _print_prompt(data["prompt"])


@memory_app.command("list")
def memory_list(
    user: Optional[str] = typer.Option(None, "--user", help="Only this user's records."),
    thread: Optional[str] = typer.Option(None, "--thread", help="Only this thread's records."),
    all_: bool = typer.Option(False, "--all", help="Also superseded and expired records."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """The memory records: key, value, type, status, scope, source, created_at, supersedes."""
    rows = _runtime().memory_records(user, thread, all_)
    if as_json:
        _print_json(rows)
        return
    if not rows:
        out.print("no memory records" + ("" if all_ else " (--all also lists superseded and expired ones)"))
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table("type", "key", "value", "status", "scope", "user", "created_at", "supersedes")
    for r in rows:
        table.add_row(r["type"], escape(r["key"]), escape(r["value"]), r["status"], escape(r["scope"]),
                      escape(r["user"]), r["created_at"][:19], (r["supersedes"] or "")[:8])
    out.print(table)


@memory_app.command("forget")
def memory_forget(
    user: Optional[str] = typer.Option(None, "--user", help="Erase everything of this user."),
    thread: Optional[str] = typer.Option(None, "--thread", help="Erase everything of this thread."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Erase a user's (or a thread's) memory records, cached answers, archived turns and conversation
    checkpoints, leaving no copy in the database files."""
    if (user is None) == (thread is None):
        _fail("give exactly one of --user U or --thread T")
    runtime = _runtime()
    done = _guarded(lambda: runtime.forget(user=user, thread=thread))
    if as_json:
        _print_json(done)
        return
    who = f"user {user}" if user is not None else f"thread {thread}"
    out.print(f"erased {who}: {done['records']} memory record(s), {done['cached_answers']} cached answer(s), "
              f"{done['archived_turns']} archived turn(s), {done['threads']} thread(s) of checkpoints")


@app.command()
def chat(thread: Optional[str] = typer.Option(None, "--thread", help="Continue this thread."),
         user: Optional[str] = typer.Option(None, "--user", help=USER_HELP),
         no_cache: bool = typer.Option(False, "--no-cache", help="Do not serve cached answers.")) -> None:
    """Interactive conversation: the same behaviour as run/resume, one line at a time (empty line or Ctrl-D ends)."""
    runtime = _runtime()
    waiting = False
    if thread:
        snapshot = _guarded(lambda: runtime.require_thread(thread, runtime.check_user(user)))
        waiting = runtime.is_waiting(snapshot)
        if waiting:
            out.print(f"[bold yellow]clarification needed:[/] {runtime.pending_question(snapshot)}")
    while True:
        try:
            line = input("you> " if not waiting else "reply> ")
        except EOFError:
            break
        if not line.strip():
            break
        from app.runtime import TurnFailed

        try:
            result = (runtime.resume(thread, line, user=user) if waiting and thread
                      else runtime.run(line, thread, user=user, use_cache=not no_cache))
        except (BadInput, TurnFailed) as exc:  # the conversation goes on; the thread keeps its steps
            err.print(f"[bold red]error:[/] {exc}", highlight=False)
            if isinstance(exc, TurnFailed):
                thread = exc.thread_id
            continue
        thread = result.thread_id
        waiting = result.status == "clarification"
        _render_turn(result)


eval_app = typer.Typer(help="Evaluation: suites scored per stage, and a turn's blocks' contributions.")
app.add_typer(eval_app, name="eval")


@eval_app.callback(invoke_without_command=True)
def eval_(
    ctx: typer.Context,
    suite: Optional[List[str]] = typer.Option(None, "--suite", help="A corpus's suites ('sample') or one suite "
                                                                    "('sample/answers'); repeatable. Default: all "
                                                                    "of evals/. 'shared/convfinqa' and the other "
                                                                    "--list names under shared/ are made from "
                                                                    "../shared/data when it is there."),
    size: Optional[int] = typer.Option(None, "--size", min=1, help="With shared/ suites: how many conversations "
                                                                   "(convfinqa, default 20), tasks (mtrag-un, 40), "
                                                                   "scripts (goodai-ltm, all) or questions per suite "
                                                                   "(financebench, all) to ask."),
    save: Optional[str] = typer.Option(None, "--save", help="Freeze this run under NAME (answers, manifests, "
                                                            "metrics, commit and settings)."),
    compare: Optional[str] = typer.Option(None, "--compare", help="Compare with a saved run (NAME or a path)."),
    max_drop: Optional[float] = typer.Option(None, "--max-drop", min=0.0, help="With --compare: exit 1 when a "
                                                                                "stage's rate falls by more."),
    list_suites: bool = typer.Option(False, "--list", help="List the suites and exit."),
    root: Optional[Path] = typer.Option(None, "--dir", readable=False,
                                        help="A folder of suites of your own (a folder per "
                                             "corpus, as in evals/README.md). Default: evals/."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Run evaluation suites (evals/) offline through the real graph and score each stage on its own: route,
    retrieval, reduction, memory, citation validity, grounding, correctness, insufficient and constraints."""
    if ctx.invoked_subcommand is not None:
        return
    from app.evaluation import runner, shared_data
    from app.evaluation.suites import load_suites, suite_names

    from app.evaluation.suites import EVALS

    folder = root or EVALS
    if list_suites:
        names = _guarded(lambda: suite_names(folder)) + shared_data.listing()
        _print_json(names) if as_json else [out.print(n, highlight=False) for n in names]
        return
    settings = _settings()
    wanted = list(suite or [])
    generated = [n for n in wanted if shared_data.is_shared(n)]  # made from ../shared/data, never by default
    own = [n for n in wanted if not shared_data.is_shared(n)]
    progress = (lambda _m: None) if as_json else (lambda m: err.print(f"[dim]{m}[/]", highlight=False))
    suites = _guarded(lambda: load_suites(own, folder)) if own or not generated else []
    skipped: list[str] = []
    if generated:
        made, skipped = _guarded(lambda: shared_data.load_shared(generated, settings.home, size=size,
                                                                 progress=progress))
        suites += made
        if not as_json:
            for line in skipped:
                out.print(line, highlight=False, soft_wrap=True)
        if not suites:  # no data here: nothing to measure, which is no failure
            if as_json:
                _print_json({"suites": [], "skipped": skipped})
            return
    saved = _guarded(lambda: runner.load_saved(compare, settings)) if compare else None
    run = runner.run_suites(suites, settings, progress)
    report = run.as_json(turns=False)
    if skipped:
        report["skipped"] = skipped
    if save:
        path = _guarded(lambda: runner.save(run, save, settings))
        report["saved"] = str(path)
    dropped: list[str] = []
    if saved is not None:
        report["compare"] = runner.compare(run.as_json(), saved)
        if max_drop is not None:
            dropped = [s for s, v in report["compare"]["stages"].items()
                       if v["delta"] is not None and v["delta"] < -max_drop]
            report["compare"]["failed_stages"] = dropped
    if as_json:
        _print_json(report)
    else:
        _render_eval(report)
    if dropped:
        err.print(f"[bold red]regression:[/] {', '.join(dropped)} fell by more than {max_drop}", highlight=False)
        raise typer.Exit(EXIT_ERROR)


@eval_app.command("contribution")
def eval_contribution(
    thread: str = typer.Option(..., "--thread", help="The thread."),
    turn: int = typer.Option(..., "--turn", min=1, help="The turn (1 is the first)."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Each admitted block of a turn's prompt left out in turn, the answer regenerated from the recorded state (no
    routing, no retrieval, nothing written): needed, changes the answer, or redundant or unused."""
    from app.evaluation.contribution import contribution

    runtime = _runtime()
    report = _guarded(lambda: contribution(runtime, thread, turn))
    if as_json:
        _print_json(report)
        return
    from rich.table import Table

    out.print(f"turn {turn} of {thread}, regenerated ({report['model']}): {report['status']}", highlight=False)
    out.print(report["answer"], highlight=False, markup=False)
    table = Table()
    for column in ("block", "kind", "source", "effect", "figures lost", "grounded"):
        table.add_column(column)
    for row in report["blocks"]:
        table.add_row(f"[{row['block']}]", row["kind"], row["source_id"], row["effect"],
                      ", ".join(row["figures_lost"]), "yes" if row["grounded"] else "no")
    out.print(table)
    out.print(f"{report['calls']} model call(s) logged to {report['log']}", highlight=False)


def _render_eval(report: dict) -> None:  # type: ignore[type-arg]
    from rich.table import Table

    from app.evaluation.stages import STAGES, headline

    table = Table(title=f"prov eval: {', '.join(report['suites'])} ({report['seconds']} s)")
    for column in ("stage", "n", "rate", "details"):
        table.add_column(column)
    compared = (report.get("compare") or {}).get("stages") or {}
    for stage in STAGES:
        figures = report[stage]
        rate = headline(stage, figures)
        shown = "—" if rate is None else f"{rate:.1%}"
        if stage in compared and compared[stage]["delta"] is not None:
            shown += f" ({compared[stage]['delta']:+.1%})"
        details = {k: v for k, v in figures.items()
                   if k not in ("n", "rate", "held_out") and v not in ([], {}, None)}
        table.add_row(stage, str(figures.get("n", 0)), shown, json.dumps(details, default=str)[:300])
    out.print(table)
    held = report["route"].get("held_out")
    if held:
        companies = "; ".join(f"{c} {v['held_out']:.0%} (with it {v['in_sample']:.0%})"
                              for c, v in held["by_company"].items())
        out.print(f"route on companies held out of the router's training: {held['rate']:.1%} of {held['n']} first "
                  f"turns (trained with them: {held['in_sample_rate']:.1%}); {companies}", highlight=False)
    for change in (report.get("compare") or {}).get("changed") or []:
        out.print(f"changed {change['id']}: {change['change']}", highlight=False)
        diff = change.get("manifest") or {}
        for what in ("added", "dropped", "reranked"):
            for block in diff.get(what) or []:
                out.print(f"  {what}: {block}", highlight=False)
    if report.get("saved"):
        out.print(f"saved: {report['saved']}")


@app.command()
def graph(xray: bool = typer.Option(True, "--xray/--no-xray", help="Draw the subgraphs inside their nodes.")) -> None:
    """The supervisor graph and its subgraphs, as Mermaid."""
    sys.stdout.write(_runtime().graph.get_graph(xray=xray).draw_mermaid() + "\n")


def main() -> None:
    import os

    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # an internal error: one line, the traceback on request
        from app.errors import CorruptFile, ServerUnreachable

        if isinstance(exc, ServerUnreachable):
            err.print(f"[bold red]error:[/] {exc}", highlight=False)
            sys.exit(EXIT_ERROR)
        if isinstance(exc, CorruptFile):
            err.print(f"[bold red]error:[/] {exc}", highlight=False)
            sys.exit(EXIT_BAD_INPUT)
        if (bad := _bad_settings(exc)) is not None:
            for line in bad:
                err.print(f"[bold red]error:[/] {line}", highlight=False)
            sys.exit(EXIT_BAD_INPUT)
        if _is_database_error(exc) and (damaged := _damaged_stores()):
            # a store went bad under a command: named, checked by SQLite itself, and left exactly as it is
            for path, problem in damaged:
                err.print(f"[bold red]error:[/] {path} is {problem}: move it aside or restore it from a backup, "
                          "then run the command again (Prov writes nothing into it)", highlight=False)
            sys.exit(EXIT_BAD_INPUT)
        if os.environ.get("PROV_DEBUG"):
            raise
        err.print(f"[bold red]internal error:[/] {type(exc).__name__}: {exc} (set PROV_DEBUG=1 for the traceback)",
                  highlight=False)
        sys.exit(EXIT_ERROR)


def _bad_settings(exc: BaseException) -> list[str] | None:
    """One line per setting the environment (or .env) gives a value Settings refuses: the variable, its value (at
    most SHOWN_CHARS characters) and why; None for any other error."""
    from pydantic import ValidationError

    from app.errors import shown

    if not isinstance(exc, ValidationError) or exc.title != "Settings":
        return None
    lines = []
    for problem in exc.errors():
        name = str(problem["loc"][0]) if problem.get("loc") else "a setting"
        variable = name.upper() if name.upper().startswith(("PROV_", "OPENAI_")) else f"PROV_{name.upper()}"
        lines.append(f"{variable}={shown(str(problem.get('input')))}: {problem['msg']} (see .env.example)")
    return lines


def _is_database_error(exc: BaseException) -> bool:
    import sqlite3

    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:  # SQLAlchemy wraps sqlite3's error; LangGraph raises it bare
        seen.add(id(exc))
        if isinstance(exc, sqlite3.DatabaseError) or type(exc).__name__ == "DatabaseError":
            return True
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return False


def _damaged_stores() -> list[tuple[Path, str]]:
    from app.errors import damaged_stores
    from app.settings import Settings

    try:
        return damaged_stores(Settings().home)
    except Exception:  # the settings themselves are bad: the original error stands
        return []


if __name__ == "__main__":
    main()
