"""Errors the CLI turns into one line and an exit code of their own, wherever they are raised.

- `BadInput` (exit 2): a user error caught before anything was written (an empty question, an unknown thread, a
  malformed --year or PROV_CHECKPOINT_URL); the message says what to give instead.
- `ServerUnreachable` (exit 1): a configured server (PostgreSQL, Chroma, an embedding server) did not answer
  within PROV_CONNECT_TIMEOUT_S; the message names the URL, its password hidden.
- `not_plain_text`, `shown`: why a question, query or name is no plain text (a control or bidi character,
  bytes that were not UTF-8), and how much of a bad input a message prints.
- `CorruptFile` (exit 2): a file under PROV_HOME is damaged or truncated; the message names the file and what to
  do. Prov never overwrites or deletes such a file itself: the user may still recover it.
"""

from __future__ import annotations

import unicodedata
from contextlib import closing
from pathlib import Path


class BadInput(ValueError):
    """A user error: the CLI prints it and exits 2; nothing was changed."""


class ServerUnreachable(RuntimeError):
    """A configured server did not answer."""


class CorruptFile(RuntimeError):
    """A store under PROV_HOME cannot be read."""

    def __init__(self, path: Path | str, problem: str, remedy: str) -> None:
        self.path, self.problem, self.remedy = Path(path), problem, remedy
        super().__init__(f"{path} is {problem}: {remedy}")


SQLITE_MAGIC = b"SQLite format 3\x00"


def sqlite_problem(path: Path) -> str | None:
    """What is wrong with a SQLite file at a glance (its header and its size), or None: O(1), so it runs on every
    open. An empty file is fine (SQLite starts one); a file too short for its header, without SQLite's magic
    string, or shorter than the page count its header states is damaged or truncated."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    if size == 0:
        # SQLite starts an empty file; but a file another store refers to was in use: emptied, not new
        witness = _referred_to_by(path)
        return (f"an empty file (0 bytes) though {witness}: it was in use and has been emptied" if witness
                else None)
    header = read_header(path)
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        return "not a SQLite database (damaged or overwritten)"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid_for = int.from_bytes(header[92:96], "big")
    change_counter = int.from_bytes(header[24:28], "big")
    if page_size < 512 or page_size & (page_size - 1):
        return "a damaged SQLite database (its header is invalid)"
    if pages and valid_for == change_counter and size < pages * page_size and not has_log(path):
        return f"a truncated SQLite database ({size} bytes; its header says {pages * page_size})"
    return None


_HEADER_FDS: dict[tuple[int, int], int] = {}
"""A read-only descriptor per store file (device, inode) whose header this process has read: kept open until the
process ends, never closed."""


def read_header(path: Path) -> bytes:
    """The first 100 bytes of a SQLite file, read through a descriptor this process keeps open for good.

    Closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's included (SQLite's
    'How To Corrupt' §2.2). A Prov process that read a store's header with open()/close() while it held a
    connection to that store lost its shared lock on it; another process closing its own connection then took
    itself for the last one, checkpointed and deleted the write-ahead log the first was still writing to, and the
    store was left truncated and malformed. One descriptor per file, never closed, reads it safely."""
    import os

    info = os.stat(path)
    fd = _HEADER_FDS.get((info.st_dev, info.st_ino))
    if fd is None:
        fd = os.open(path, os.O_RDONLY)
        opened = os.fstat(fd)  # the file as opened (replaced since the stat, it is another inode)
        _HEADER_FDS[(opened.st_dev, opened.st_ino)] = fd
    return os.pread(fd, 100, 0)


STORE_FILES = ("catalog.sqlite", "checkpoints.sqlite", "memory.sqlite", "chroma/chroma.sqlite3")
"""The SQLite stores of a home, relative to it."""


def _home_of(store: Path) -> Path:
    """The home a store file lies in (the embedded chroma's one folder down)."""
    return store.parent.parent if store.parent.name == "chroma" else store.parent


_REFERENCES = {
    "checkpoints.sqlite": ("memory.sqlite", "thread_owners", "the memory store owns threads whose checkpoints it held"),
    "memory.sqlite": ("checkpoints.sqlite", "checkpoints", "the checkpoints hold threads whose owners it held"),
    "catalog.sqlite": ("chroma/chroma.sqlite3", "embeddings", "the vector store holds chunks it catalogued"),
    "chroma.sqlite3": ("catalog.sqlite", "sources", "the catalog holds sources whose vectors it held"),
}
"""For each store, the store whose rows prove it was written: each is set up before the other's rows can exist
(a run sets up the checkpoints before it owns a thread, an ingest writes vectors before the catalog switches a
source over), so a new file is never taken for an emptied one, even while processes start at once."""


def _referred_to_by(path: Path) -> str | None:
    """What shows an empty store was in use: the store that refers to it, holding rows (see _REFERENCES)."""
    import sqlite3

    found = _REFERENCES.get(path.name)
    if found is None:
        return None
    name, table, says = found
    other = _home_of(path) / name
    if _size(other) == 0:
        return None
    try:
        with closing(sqlite3.connect(f"file:{other}?mode=ro", uri=True, timeout=5)) as conn:
            held = conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() is not None  # noqa: S608 (ours)
    except sqlite3.Error:
        return None
    return says if held else None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def quick_check_problem(path: Path) -> str | None:
    """What SQLite's `PRAGMA quick_check` finds wrong with a store (opened read-only: nothing is written into it),
    or None; None for a file that is missing or empty."""
    import sqlite3

    if _size(path) == 0:
        return None
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)) as conn:  # closed: no lock left
            rows = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            return None  # another process holds it: not damage
        if "readonly" in str(exc).replace(" ", "").replace("-", ""):
            return None  # a write-ahead log a killed process left, which a read-only check may not replay: not damage
        return f"damaged (SQLite: {exc})"
    except sqlite3.DatabaseError as exc:
        return f"damaged (SQLite: {exc})"
    said = " ".join("; ".join(str(r) for r in rows[:2]).split())  # one line: its report spans several
    return None if rows == ["ok"] else f"damaged (SQLite's quick_check: {said})"


def damaged_stores(home: Path) -> list[tuple[Path, str]]:
    """Each store of a home that SQLite itself finds damaged (`PRAGMA quick_check`, opened read-only so that
    nothing is written into it), with what it said: how a DatabaseError met mid-command is reported."""
    out = []
    for path in (home / name for name in STORE_FILES):
        if not path.exists():
            continue
        problem = sqlite_problem(path) or quick_check_problem(path)
        if problem:
            out.append((path, problem))
    return out


def has_log(path: Path) -> bool:
    """Whether a write-ahead log or a rollback journal lies beside the database: SQLite completes (or undoes) from
    it what a killed checkpoint or transaction left half-written, so the file's size proves nothing then."""
    for suffix in ("-wal", "-journal"):
        try:
            if path.with_name(path.name + suffix).stat().st_size > 0:
                return True
        except FileNotFoundError:
            continue
    return False


def check_sqlite(path: Path, what: str, remedy: str) -> None:
    """Raise CorruptFile when `path` (a SQLite file holding `what`) is damaged: at a glance (`sqlite_problem`),
    else by SQLite's own `PRAGMA quick_check`, so that a store overwritten in the middle is named before anything
    is written into it. quick_check reads the whole file (about 0.1 s per 100 MB with the file in the page cache,
    6 s for a 1 GB checkpoint file read from disk), so a file whose stamp is the one recorded when it last
    passed, or when a Prov process that had checked it last closed it, is not read again (`VerifiedStamps`)."""
    problem = sqlite_problem(path)
    if problem is None and not VERIFIED.unchanged(path):
        problem = quick_check_problem(path)
        if problem is None:
            VERIFIED.record(path)
    if problem:
        raise CorruptFile(path, f"{problem}; it holds {what}", remedy)
    VERIFIED.keep_at_exit(path)


class VerifiedStamps:
    """The stamp of each store as it was when it last passed `PRAGMA quick_check` (or was closed by a Prov process
    that had checked it): its size, modification and change times, inode and device, and its write-ahead log's.
    Every write changes them, and a change time cannot be set back, so a file overwritten since (a disk tool, a
    copy, a bad sector rewritten) no longer matches and is checked again. What a process writes itself goes
    through SQLite and is taken on trust: at exit, the stores it checked are recorded as they are then. So damage
    another program does to a store while a Prov process has it open is recorded as clean, and found only when
    SQLite reads the damaged page (the DatabaseError path, `damaged_stores`) or when the file is next changed
    while no Prov process has it open.
    Recorded in `.prov-verified.json` beside the stores, replaced atomically; a record that cannot be read or
    written only means the next open checks again."""

    FILE = ".prov-verified.json"

    def __init__(self) -> None:
        import atexit

        self._kept: set[Path] = set()
        # registered first, so it runs last: after the CLI has closed its stores (app/cli._runtime), when
        # SQLite has folded each write-ahead log into its file
        atexit.register(self._at_exit)

    @staticmethod
    def stamp(path: Path) -> list[int] | None:
        out: list[int] = []
        for part in (path, path.with_name(path.name + "-wal")):
            try:
                st = part.stat()
            except FileNotFoundError:
                out += [-1]
                continue
            except OSError:
                return None
            out += [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]
        return out

    def _read(self, folder: Path) -> dict[str, list[int]]:
        import json

        try:
            data = json.loads((folder / self.FILE).read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def unchanged(self, path: Path) -> bool:
        stamp = self.stamp(path)
        return stamp is not None and self._read(path.parent).get(path.name) == stamp

    def record(self, path: Path) -> None:
        import json
        import os

        stamp = self.stamp(path)
        if stamp is None:
            return
        data = self._read(path.parent)
        data[path.name] = stamp
        tmp = path.parent / f"{self.FILE}.{os.getpid()}.tmp"
        try:
            tmp.write_text(json.dumps(data, sort_keys=True))
            os.replace(tmp, path.parent / self.FILE)
        except OSError:
            tmp.unlink(missing_ok=True)

    def keep_at_exit(self, path: Path) -> None:
        """Record the store's stamp when this process ends (its own writes are SQLite's, taken on trust)."""
        self._kept.add(path)

    def _at_exit(self) -> None:
        for path in sorted(self._kept):
            if path.exists() and not self.unchanged(path) and sqlite_problem(path) is None:
                self.record(path)


VERIFIED = VerifiedStamps()


def not_plain_text(text: str) -> str | None:
    """Why `text` is not plain text, or None: a control character (a terminal escape, a bell, a NUL), a
    bidirectional control (BIDI_CONTROLS), or bytes that were not UTF-8 (Python hands them over as lone
    surrogates)."""
    for i, ch in enumerate(text):
        category = unicodedata.category(ch)
        if category == "Cs":
            return f"is not UTF-8 text (undecodable bytes at character {i + 1})"
        if category == "Cc":
            return f"contains a control character (U+{ord(ch):04X} at character {i + 1})"
        if ch in BIDI_CONTROLS:
            return (f"contains a bidirectional control character (U+{ord(ch):04X} at character {i + 1}), which "
                    "would print it back in another order")
    return None


BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder how text prints (U+202E right-to-left override …): a question or a name never needs
them, and echoing one back would show the user something other than what was stored."""
MAX_USER_CHARS = 128
SHOWN_CHARS = 80
"""How much of a bad input an error message shows."""


def shown(text: str) -> str:
    """A bad input as an error may print it: at most SHOWN_CHARS characters, escaped, its length said when cut."""
    cut = text[:SHOWN_CHARS]
    return repr(cut) + (f" … ({len(text)} characters)" if len(text) > SHOWN_CHARS else "")
