"""What a turn of a thread keeps: the numbered blocks of its prompt (`Block`), the memory records it read
(`MemoryItem`) and wrote (`MemoryWrite`), its prompt manifest (`ManifestEntry`), what citation validation found
(`CitationCheck`), its answer with citations (`Response`, `Citation`), and the finished turn as later turns see
it (`Turn`); `as_said`, a memory record's key as the user wrote it.

Plain pydantic models shared by the supervisor graph (nodes/, graphs/) and the app (the runtime, the turn
archive, the offline composer), so that neither imports the other for them. The supervisor's state
(nodes/state.py) re-exports them.

CHECKPOINT_TYPES: the (module, class) pairs the checkpointer's serializer allows for these models. Checkpoints
name the module a class was defined in when they were written: nodes.state until these models moved here,
app.turns now. nodes.state still exports the names, so both paths stay allowed and old threads still load.
"""

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

Status = Literal["answered", "clarification", "refused", "insufficient", "noted"]
"""noted: the turn only stated something (a preference, a correction), which memory kept."""


class Citation(BaseModel):
    n: int
    source_id: str
    title: str = ""
    page: int | None = None
    quote: str = ""
    chunk_id: str | None = None
    published_at: str | None = None


class Turn(BaseModel):
    """One finished turn of a thread, as later turns see it."""

    asked: str
    question: str = Field(description="The standalone question the turn answered (after enrichment).")
    answer: str
    status: Status
    companies: list[str] = Field(default_factory=list)
    fiscal_years: list[int] = Field(default_factory=list)
    memory_ids: list[str] = Field(default_factory=list, description="Memory records the turn wrote, or whose "
                                  "facts its answer used: once one is superseded, the turn's words are not repeated.")


class Block(BaseModel):
    """A numbered block of the prompt that an answer may cite: evidence, news or a calculation."""

    n: int
    kind: Literal["report", "news", "calculation", "memory"]
    header: str
    text: str
    source_id: str
    chunk_id: str | None = None
    title: str = ""
    page: int | None = None
    company: str | None = None
    fiscal_year: int | None = None
    published_at: str | None = None
    tokens: int = 0


def blocks_by_chunk(blocks: Sequence[Block]) -> dict[str, Block]:
    """Blocks by the chunk they quote; a user's statement by its record ('memory:<id>'), which is how a
    calculation input the user gave names where it came from."""
    return {b.chunk_id or b.source_id: b for b in blocks if b.chunk_id or b.kind == "memory"}


class MemoryItem(BaseModel):
    """One record as a turn saw it: admitted to the prompt, or read and left out, and why."""

    id: str
    type: str
    key: str
    value: str
    said: str = ""
    scope: str
    status: str
    source: str
    created_at: str
    supersedes: str | None = None
    score: float = 0.0
    tokens: int = 0
    admitted: bool = False
    rule: str = ""


def as_said(key: str, said: str) -> str:
    """The key as the user wrote it ('Ternline's FY2024 revenue'), found in their statement; else the key."""
    at = said.casefold().find(key)
    return said[at:at + len(key)] if at >= 0 else key


class MemoryWrite(BaseModel):
    """What the write policy did with one sentence the user wrote: the record written, or the rule that refused it."""

    text: str
    kept: bool
    rule: str = ""
    record_id: str | None = None
    type: str | None = None
    key: str = ""
    value: str = ""
    supersedes: str | None = None


class ManifestEntry(BaseModel):
    """One block of the assembled prompt: what it is, who produced it, why it was selected, what it cost."""

    block: str
    role: Literal["system", "user"]
    producer: str
    rule: str
    tokens: int
    included: bool = True
    items: list[str] = Field(default_factory=list, description="Ids of what the block holds (chunks, turns).")
    note: str = ""


class CitationCheck(BaseModel):
    """What citation validation found: which citations stand, which were removed, which claims were flagged."""

    valid: list[int] = Field(default_factory=list)
    removed: list[int] = Field(default_factory=list, description="Cited numbers of no admitted block.")
    flagged: list[str] = Field(default_factory=list, description="Sentences removed: no valid support.")
    fail_closed: bool = False


class Response(BaseModel):
    status: Status
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    question: str = ""
    cached: bool = False
    cached_at: str | None = Field(default=None, description="When a cached answer was first given.")
    cached_question: str | None = Field(default=None, description="The question a cached answer was given to.")
    flagged: list[str] = Field(default_factory=list)


CHECKPOINT_TYPES: tuple[tuple[str, str], ...] = tuple(
    (module, cls) for module in (__name__, "nodes.state")
    for cls in ("Citation", "Turn", "Block", "MemoryItem", "MemoryWrite", "ManifestEntry", "CitationCheck", "Response")
)
