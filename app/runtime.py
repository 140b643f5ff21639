"""The conversation runtime: the supervisor graph compiled once, with the SQLite checkpointer, and the
operations the CLI offers on threads (run, resume, replay, fork, list, trace).

Every guard that protects stored state lives here and raises `BadInput` before anything is written:
an empty or oversized question, an unknown thread, a resume of a thread that is not waiting, a new question
on a thread that is waiting for a clarification reply (LangGraph would silently start a new run), an unknown
checkpoint.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cached_property
from typing import Any

from app.errors import BIDI_CONTROLS, MAX_USER_CHARS, BadInput, not_plain_text, shown
from app.settings import Settings

REPEAT_DOOR = "repeat door"  # checkpoint metadata `served_by` of a turn the repeat door answered


class TurnFailed(RuntimeError):
    """A step failed (a model server refused a request, a store was unreachable). Every step completed before
    it is checkpointed: the message says where it stopped and how to go on from there."""

    def __init__(self, thread_id: str, node: str, checkpoint_id: str | None, cause: BaseException) -> None:
        self.thread_id, self.node, self.checkpoint_id, self.cause = thread_id, node, checkpoint_id, cause
        where = f"at {node}" if node else "before its first step"
        from app.errors import ServerUnreachable

        if isinstance(cause, ServerUnreachable):
            super().__init__(f"the turn on thread {thread_id} stopped {where}: {cause}; the thread keeps every "
                             f"completed step: once the server is back, `prov resume --thread {thread_id}` finishes it")
            return
        resume = (f"; the thread keeps every completed step: fix the cause, then "
                  f"`prov resume --thread {thread_id}` finishes the turn (or `prov replay --thread {thread_id} "
                  f"--checkpoint {checkpoint_id}`)" if checkpoint_id else "")
        super().__init__(f"the turn on thread {thread_id} failed {where}: {type(cause).__name__}: {cause}{resume}")


@dataclass
class TurnResult:
    thread_id: str
    status: str
    answer: str
    question: str
    checkpoint_id: str | None
    citations: list[dict[str, Any]] = field(default_factory=list)
    cached: bool = False
    flagged: list[str] = field(default_factory=list)
    clarification: str | None = None
    cached_at: str | None = None
    cached_question: str | None = None
    user: str = "local"

    def as_json(self) -> dict[str, Any]:
        return {
            "thread_id": self.thread_id, "user": self.user, "status": self.status, "answer": self.answer,
            "citations": self.citations, "question": self.question, "checkpoint_id": self.checkpoint_id,
            "cache_hit": self.cached, "cached": self.cached, "cached_at": self.cached_at,
            "cached_question": self.cached_question, "flagged": self.flagged,
        }


class _LoggedSynthesizer:
    """A synthesizer whose every call is recorded: when, the model, how much prompt went in and came out, how long
    it took (what `regenerate` logs to Settings.regenerate_log_path)."""

    def __init__(self, inner: Any, calls: list[dict[str, Any]], about: dict[str, Any]) -> None:
        self.inner, self.calls, self.about = inner, calls, about
        from app.models.roles import role_label

        self.label = role_label(inner)

    def draft(self, state: Any) -> str:
        started = time.perf_counter()
        answer = self.inner.draft(state)
        prompt = state.get("prompt") or []
        self.calls.append({**self.about, "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                           "role": "synthesis", "model": self.label,
                           "prompt_chars": sum(len(str(getattr(m, "content", m))) for m in prompt),
                           "blocks": len(state.get("blocks") or []), "answer_chars": len(answer or ""),
                           "seconds": round(time.perf_counter() - started, 3)})
        return answer


class Runtime:
    def __init__(self, settings: Settings, *, models: Any = None, kb: Any = None) -> None:
        self.settings = settings
        self._models = models
        self._kb = kb

    # --- collaborators, built lazily ---------------------------------------------------------------------
    @cached_property
    def kb(self) -> Any:
        if self._kb is not None:
            return self._kb
        from app.knowledge.base import KnowledgeBase

        return KnowledgeBase(self.settings)

    @cached_property
    def models(self) -> Any:
        if self._models is not None:
            return self._models
        from app.models import get_models

        return get_models(self.settings)

    @cached_property
    def checkpoint_store(self) -> Any:
        """The checkpoint store (SQLite under PROV_HOME, or PostgreSQL at PROV_CHECKPOINT_URL)."""
        from app.checkpoints import open_checkpoints

        return open_checkpoints(self.settings)

    @property
    def saver(self) -> Any:
        return self.checkpoint_store.saver

    def backends(self) -> dict[str, str]:
        """Which stores this runtime uses, as `prov threads` and `prov kb status` show them (no passwords)."""
        from app.checkpoints import describe_url, redact

        s = self.settings
        return {"checkpoints": describe_url(s.checkpoint_url, s.checkpoint_path),
                "memory": redact(s.memory_database_url),
                "dense": f"chroma server ({s.chroma_url})" if s.chroma_url else f"embedded chroma ({s.chroma_path})"}

    @cached_property
    def memory(self) -> Any:
        from app.memory.records import MemoryStore

        return MemoryStore(self.settings.memory_database_url)

    @cached_property
    def cache(self) -> Any:
        from datetime import timedelta

        from app.memory.semantic_cache import SemanticCache

        return SemanticCache(self.settings.memory_database_url, self.embed,
                             ttl=timedelta(days=self.settings.cache_ttl_days))

    @cached_property
    def archive(self) -> Any:
        from app.memory.archive import TurnArchive

        return TurnArchive(self.settings.memory_database_url, self.embed)

    def embed(self, texts: Any) -> list[list[float]]:
        """The knowledge base's embedder, for the cache and the archive; loaded on the first question embedded,
        not when the graph is built (`prov threads` and `prov memory list` never load it)."""
        return self.kb.embedder.embed(list(texts))

    @cached_property
    def graph(self) -> Any:
        from graphs.supervisor import build_supervisor_graph

        return build_supervisor_graph(self.deps()).compile(checkpointer=self.saver)

    def deps(self) -> Any:
        from app.knowledge.tokens import count_tokens
        from graphs.supervisor import SupervisorDeps

        s = self.settings
        return SupervisorDeps(
            models=self.models, search_fn=self.search_reports, news_fn=self.search_news, page_fn=self.page_chunks,
            mention_fn=self.chunks_mentioning,
            count_tokens=count_tokens, known_companies=self.known_companies, periods_fn=self.fiscal_years_held,
            known_years=self.kb.catalog.fiscal_years, company_aliases=self.kb.catalog.company_aliases,
            period_ends=self.kb.catalog.period_ends, names_by_start=self.kb.catalog.names_years_by_start,
            mentions=self.corpus_mentions, row_owners=self.corpus_row_owners,
            news_companies=self.kb.catalog.news_companies,
            cache=self.cache if s.answer_cache else None, source_hash=self.kb.catalog.source_hash,
            memory=self.memory, archive=self.archive, memory_answer=_memory_answer,
            memory_max_records=s.memory_max_records, memory_max_tokens=s.memory_max_tokens,
            budget_tokens=s.context_budget_tokens, max_question_chars=s.max_question_chars,
            verbatim_turns=s.history_turns_verbatim, news_limit=s.news_limit,
            grade_concurrency=s.grade_concurrency,
        )

    def corpus_mentions(self, name: str) -> list[str]:
        """The companies whose documents mention the name (spacing and case aside), most relevant first: a segment,
        a subsidiary, an acquired business or a product is mentioned; a company nobody wrote about is not ([])."""
        wanted = " ".join(name.split()).casefold()
        hits = self.kb.search(name, k=5).hits
        return list(dict.fromkeys(h.company for h in hits
                                  if h.company and wanted in " ".join(h.text.split()).casefold()))

    def corpus_row_owners(self, name: str) -> list[str]:
        """The companies whose reports give the name a table row of its own, a line it opens with figures after it
        ('REMICADE 462 647 (28.6)%'): a product, brand or segment of theirs, not a rival their prose mentions."""
        import re

        row = re.compile(rf"(?im)^\s*{re.escape(' '.join(name.split()))}\b[^\n]*?\d[\d,.]*")
        hits = self.kb.search(name, k=8, mode="sparse").hits  # (a row label is the name's own words)
        return list(dict.fromkeys(h.company for h in hits if h.company and h.doc_type == "report"
                                  and row.search(h.text)))

    def known_companies(self) -> list[str]:
        return self.kb.catalog.companies()

    def fiscal_years_held(self, company: str) -> list[int]:
        return sorted({year for year, *_ in self.kb.catalog.periods(company) if year})

    def search_reports(self, query: str, company: str | None, fiscal_year: int | None, k: int) -> list[Any]:
        from app.knowledge.base import Filters
        from app.evidence import evidence_from_hit

        filters = Filters(company=company, fiscal_year=fiscal_year, doc_type="report")
        return [evidence_from_hit(h) for h in self.kb.search(query, k=k, filters=filters).hits]

    def chunks_mentioning(self, company: str, groups: list[list[str]]) -> list[Any]:
        """A text search of every report chunk of one company: those holding, for each group, one of its stems
        (app/knowledge/catalog.chunks_with_terms), as evidence (the latest filings first)."""
        from app.evidence import Evidence

        return [Evidence.model_validate({**row, "is_table": bool(row["is_table"])})
                for row in self.kb.catalog.chunks_with_terms(company, groups)]

    def page_chunks(self, source_id: str, page: int) -> list[Any]:
        """The chunks of one page, as evidence: a statement page's other rows, when search found one of them."""
        from app.evidence import Evidence

        return [Evidence.model_validate({**row, "is_table": bool(row["is_table"])})
                for row in self.kb.catalog.page_chunks(source_id, page)]

    def search_news(self, query: str, company: str | None, k: int, *,
                    published: tuple[Any, Any] | None = None) -> list[Any]:
        """The news items about the company that best match the query (published in the window, when given)."""
        from app.knowledge.base import Filters
        from app.evidence import evidence_from_hit

        first, last = published or (None, None)
        filters = Filters(company=company, doc_type="news", published_from=first, published_to=last)
        return [evidence_from_hit(h) for h in self.kb.search(query, k=k, filters=filters).hits]

    # --- guards ----------------------------------------------------------------------------------------------
    def check_question(self, question: str, what: str = "question") -> str:
        """The question with its whitespace normalised; BadInput when it is empty, too long, or not plain text
        (control characters such as terminal escapes, or bytes that are not UTF-8)."""
        text = " ".join((question or "").split())
        if not text:
            raise BadInput(f"the {what} is empty")
        problem = not_plain_text(text)
        if problem:
            raise BadInput(f"the {what} {problem}; send plain text")
        if len(text) > self.settings.max_question_chars:
            raise BadInput(f"the {what} has {len(text)} characters; the limit is {self.settings.max_question_chars} "
                           "(PROV_MAX_QUESTION_CHARS)")
        return text

    @staticmethod
    def config(thread_id: str, checkpoint_id: str | None = None) -> dict[str, Any]:
        conf: dict[str, Any] = {"thread_id": thread_id}
        if checkpoint_id:
            conf.update(checkpoint_ns="", checkpoint_id=checkpoint_id)
        return {"configurable": conf}

    def thread_exists(self, thread_id: str) -> bool:
        return self.saver.get_tuple(self.config(thread_id)) is not None

    def require_thread(self, thread_id: str, user: str | None = None) -> Any:
        """The thread's state; with `user`, the thread must be that user's (a thread's memory, cache and archive
        are its owner's)."""
        if not thread_id or not self.thread_exists(thread_id):
            raise BadInput(f"unknown thread {thread_id!r}: `prov threads` lists the threads")
        # a turn in flight when the thread was erased may have written after it: that is erased when the turn
        # ends, and no one continues, traces, replays or forks the thread in between
        self.memory.refuse_if_forgotten(thread_id)
        if user is not None:
            owner = self.memory.owner(thread_id)
            if owner is not None and owner != user:
                raise BadInput(f"thread {thread_id} belongs to user {owner!r}, not {user!r}: pass --user {owner} "
                               "or start a new thread")
        return self.graph.get_state(self.config(thread_id))

    @staticmethod
    def is_waiting(snapshot: Any) -> bool:
        return bool(snapshot.interrupts)

    @staticmethod
    def cut_off_at(snapshot: Any) -> str | None:
        """The node(s) a turn stopped before when its process died or a step failed (the thread's latest checkpoint
        still has work to run and no question is waiting for a reply); None for a finished or waiting turn."""
        if snapshot is None or snapshot.interrupts:
            return None
        if snapshot.next:
            return ",".join(snapshot.next)
        # Killed after a step's tasks had all written their results but before the step's checkpoint: `next` is
        # empty (every task has writes), yet the checkpoint still has tasks to apply; a finished turn has none.
        tasks = tuple(getattr(snapshot, "tasks", ()) or ())
        return ",".join(dict.fromkeys(t.name for t in tasks)) or None

    # --- operations ------------------------------------------------------------------------------------------
    def run(self, question: str, thread_id: str | None = None, *, user: str | None = None,
            use_cache: bool = True) -> TurnResult:
        text = self.check_question(question)
        user = self.check_user(user)
        thread_id_given = bool(thread_id)
        if thread_id:
            snapshot = self.require_thread(thread_id, user)
            if self.is_waiting(snapshot):
                raise BadInput(f"thread {thread_id} is waiting for a clarification reply "
                               f"({self.pending_question(snapshot)!r}): answer it with "
                               f"`prov resume --thread {thread_id} REPLY`")
            stopped = self.cut_off_at(snapshot)
            if stopped:
                raise BadInput(f"thread {thread_id} has a turn that was cut off before {stopped} "
                               f"({(snapshot.values or {}).get('asked') or (snapshot.values or {}).get('question')!r}): "
                               f"finish it first with `prov resume --thread {thread_id}`")
        else:
            thread_id = "t-" + uuid.uuid4().hex[:10]
        # the checkpoints are set up before a thread is owned: a thread's owner then proves the checkpoint file
        # was in use, so an emptied one is told from a new one even while processes start at once (app/errors)
        _ = self.saver
        self.memory.own_thread(thread_id, user)
        payload = {"question": text, "user": user, "thread": thread_id, "use_cache": use_cache}
        served = None if thread_id_given else self._serve_repeat(payload)
        if served is not None:
            self._erase_if_forgotten(thread_id)
            return served
        self._invoke(payload, self.config(thread_id), thread_id)
        return self.result(thread_id)

    @cached_property
    def repeat_door(self) -> Any:
        from graphs.supervisor import build_repeat_door

        return build_repeat_door(self.deps())

    def _serve_repeat(self, payload: dict[str, Any]) -> TurnResult | None:
        """A new thread's question the user has asked before, answered through the repeat door (graphs/supervisor.py:
        the graph's own cache-hit path, its node and branch functions, without the scheduler's four steps) and
        recorded as the respond node's update: one checkpoint, traced like any turn. Tried only when the cache
        holds these very words for this user (one indexed read, no embedding); for anything else, or if the door
        stumbles, None, and the graph runs the turn (and reports a failure with its node and checkpoint)."""
        if not (payload["use_cache"] and self.settings.answer_cache
                and self.cache.has_repeat(payload["question"], user=payload["user"])):
            return None
        try:
            values = self.repeat_door(payload)
        except Exception:  # noqa: BLE001 - an optimisation only: the graph runs the turn and names what failed
            return None
        if values is None:
            return None
        thread_id = payload["thread"]
        config = self.graph.update_state({**self.config(thread_id), "metadata": {"served_by": REPEAT_DOOR}},
                                         values, as_node="respond")
        return self._turn_result(thread_id, values, config["configurable"]["checkpoint_id"])

    def check_user(self, user: str | None) -> str:
        """The user named (`--user`, else PROV_USER, else 'local'); BadInput for an empty name, one over
        MAX_USER_CHARS characters, or one holding a control, newline or bidi character. The message shows at
        most SHOWN_CHARS characters of it."""
        raw = user if user is not None else (self.settings.user or "local")
        problem = ("is empty" if not raw.strip() else
                   f"has {len(raw)} characters (at most {MAX_USER_CHARS})" if len(raw) > MAX_USER_CHARS else
                   "holds a bidirectional control character" if any(ch in BIDI_CONTROLS for ch in raw) else
                   "holds a control or newline character" if any(not ch.isprintable() and ch != " " for ch in raw)
                   else None)
        if problem:
            raise BadInput(f"--user {problem}: {shown(raw)}; name a user with printable characters")
        return " ".join(raw.split())

    def resume(self, thread_id: str, reply: str | None = None, *, user: str | None = None) -> TurnResult:
        """Answer a waiting clarification with `reply`; or, with no reply, finish a turn that was cut off (its
        process killed, or a step failed) from its last checkpoint: the completed steps are not run again."""
        from langgraph.types import Command

        snapshot = self.require_thread(thread_id, self.check_user(user))
        stopped = self.cut_off_at(snapshot)
        if stopped:
            if reply is not None and reply.strip():
                raise BadInput(f"thread {thread_id} is not waiting for a reply: its last turn was cut off before "
                               f"{stopped}; finish it with `prov resume --thread {thread_id}` (no reply)")
            self._invoke(None, self.config(thread_id), thread_id)
            return self.result(thread_id)
        if not self.is_waiting(snapshot):
            raise BadInput(f"thread {thread_id} is not waiting for a reply; ask a new question with "
                           f"`prov run --thread {thread_id} QUESTION`")
        if reply is None:
            raise BadInput(f"thread {thread_id} is waiting for a clarification reply "
                           f"({self.pending_question(snapshot)!r}): give it, `prov resume --thread {thread_id} REPLY`")
        text = self.check_question(reply, "reply")
        self._invoke(Command(resume=text), self.config(thread_id), thread_id)
        return self.result(thread_id)

    def checkpoints(self, thread_id: str) -> list[dict[str, Any]]:
        """Oldest first: checkpoint id, step, the node that wrote it, what runs next, when."""
        self.require_thread(thread_id)
        history = list(self.graph.get_state_history(self.config(thread_id)))[::-1]
        rows = []
        previous_next: tuple[str, ...] = ()
        for snap in history:
            source = snap.metadata.get("source") if snap.metadata else None
            served_by = snap.metadata.get("served_by") if snap.metadata else None
            wrote = ("input" if source == "input" else f"respond ({served_by})" if served_by else
                     "fork" if source in ("fork", "update") else ",".join(previous_next) or "-")
            rows.append({
                "checkpoint_id": snap.config["configurable"]["checkpoint_id"],
                "step": snap.metadata.get("step") if snap.metadata else None,
                "node": wrote, "next": list(snap.next), "created_at": snap.created_at,
            })
            previous_next = snap.next
        return rows

    def require_checkpoint(self, thread_id: str, checkpoint_id: str) -> dict[str, Any]:
        self.require_thread(thread_id)
        cfg = self.config(thread_id, checkpoint_id)
        if self.saver.get_tuple(cfg) is None:
            raise BadInput(f"thread {thread_id} has no checkpoint {checkpoint_id!r}: "
                           f"`prov replay --thread {thread_id} --list` lists them")
        return cfg

    def replay(self, thread_id: str, checkpoint_id: str) -> TurnResult:
        """Re-run the nodes after a checkpoint (LangGraph writes a fork checkpoint first)."""
        cfg = self.require_checkpoint(thread_id, checkpoint_id)
        self._invoke(None, cfg, thread_id)
        return self.result(thread_id)

    def fork(self, thread_id: str, question: str, checkpoint_id: str | None = None) -> TurnResult:
        """Replay a turn with an edited question: from the given checkpoint, or the start of the latest turn."""
        text = self.check_question(question)
        if checkpoint_id:
            cfg = self.require_checkpoint(thread_id, checkpoint_id)
        else:
            starts = [row for row in self.checkpoints(thread_id) if row["next"] == ["intake"]]
            if not starts:
                raise BadInput(f"thread {thread_id} has no turn to fork")
            cfg = self.config(thread_id, starts[-1]["checkpoint_id"])
        snapshot = self.graph.get_state(cfg)
        if snapshot.next != ("intake",):
            raise BadInput(f"checkpoint {cfg['configurable']['checkpoint_id']} is not the start of a turn "
                           f"(it runs {list(snapshot.next) or 'nothing'} next); fork from a checkpoint whose next "
                           "node is intake")
        new_cfg = self.graph.update_state(cfg, {"question": text}, as_node="__start__")
        self._invoke(None, new_cfg, thread_id)
        return self.result(thread_id)

    def threads(self) -> list[dict[str, Any]]:
        """Every thread, newest first. A turn cut off mid-way shows status `interrupted` and the node it stopped
        before (`stopped_at`); `prov resume --thread` finishes it."""
        out = []
        for thread_id, count in self.checkpoint_store.thread_counts():
            snap = self.graph.get_state(self.config(thread_id))
            values = snap.values or {}
            history = values.get("history") or []
            stopped = self.cut_off_at(snap)
            status = ("clarification" if snap.interrupts else "interrupted" if stopped else
                      (history[-1].status if history else "-"))
            out.append({
                "thread_id": thread_id, "user": self.memory.owner(thread_id) or "-", "checkpoints": count,
                "turns": len(history), "status": status, "stopped_at": stopped,
                "last_question": values.get("asked") or values.get("question") or "",
                "updated_at": snap.created_at,
            })
        return sorted(out, key=lambda r: r["updated_at"] or "", reverse=True)

    def prune(self, older_than_days: float) -> dict[str, Any]:
        """Remove the threads whose last checkpoint is older than `older_than_days`: their checkpoints, cached
        answers, archived turns, thread-scoped memory records and ownership, from whichever backends are in use.
        A user's user-wide records (their profile, facts, constraints) stay: they are the user's, not the thread's."""
        from datetime import datetime, timedelta, timezone

        if older_than_days < 0:
            raise BadInput(f"--older-than must be a number of days ≥ 0, not {older_than_days:g}")
        cutoff = datetime.now(timezone.utc) - timedelta(days=older_than_days)
        removed: list[str] = []
        for thread_id, _count in self.checkpoint_store.thread_counts():
            latest = self.saver.get_tuple(self.config(thread_id))
            stamp = latest.checkpoint.get("ts") if latest is not None else None
            when = datetime.fromisoformat(stamp) if stamp else None
            if when is not None and when.tzinfo is None:
                when = when.replace(tzinfo=timezone.utc)
            if when is None or when >= cutoff:
                continue
            self.cache.forget(thread=thread_id)
            self.archive.forget(thread=thread_id)
            self.memory.forget_thread_scoped(thread_id)
            self.memory.forget_threads(thread=thread_id)
            self.checkpoint_store.delete_thread(thread_id)
            removed.append(thread_id)
        return {"removed": removed, "older_than_days": older_than_days, "before": cutoff.isoformat(timespec="seconds"),
                "backend": self.checkpoint_store.describe()}

    def trace(self, thread_id: str, checkpoint_id: str | None = None) -> dict[str, Any]:
        """The latest turn's manifest, prompt and routing decision, read from the checkpoint (no model runs)."""
        cfg = self.require_checkpoint(thread_id, checkpoint_id) if checkpoint_id else None
        snap = self.graph.get_state(cfg) if cfg else self.require_thread(thread_id)
        values = snap.values or {}
        decision = values.get("decision")
        return {
            "thread_id": thread_id, "question": values.get("question"),
            "decision": decision.model_dump(mode="json") if decision is not None else None,
            "manifest": [m.model_dump(mode="json") for m in values.get("manifest") or []],
            "prompt": values.get("prompt") or [],
            "citation_check": (values["citation_check"].model_dump(mode="json")
                               if values.get("citation_check") is not None else None),
        }

    def _invoke(self, payload: Any, config: dict[str, Any], thread_id: str) -> None:
        """Run the graph; a failing step becomes TurnFailed naming the node and the checkpoint to go on from."""
        graph = self.graph  # built outside the try: a graph that cannot be built is not a failed step
        from app.errors import CorruptFile

        try:
            graph.invoke(payload, config)
        except (KeyboardInterrupt, BadInput, CorruptFile):  # a damaged store is the user's to fix: exit 2, its name
            raise
        except Exception as exc:
            snapshot = graph.get_state(self.config(thread_id))
            node = ",".join(snapshot.next) if snapshot and snapshot.next else ""
            checkpoint = snapshot.config["configurable"].get("checkpoint_id") if snapshot and snapshot.next else None
            raise TurnFailed(thread_id, node, checkpoint, exc) from exc
        finally:
            self._erase_if_forgotten(thread_id)

    def _erase_if_forgotten(self, thread_id: str) -> None:
        """A turn that ends on a thread `forget` erased while it ran: what it wrote (checkpoints, records, cached
        answer, archived turn) is erased too, and the turn ends with that said (exit 2), its answer unreturned."""
        if not self.memory.is_forgotten(thread_id):
            return
        self._erase_threads([thread_id], thread=thread_id)
        raise BadInput(f"thread {thread_id} was erased (`prov memory forget`) while this turn ran: what the turn "
                       "wrote was erased too")

    def _erase_threads(self, threads: Sequence[str], *, user: str | None = None, thread: str | None = None
                       ) -> dict[str, int]:
        """Erase a user's or a thread's records, cached answers, archived turns and thread ownership, and these
        threads' checkpoints; then rebuild the SQLite files so no deleted row lingers."""
        from app.memory.records import scrub

        done = {"records": self.memory.forget(user=user, thread=thread),
                "cached_answers": self.cache.forget(user=user, thread=thread),
                "archived_turns": self.archive.forget(user=user, thread=thread), "threads": 0}
        for t in threads:
            if self.thread_exists(t):
                self.checkpoint_store.delete_thread(t)
                done["threads"] += 1
        self.memory.forget_threads(user=user, thread=thread)  # their owners, before the files are rebuilt
        for engine in {id(e): e for e in (self.memory.engine, self.cache.engine, self.archive.engine)}.values():
            scrub(engine)
        self.checkpoint_store.scrub()
        return done

    # --- results ---------------------------------------------------------------------------------------------
    @staticmethod
    def pending_question(snapshot: Any) -> str:
        value = snapshot.interrupts[0].value if snapshot.interrupts else None
        return value.get("question", "") if isinstance(value, dict) else str(value or "")

    def result(self, thread_id: str) -> TurnResult:
        snap = self.graph.get_state(self.config(thread_id))
        return self._turn_result(thread_id, snap.values or {}, snap.config["configurable"].get("checkpoint_id"),
                                 self.pending_question(snap) if snap.interrupts else None)

    def _turn_result(self, thread_id: str, values: dict[str, Any], checkpoint_id: str | None,
                     question: str | None = None) -> TurnResult:
        """The turn's result from the thread's state; `question`: the clarification it waits on, if any."""
        if question is not None:
            return TurnResult(thread_id=thread_id, status="clarification", answer=question,
                              question=values.get("question", ""), checkpoint_id=checkpoint_id,
                              clarification=question)
        response = values.get("response")
        if response is None:
            raise RuntimeError(f"thread {thread_id} finished without a response")
        return TurnResult(
            thread_id=thread_id, status=response.status, answer=response.answer, question=response.question,
            checkpoint_id=checkpoint_id, cached=response.cached, flagged=list(response.flagged),
            cached_at=response.cached_at, cached_question=response.cached_question,
            user=values.get("user") or "local",
            citations=[c.model_dump(mode="json", include={"n", "source_id", "title", "page", "quote"})
                       for c in response.citations],
        )

    def close(self) -> None:
        """Close the stores this runtime opened (again is harmless): the checkpoints' connection, the memory
        stores' connection pools."""
        if "checkpoint_store" in self.__dict__:
            self.checkpoint_store.close()
        for name in ("memory", "cache", "archive"):
            engine = getattr(self.__dict__.get(name), "engine", None)
            if engine is not None:
                engine.dispose()
        catalog = getattr(self.__dict__.get("kb"), "catalog", None)
        if catalog is not None:
            catalog.close()

    # --- per-turn trace, diff ---------------------------------------------------------------------------------
    def regenerate(self, thread_id: str, turn: int, *, drop: int | None = None, model: str | None = None
                   ) -> dict[str, Any]:
        """A turn's assembly, generation and citation check run again from its recorded state, with no routing or
        retrieval (graphs/regenerate.py): the state at the checkpoint taken just before assembly, less the item
        of block `drop` when given (an evidence chunk, a news item, the calculation or a memory record), with the
        same synthesizer or one on the large model `model`. Nothing is written: not the thread, not memory, not
        the answer cache. Returns the answer, its status, the blocks it was given and the cited ones."""
        from graphs.regenerate import build_regenerate_graph

        turns = self.turns(thread_id)
        if not 1 <= turn <= len(turns):
            raise BadInput(f"thread {thread_id} has {len(turns)} turn(s); --turn {turn} is not one of them")
        record = turns[turn - 1]
        by_id = {s.config["configurable"]["checkpoint_id"]: s
                 for s in self.graph.get_state_history(self.config(thread_id))}
        snap = by_id.get(record["checkpoint_id"] or "")
        end_blocks = list(((snap.values or {}).get("blocks") or [])) if snap is not None else []
        while snap is not None and tuple(snap.next) != ("assemble",):
            if tuple(snap.next) == ("intake",):
                snap = None
                break
            parent = snap.parent_config
            snap = by_id.get(parent["configurable"]["checkpoint_id"]) if parent else None
        if snap is None:
            raise BadInput(f"turn {turn} of thread {thread_id} assembled no prompt ({record['status']}: "
                           "refused, asked back, or answered from memory or the cache); nothing to regenerate")
        values = dict(snap.values or {})
        if drop is not None:
            block = next((b for b in end_blocks if b.n == drop), None)
            if block is None:
                raise BadInput(f"turn {turn} has no block [{drop}]; its blocks are "
                               f"{', '.join(f'[{b.n}]' for b in end_blocks) or 'none'}")
            values = without_block(values, block)
        deps = self.deps()
        if model:
            from app.models import get_models

            deps.models = get_models(self.settings.model_copy(update={"large_model": model}))
        calls: list[dict[str, Any]] = []
        deps.models = dataclasses.replace(deps.models, synthesizer=_LoggedSynthesizer(
            deps.models.synthesizer, calls, {"thread": thread_id, "turn": turn, "dropped": drop}))
        out = build_regenerate_graph(deps).compile().invoke(values)
        log = self.settings.regenerate_log_path
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("a", encoding="utf-8") as handle:  # appended whole lines: an earlier log is never rewritten
            handle.writelines(json.dumps(call) + "\n" for call in calls)
        blocks = list(out.get("blocks") or [])
        cited = sorted({int(n) for n in re.findall(r"\[(\d+)\]", out.get("draft") or "")})
        return {"thread": thread_id, "turn": turn, "dropped": drop, "model": getattr(deps.models.synthesizer,
                                                                                       "label", model or ""),
                "status": out.get("status"), "answer": out.get("draft") or "",
                "original": {"status": record["status"], "answer": record["answer"]},
                "blocks": [{"n": b.n, "kind": b.kind, "source_id": b.source_id, "header": b.header}
                           for b in blocks], "cited": cited,
                "block_texts": {b.n: f"{b.header}\n{b.text}" for b in blocks},
                "calls": calls, "log": str(log)}

    def turns(self, thread_id: str) -> list[dict[str, Any]]:
        """Every turn of the thread's current line of checkpoints (forks replace what they replayed), oldest
        first: question, route, retrieval funnel, manifest, memory (admitted, refused, written), cache and
        citations, each read from the checkpoint its turn ended at."""
        latest = self.require_thread(thread_id)
        # One read of the thread's checkpoints, then the current line followed back through the parents.
        by_id = {s.config["configurable"]["checkpoint_id"]: s
                 for s in self.graph.get_state_history(self.config(thread_id))}
        finished: list[Any] = [latest] if latest.interrupts else []
        snap = by_id.get(latest.config["configurable"]["checkpoint_id"])
        while snap is not None:
            if not snap.next and (snap.values or {}).get("response") is not None:
                finished.append(snap)
            parent = snap.parent_config
            snap = by_id.get(parent["configurable"]["checkpoint_id"]) if parent else None
        return [turn_record(n, s) for n, s in enumerate(reversed(finished), start=1)]

    def diff(self, thread_a: str, thread_b: str) -> list[dict[str, Any]]:
        """Two runs of the same questions compared turn by turn: route flags, funnel counts, manifest blocks
        and citations; each turn lists what differs (empty when nothing does)."""
        a, b = self.turns(thread_a), self.turns(thread_b)
        rows = []
        for n in range(max(len(a), len(b))):
            ta, tb = (a[n] if n < len(a) else None), (b[n] if n < len(b) else None)
            rows.append({"turn": n + 1, "question": [t["question"] if t else None for t in (ta, tb)],
                         "differences": turn_differences(ta, tb)})
        return rows

    # --- memory ----------------------------------------------------------------------------------------------
    def memory_records(self, user: str | None = None, thread: str | None = None,
                       include_all: bool = False) -> list[dict[str, Any]]:
        return [record_row(r) for r in self.memory.list_records(user, thread, include_all)]

    def forget(self, user: str | None = None, thread: str | None = None) -> dict[str, int]:
        """Erase a user's (or one thread's) data: memory records, cached answers, archived turns and every
        checkpoint of their threads; then rebuild the SQLite files so no deleted row lingers in free pages or
        in a write-ahead log. The threads are marked erased first, so that a turn still running on one erases
        its own writes when it ends."""
        if (user is None) == (thread is None):
            raise BadInput("give exactly one of --user U or --thread T")
        if thread is not None and not self.thread_exists(thread) and self.memory.owner(thread) is None:
            raise BadInput(f"unknown thread {thread!r}: `prov threads` lists the threads")
        threads = [thread] if thread is not None else self.memory.threads_of(user)  # type: ignore[arg-type]
        # marked first: a turn still running on one of them erases its own writes when it ends (_invoke)
        self.memory.mark_forgotten(threads)
        return self._erase_threads(threads, user=user, thread=thread)


def record_row(record: Any) -> dict[str, Any]:
    """A memory record as `prov memory list` shows it."""
    return {"id": record.id, "key": record.key, "value": record.value, "type": record.type, "status": record.status,
            "scope": record.scope, "user": record.user, "source": record.source,
            "created_at": record.created_at.isoformat(timespec="seconds"), "supersedes": record.supersedes,
            "expires_at": record.expires_at.isoformat(timespec="seconds") if record.expires_at else None}


FLAGS = ("is_out_of_scope", "needs_retrieval", "needs_news", "needs_clarification", "needs_calculation")


def without_block(values: dict[str, Any], block: Any) -> dict[str, Any]:
    """A turn's state before assembly less what became one block of its prompt: the evidence chunk or news item
    it quoted (and the facts read from it), the calculation, or the memory record (no longer admitted)."""
    out = dict(values)
    if block.kind == "calculation":
        out["calculation"] = None
        return out
    if block.kind == "memory":
        record = block.source_id.removeprefix("memory:")
        out["memory"] = [m.model_copy(update={"admitted": False, "rule": "left out to measure its contribution"})
                         if m.id == record else m for m in values.get("memory") or []]
        return out
    chunk = block.chunk_id
    result = values.get("retrieval_result")
    if result is not None:
        out["retrieval_result"] = result.model_copy(update={"evidence": [e for e in result.evidence
                                                                         if e.chunk_id != chunk]})
    out["news"] = [e for e in values.get("news") or [] if e.chunk_id != chunk]
    out["facts"] = [f for f in values.get("facts") or [] if f.chunk_id != chunk]
    return out


def turn_record(n: int, snap: Any) -> dict[str, Any]:
    """One turn of `prov trace`, from the checkpoint it ended at."""
    values = snap.values or {}
    decision = values.get("decision")
    result = values.get("retrieval_result")
    response = values.get("response")
    memory = values.get("memory") or []
    writes = values.get("memory_writes") or []
    status = "clarification" if snap.interrupts else (response.status if response is not None else None)
    return {
        "turn": n, "checkpoint_id": snap.config["configurable"].get("checkpoint_id"),
        "question": values.get("asked") or values.get("question"), "standalone_question": values.get("question"),
        "status": status, "answer": response.answer if response is not None else None,
        "route": ({**{f: bool(getattr(decision, f)) for f in FLAGS}, "plan": decision.plan.model_dump(mode="json")}
                  if decision is not None else None),
        "funnel": ({"status": result.status, "attempts": result.attempts, "queries": result.queries,
                    "evidence": len(result.evidence), "claims": len(result.claims),
                    "dropped_claims": len(result.dropped_claims), "fetched": len(result.fetched),
                    "found": result.found, "absent": result.absent} if result is not None else None),
        "manifest": [{"block": m.block, "role": m.role, "producer": m.producer, "rule": m.rule, "tokens": m.tokens,
                      "included": m.included, "items": m.items, "note": m.note} for m in values.get("manifest") or []],
        "prompt_tokens": sum(m.tokens for m in values.get("manifest") or [] if m.included),
        "memory": {
            "admitted": [m.model_dump(mode="json") for m in memory if m.admitted],
            "refused": [m.model_dump(mode="json") for m in memory if not m.admitted],
            "written": [w.model_dump(mode="json") for w in writes if w.kept],
            "not_written": [{"text": w.text, "rule": w.rule} for w in writes if not w.kept],
        },
        "cache": {"hit": bool(response is not None and response.cached),
                  "cached_at": response.cached_at if response is not None else None,
                  "considered": values.get("cache_considered") or []},
        "citations": [c.model_dump(mode="json", include={"n", "source_id", "title", "page", "quote"})
                      for c in (response.citations if response is not None else [])],
    }


def turn_differences(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any]:
    """What differs between two turns: {field: [a's, b's]} over route flags, funnel counts, manifest blocks
    and citations; a missing turn differs in everything."""
    if a is None or b is None:
        return {"turn": ["present" if a else "missing", "present" if b else "missing"]}
    out: dict[str, Any] = {}
    ra, rb = a["route"] or {}, b["route"] or {}
    for flag in FLAGS:
        if ra.get(flag) != rb.get(flag):
            out[f"route.{flag}"] = [ra.get(flag), rb.get(flag)]
    fa, fb = a["funnel"] or {}, b["funnel"] or {}
    for key in ("status", "attempts", "evidence", "claims", "dropped_claims", "fetched"):
        if fa.get(key) != fb.get(key):
            out[f"funnel.{key}"] = [fa.get(key), fb.get(key)]
    blocks_a = [(m["block"], m["producer"], m["included"]) for m in a["manifest"]]
    blocks_b = [(m["block"], m["producer"], m["included"]) for m in b["manifest"]]
    if blocks_a != blocks_b:
        out["manifest.blocks"] = [[x[0] for x in blocks_a if x not in blocks_b],
                                  [x[0] for x in blocks_b if x not in blocks_a]]
    if a["prompt_tokens"] != b["prompt_tokens"]:
        out["manifest.tokens"] = [a["prompt_tokens"], b["prompt_tokens"]]
    cites_a = [(c["source_id"], c.get("page")) for c in a["citations"]]
    cites_b = [(c["source_id"], c.get("page")) for c in b["citations"]]
    if cites_a != cites_b:
        out["citations"] = [cites_a, cites_b]
    if a["status"] != b["status"]:
        out["status"] = [a["status"], b["status"]]
    return out


def _memory_answer(question: str, store: Any, *, user: str, thread: str | None) -> Any:
    """Answers about what the user told Prov, from their records (app/memory/answers.py)."""
    from app.memory.answers import answer_from_memory

    return answer_from_memory(question, store, user=user, thread=thread)
