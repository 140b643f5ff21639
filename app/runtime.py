"""The conversation runtime: the supervisor graph compiled once, with the SQLite checkpointer, and the
operations the CLI offers on threads (run, resume, replay, fork, list, trace).

Every guard that protects stored state lives here and raises `BadInput` before anything is written:
an empty or oversized question, an unknown thread, a resume of a thread that is not waiting, a new question
on a thread that is waiting for a clarification reply (LangGraph would silently start a new run), an unknown
checkpoint.
"""

from __future__ import annotations

import sqlite3
import uuid
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from app.settings import Settings


class BadInput(ValueError):
    """A user error: the CLI prints it and exits 2; nothing was changed."""


class TurnFailed(RuntimeError):
    """A step failed (a model server refused a request, a store was unreachable). Every step completed before
    it is checkpointed: the message says where it stopped and how to go on from there."""

    def __init__(self, thread_id: str, node: str, checkpoint_id: str | None, cause: BaseException) -> None:
        self.thread_id, self.node, self.checkpoint_id, self.cause = thread_id, node, checkpoint_id, cause
        where = f"at {node}" if node else "before its first step"
        resume = (f"; the thread keeps every completed step: fix the cause, then "
                  f"`prov replay --thread {thread_id} --checkpoint {checkpoint_id}` goes on from there"
                  if checkpoint_id else "")
        super().__init__(f"the turn on thread {thread_id} failed {where}: {type(cause).__name__}: {cause}{resume}")


def checkpoint_types() -> list[tuple[str, str]]:
    """Every pydantic type the supervisor and its subgraphs keep in checkpoints (for the serializer)."""
    from app.calc_tools import CHECKPOINT_TYPES as CALC
    from nodes.retrieval_state import CHECKPOINT_TYPES as RETRIEVAL
    from nodes.state import CHECKPOINT_TYPES as STATE

    routing = [("app.routing.decision", "RouteDecision"), ("app.routing.decision", "RoutePlan")]
    return [*CALC, *RETRIEVAL, *STATE, *routing]


def open_checkpointer(path: Any) -> Any:
    """LangGraph's SqliteSaver on a file (WAL), with our pydantic types registered with its serializer."""
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
    from langgraph.checkpoint.sqlite import SqliteSaver

    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA busy_timeout=10000")
    saver = SqliteSaver(conn, serde=JsonPlusSerializer(allowed_msgpack_modules=checkpoint_types()))
    saver.setup()
    return saver


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

    def as_json(self) -> dict[str, Any]:
        return {
            "thread_id": self.thread_id, "status": self.status, "answer": self.answer,
            "citations": self.citations, "question": self.question, "checkpoint_id": self.checkpoint_id,
            "cached": self.cached, "flagged": self.flagged,
        }


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
    def saver(self) -> Any:
        return open_checkpointer(self.settings.checkpoint_path)

    @cached_property
    def cache(self) -> Any:
        from app.memory.cache import AnswerCache

        return AnswerCache(self.settings.cache_path)

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
            count_tokens=count_tokens, known_companies=self.known_companies, periods_fn=self.fiscal_years_held,
            known_years=self.kb.catalog.fiscal_years, company_aliases=self.kb.catalog.company_aliases,
            cache=self.cache if s.answer_cache else None,
            generation=self.kb.catalog.generation,
            budget_tokens=s.context_budget_tokens, max_question_chars=s.max_question_chars,
            verbatim_turns=s.history_turns_verbatim, news_limit=s.news_limit,
        )

    def known_companies(self) -> list[str]:
        return self.kb.catalog.companies()

    def fiscal_years_held(self, company: str) -> list[int]:
        return sorted({year for year, *_ in self.kb.catalog.periods(company) if year})

    def search_reports(self, query: str, company: str | None, fiscal_year: int | None, k: int) -> list[Any]:
        from app.knowledge.base import Filters
        from nodes.retrieval_state import evidence_from_hit

        filters = Filters(company=company, fiscal_year=fiscal_year, doc_type="report")
        return [evidence_from_hit(h) for h in self.kb.search(query, k=k, filters=filters).hits]

    def page_chunks(self, source_id: str, page: int) -> list[Any]:
        """The chunks of one page, as evidence: a statement page's other rows, when search found one of them."""
        from nodes.retrieval_state import Evidence

        return [Evidence.model_validate({**row, "is_table": bool(row["is_table"])})
                for row in self.kb.catalog.page_chunks(source_id, page)]

    def search_news(self, query: str, company: str | None, k: int) -> list[Any]:
        from app.knowledge.base import Filters
        from nodes.retrieval_state import evidence_from_hit

        filters = Filters(company=company, doc_type="news")
        return [evidence_from_hit(h) for h in self.kb.search(query, k=k, filters=filters).hits]

    # --- guards ----------------------------------------------------------------------------------------------
    def check_question(self, question: str) -> str:
        text = " ".join((question or "").split())
        if not text:
            raise BadInput("the question is empty")
        if len(text) > self.settings.max_question_chars:
            raise BadInput(f"the question has {len(text)} characters; the limit is {self.settings.max_question_chars} "
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

    def require_thread(self, thread_id: str) -> Any:
        if not thread_id or not self.thread_exists(thread_id):
            raise BadInput(f"unknown thread {thread_id!r}: `prov threads` lists the threads")
        return self.graph.get_state(self.config(thread_id))

    @staticmethod
    def is_waiting(snapshot: Any) -> bool:
        return bool(snapshot.interrupts)

    # --- operations ------------------------------------------------------------------------------------------
    def run(self, question: str, thread_id: str | None = None) -> TurnResult:
        text = self.check_question(question)
        if thread_id:
            snapshot = self.require_thread(thread_id)
            if self.is_waiting(snapshot):
                raise BadInput(f"thread {thread_id} is waiting for a clarification reply "
                               f"({self.pending_question(snapshot)!r}): answer it with "
                               f"`prov resume --thread {thread_id} REPLY`")
        else:
            thread_id = "t-" + uuid.uuid4().hex[:10]
        self._invoke({"question": text}, self.config(thread_id), thread_id)
        return self.result(thread_id)

    def resume(self, thread_id: str, reply: str) -> TurnResult:
        from langgraph.types import Command

        snapshot = self.require_thread(thread_id)
        if not self.is_waiting(snapshot):
            raise BadInput(f"thread {thread_id} is not waiting for a reply; ask a new question with "
                           f"`prov run --thread {thread_id} QUESTION`")
        text = " ".join((reply or "").split())
        if not text:
            raise BadInput("the reply is empty")
        if len(text) > self.settings.max_question_chars:
            raise BadInput(f"the reply has {len(text)} characters; the limit is {self.settings.max_question_chars}")
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
            wrote = "input" if source == "input" else ("fork" if source in ("fork", "update") else
                                                        ",".join(previous_next) or "-")
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
        rows = self.saver.conn.execute(
            "SELECT thread_id, COUNT(*) FROM checkpoints WHERE checkpoint_ns = '' GROUP BY thread_id").fetchall()
        out = []
        for thread_id, count in rows:
            snap = self.graph.get_state(self.config(thread_id))
            values = snap.values or {}
            history = values.get("history") or []
            out.append({
                "thread_id": thread_id, "checkpoints": count, "turns": len(history),
                "status": "clarification" if snap.interrupts else (history[-1].status if history else "-"),
                "last_question": values.get("asked") or values.get("question") or "",
                "updated_at": snap.created_at,
            })
        return sorted(out, key=lambda r: r["updated_at"] or "", reverse=True)

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
        try:
            graph.invoke(payload, config)
        except (KeyboardInterrupt, BadInput):
            raise
        except Exception as exc:
            snapshot = graph.get_state(self.config(thread_id))
            node = ",".join(snapshot.next) if snapshot and snapshot.next else ""
            checkpoint = snapshot.config["configurable"].get("checkpoint_id") if snapshot and snapshot.next else None
            raise TurnFailed(thread_id, node, checkpoint, exc) from exc

    # --- results ---------------------------------------------------------------------------------------------
    @staticmethod
    def pending_question(snapshot: Any) -> str:
        value = snapshot.interrupts[0].value if snapshot.interrupts else None
        return value.get("question", "") if isinstance(value, dict) else str(value or "")

    def result(self, thread_id: str) -> TurnResult:
        snap = self.graph.get_state(self.config(thread_id))
        checkpoint_id = snap.config["configurable"].get("checkpoint_id")
        values = snap.values or {}
        if snap.interrupts:
            question = self.pending_question(snap)
            return TurnResult(thread_id=thread_id, status="clarification", answer=question,
                              question=values.get("question", ""), checkpoint_id=checkpoint_id,
                              clarification=question)
        response = values.get("response")
        if response is None:
            raise RuntimeError(f"thread {thread_id} finished without a response")
        return TurnResult(
            thread_id=thread_id, status=response.status, answer=response.answer, question=response.question,
            checkpoint_id=checkpoint_id, cached=response.cached, flagged=list(response.flagged),
            citations=[c.model_dump(mode="json", include={"n", "source_id", "title", "page", "quote"})
                       for c in response.citations],
        )

    def close(self) -> None:
        if "saver" in self.__dict__:
            self.saver.conn.close()
