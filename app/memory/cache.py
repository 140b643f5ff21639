"""The answer cache: a finished answer, keyed by the standalone question and the corpus version.

Lookup is by the normalised standalone question (case, spacing and punctuation folded), and an entry counts
only while the knowledge base is at the generation it was written under: any ingest that changes a source
bumps the generation and so invalidates every older entry. (Semantic matching of paraphrases comes with the
memory issue.) Stored in SQLite through SQLAlchemy, next to the other stores under PROV_HOME.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import Column, Integer, MetaData, String, Table, Text, select
from sqlalchemy.dialects.sqlite import insert

from app.knowledge.catalog import make_engine

_meta = MetaData()
answers = Table(
    "answers", _meta,
    Column("key", String, primary_key=True),
    Column("question", Text, nullable=False),
    Column("generation", Integer, nullable=False),
    Column("response", Text, nullable=False),
    Column("companies", Text, nullable=False, default="[]"),
    Column("sources", Text, nullable=False, default="[]"),
    Column("created_at", String, nullable=False),
)


def normalise_question(question: str) -> str:
    words = re.findall(r"[\w£$€%.]+", question.casefold())
    return " ".join(w.strip(".") for w in words if w.strip("."))


class AnswerCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.engine = make_engine(path, _meta)

    def get(self, question: str, generation: int) -> dict[str, Any] | None:
        key = normalise_question(question)
        if not key:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(answers).where(answers.c.key == key)).mappings().first()
        if row is None or row["generation"] != generation:
            return None
        return json.loads(row["response"])

    def put(self, question: str, generation: int, response: dict[str, Any], companies: list[str],
            sources: list[str]) -> None:
        key = normalise_question(question)
        if not key:
            return
        values = {
            "key": key, "question": question, "generation": generation, "response": json.dumps(response),
            "companies": json.dumps(companies), "sources": json.dumps(sources),
            "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        stmt = insert(answers).values(**values)
        stmt = stmt.on_conflict_do_update(index_elements=["key"], set_={k: v for k, v in values.items() if k != "key"})
        with self.engine.begin() as conn:
            conn.execute(stmt)

    def count(self) -> int:
        with self.engine.connect() as conn:
            return len(conn.execute(select(answers.c.key)).all())
