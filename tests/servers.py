"""Throwaway servers on loopback for the tests and benchmarks: PostgreSQL (Debian's `postgresql` package) and the
Chroma server that the chromadb package runs (`chroma run`).

`scripts/services.sh` starts both for `.ci/run` and exports their URLs (PROV_TEST_POSTGRES_URL,
PROV_TEST_CHROMA_URL); the test fixtures use those when set, and otherwise start their own here. PostgreSQL's
`initdb` refuses to run as root, so as root the server runs as the `postgres` user (`runuser`) on a data folder
that user owns.

Run as a script: `python -m tests.servers start DIR` prints `export …` lines; `python -m tests.servers stop DIR`.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

PG_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def stop_process(proc: subprocess.Popen, timeout: float = 20) -> None:  # type: ignore[type-arg]
    """Terminate a server process, killing it when it does not stop within `timeout`."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=timeout)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_tool(name: str) -> str | None:
    for d in PG_BIN_DIRS:
        if (d / name).is_file():
            return str(d / name)
    return shutil.which(name)


def postgres_available() -> bool:
    return all(pg_tool(t) for t in ("initdb", "pg_ctl"))


def _as_postgres_user(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@dataclass
class Postgres:
    data: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql://prov@127.0.0.1:{self.port}/prov"

    @property
    def sqlalchemy_url(self) -> str:
        return f"postgresql+psycopg://prov@127.0.0.1:{self.port}/prov"

    def stop(self) -> None:
        subprocess.run(_as_postgres_user([pg_tool("pg_ctl") or "pg_ctl", "-D", str(self.data), "-m", "immediate",
                                          "stop"]), capture_output=True, timeout=60)


def start_postgres(root: Path, port: int | None = None) -> Postgres:
    """initdb a fresh cluster under `root` (trust auth, loopback only) and start it; database and role `prov`."""
    if not postgres_available():
        raise RuntimeError("PostgreSQL's initdb/pg_ctl are not installed (Debian: apt-get install postgresql)")
    root.mkdir(parents=True, exist_ok=True)
    data = root / "pgdata"
    port = port or free_port()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        root.chmod(0o755)
        for parent in root.parents:  # the postgres user must be able to reach the folder
            if parent == Path("/"):
                break
            if not os.access(parent, os.X_OK) or (parent.stat().st_mode & 0o001) == 0:
                parent.chmod(parent.stat().st_mode | 0o001)
    subprocess.run(_as_postgres_user([pg_tool("initdb"), "-D", str(data), "-U", "prov", "--auth=trust",
                                      "-E", "UTF8", "--locale=C"]), check=True, capture_output=True, timeout=120)
    with open(data / "postgresql.conf", "a") as conf:
        conf.write(f"\nlisten_addresses = '127.0.0.1'\nport = {port}\nunix_socket_directories = '{root}'\n"
                   "max_connections = 200\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\n")
    subprocess.run(_as_postgres_user([pg_tool("pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-w",
                                      "-t", "60", "start"]), check=True, capture_output=True, timeout=90)
    subprocess.run(_as_postgres_user([pg_tool("createdb") or "createdb", "-h", "127.0.0.1", "-p", str(port),
                                      "-U", "prov", "prov"]), check=True, capture_output=True, timeout=60)
    return Postgres(data, port)


@dataclass
class ChromaServer:
    proc: subprocess.Popen  # type: ignore[type-arg]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        stop_process(self.proc)


def chroma_exe() -> str:
    return shutil.which("chroma") or str(Path(sys.executable).parent / "chroma")


def start_chroma(root: Path, port: int | None = None, *, detach: bool = False) -> ChromaServer:
    port = port or free_port()
    root.mkdir(parents=True, exist_ok=True)
    log = open(root / "chroma.log", "ab")
    proc = subprocess.Popen([chroma_exe(), "run", "--path", str(root / "chroma-data"), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=log, stderr=log, start_new_session=detach)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url + "/api/v2/heartbeat", timeout=1)
            return ChromaServer(proc, port)
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"the Chroma server did not start on {url} (log: {root / 'chroma.log'})")


def main(argv: list[str]) -> int:
    """`start DIR`: both servers, detached, URLs printed as shell exports; `stop DIR`: both stopped."""
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        print("usage: python -m tests.servers start|stop DIR", file=sys.stderr)
        return 2
    root = Path(argv[1]).resolve()
    if argv[0] == "start":
        pg = start_postgres(root / "postgres")
        chroma = start_chroma(root / "chroma", detach=True)
        (root / "chroma.pid").write_text(str(chroma.proc.pid))
        print(f"export PROV_TEST_POSTGRES_URL={pg.url}")
        print(f"export PROV_TEST_CHROMA_URL={chroma.url}")
        return 0
    pid_file = root / "chroma.pid"
    if pid_file.exists():
        try:
            os.kill(int(pid_file.read_text()), 15)
        except ProcessLookupError:
            pass
    data = root / "postgres" / "pgdata"
    if data.exists():
        Postgres(data, 0).stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
