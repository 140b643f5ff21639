"""Conversation turns in processes of their own, for the crash and concurrency tests (tests/integration).

Three commands, `python -m tests.integration.turn_driver COMMAND ...`:

- `turn --thread T --user U (--question Q | --reply R) [--nodes FILE] [--kill-at NODE [--nth N] [--on start|end]]`
  does what `Runtime.run` (a question) or `Runtime.resume` (a clarification reply) does, but invokes the
  supervisor graph with a callback handler in the config. The handler sees every node, the retrieval and
  calculator subgraphs' nodes included (LangGraph names each node's run after the node). `--nodes FILE` appends
  each node start to FILE (flushed line by line, so a killed run keeps what it saw); `--kill-at NODE` SIGKILLs
  this process when NODE starts (or, `--on end`, returns: its side effects done, its writes not yet saved) for
  the N-th time: no `finally`, no atexit, nothing flushed, as when a machine loses power. Without `--kill-at`
  the turn runs to its end and prints the result as `prov run --json` does (a test may kill it from outside).
- `prepare SPEC.json` runs, in this one process, the turns a test needs before its trials (through
  `Runtime.run` and `Runtime.resume`, as `prov run` and `prov resume` do) and prints their results as JSON.
- `serve` is a fork server: it imports the heavy modules once, then forks one child per request, which runs
  `prov ARGS...` (the CLI's `main`) or one of the commands above, in its own process with its own
  environment, connections and exit status. Python's start and imports cost 5-10 s a process on a loaded
  2-core machine; a forked child starts in milliseconds. `ForkServer` is the tests' side of it.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


# --- one turn, killed at a node ---------------------------------------------------------------------------------


def node_name(metadata: dict[str, Any] | None, name: str | None) -> str | None:
    """The node this chain run is, or None for the runnables inside a node (a branch function, a channel write,
    a model call): LangGraph puts the running node's name in `metadata["langgraph_node"]`, and the node's own run
    carries that same name."""
    node = (metadata or {}).get("langgraph_node")
    return node if node and node == name else None


def make_handler(target: str | None, nth: int, on: str, log_path: str | None) -> Any:
    from langchain_core.callbacks import BaseCallbackHandler

    class KillAtNode(BaseCallbackHandler):
        """Logs node starts; SIGKILLs this process at the `nth` start (or end) of `target`."""

        run_inline = True  # called in the thread that runs the node

        def __init__(self) -> None:
            self.names: dict[Any, str] = {}
            self.seen = 0
            self.log = open(log_path, "a", buffering=1, encoding="utf-8") if log_path else None  # noqa: SIM115

        def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: Any,
                           metadata: dict[str, Any] | None = None, **kwargs: Any) -> None:
            node = node_name(metadata, kwargs.get("name"))
            if node is None:
                return
            self.names[run_id] = node
            if self.log is not None:
                self.log.write(node + "\n")
            if on == "start":
                self._count(node)

        def on_chain_end(self, outputs: Any, *, run_id: Any, **kwargs: Any) -> None:
            node = self.names.pop(run_id, None)
            if node is not None and on == "end":
                self._count(node)

        def _count(self, node: str) -> None:
            if node == target:
                self.seen += 1
                if self.seen == nth:
                    os.kill(os.getpid(), signal.SIGKILL)

    return KillAtNode()


def turn(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="turn_driver turn")
    parser.add_argument("--thread", required=True)
    parser.add_argument("--user", default="local")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--question")
    what.add_argument("--reply", help="answer the thread's waiting clarification with this")
    parser.add_argument("--nodes", help="append every node start to this file")
    parser.add_argument("--kill-at", help="SIGKILL this process at this node")
    parser.add_argument("--nth", type=int, default=1, help="… at its N-th start or end (default 1)")
    parser.add_argument("--on", choices=["start", "end"], default="start")
    args = parser.parse_args(argv)

    from langgraph.types import Command

    from app.runtime import Runtime
    from app.settings import get_settings

    runtime = Runtime(get_settings())
    handler = make_handler(args.kill_at, args.nth, args.on, args.nodes)
    config = {**runtime.config(args.thread), "callbacks": [handler]}
    if args.reply is not None:  # as Runtime.resume answers a waiting clarification
        runtime.require_thread(args.thread, args.user)
        runtime.graph.invoke(Command(resume=runtime.check_question(args.reply)), config)
    else:  # as Runtime.run starts a turn
        text = runtime.check_question(args.question)
        runtime.memory.own_thread(args.thread, args.user)
        runtime.graph.invoke({"question": text, "user": args.user, "thread": args.thread, "use_cache": True}, config)
    print(json.dumps(runtime.result(args.thread).as_json()))
    runtime.close()
    # Reaching here with --kill-at means the node never ran N times: the test reads that as a failed trial.
    return 0 if args.kill_at is None else 4


# --- turns before the trials ------------------------------------------------------------------------------------


def prepare(argv: list[str]) -> int:
    """SPEC: {label: {"user": U, "turns": [{"question": Q} | {"reply": R}, ...]}}: each label's turns on a new
    thread; prints {label: {"thread": its id, "results": [each turn's result as `prov run --json` prints it, and the
    seconds it took]}}."""
    from app.runtime import Runtime
    from app.settings import get_settings

    spec = json.loads(Path(argv[0]).read_text())
    runtime = Runtime(get_settings())
    out: dict[str, dict[str, Any]] = {}
    for label, item in spec.items():
        thread: str | None = None
        results = []
        for step in item["turns"]:
            started = time.monotonic()
            if "reply" in step:
                result = runtime.resume(thread, step["reply"], user=item["user"])  # type: ignore[arg-type]
            else:
                result = runtime.run(step["question"], thread, user=item["user"])
            thread = result.thread_id
            results.append({**result.as_json(), "seconds": round(time.monotonic() - started, 2)})
        out[label] = {"thread": thread, "results": results}
    runtime.close()
    print(json.dumps(out))
    return 0


# --- the fork server --------------------------------------------------------------------------------------------

WARM = ("app.cli", "app.runtime", "app.checkpoints", "graphs.supervisor", "app.knowledge.base",
        "app.knowledge.dense", "app.knowledge.embeddings", "app.memory.records", "app.memory.semantic_cache",
        "app.memory.archive", "app.models", "chromadb", "onnxruntime", "tokenizers", "langgraph.checkpoint.sqlite",
        "langgraph.checkpoint.postgres", "psycopg", "langchain_core.callbacks")


def _child(request: dict[str, Any]) -> int:
    """In the forked child: its own environment, stdout and stderr files, a time limit; then the command."""
    import random

    random.seed()  # a forked child would otherwise repeat the parent's random sequence
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request.get("cwd") or REPO)
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(f, fd)
        os.close(f)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(int(request.get("timeout") or 600))  # a hung child dies instead of hanging the test
    from app.settings import get_settings

    get_settings.cache_clear()
    command, *args = request["argv"]
    try:
        if command == "prov":
            from app.cli import main

            sys.argv = ["prov", *args]
            main()
            code = 0
        else:
            code = COMMANDS[command](args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001  (the child reports any failure through its stderr and exit status)
        import traceback

        traceback.print_exc()
        code = 1
    import atexit

    atexit._run_exitfuncs()  # what a normal interpreter exit runs (the stores' own clean-ups)
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def serve(argv: list[str]) -> int:
    """Requests on stdin, one JSON object a line: {"op": "spawn", "argv", "env", "stdout", "stderr", "timeout"}
    answers {"pid"}; {"op": "wait", "pid"} answers {"pid", "rc"} (rc < 0: killed by that signal)."""
    import importlib

    for module in WARM:
        importlib.import_module(module)
    reply = sys.stdout
    reply.write(json.dumps({"ready": True}) + "\n")
    reply.flush()
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "spawn":
            reply.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                os._exit(_child(request))
            reply.write(json.dumps({"pid": pid}) + "\n")
        elif request["op"] == "wait":
            _, status = os.waitpid(request["pid"], 0)
            reply.write(json.dumps({"pid": request["pid"], "rc": os.waitstatus_to_exitcode(status)}) + "\n")
        reply.flush()
    return 0


COMMANDS = {"turn": turn, "prepare": prepare, "serve": serve}


# --- the tests' side ----------------------------------------------------------------------------------------------


@dataclass
class Child:
    pid: int
    stdout: Path
    stderr: Path


@dataclass
class Done:
    rc: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        try:
            return json.loads(self.stdout)
        except json.JSONDecodeError:
            raise NoJson(self) from None


class NoJson(AssertionError):
    """A command that was to print JSON printed something else (it failed: its exit status and stderr say why)."""

    def __init__(self, done: Done) -> None:
        self.done = done
        super().__init__(f"exit {done.rc}, no JSON on stdout; stderr: {done.stderr.strip()[-1500:]}")


class ForkServer:
    """Starts `turn_driver serve` and runs commands in children forked from it: `run(["prov", "threads",
    "--json"], env)` is `prov threads --json` in a process of its own, started in milliseconds."""

    def __init__(self, workdir: Path, env: dict[str, str]) -> None:
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.count = 0
        self.log = open(workdir / "server.stderr", "w")  # noqa: SIM115
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.integration.turn_driver", "serve"], cwd=REPO,
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                     text=True)
        assert self._read() == {"ready": True}

    def _read(self) -> dict[str, Any]:
        line = self.proc.stdout.readline()  # type: ignore[union-attr]
        if not line:
            raise RuntimeError(f"the fork server died: {(self.workdir / 'server.stderr').read_text()[-2000:]}")
        return json.loads(line)

    def _send(self, request: dict[str, Any]) -> dict[str, Any]:
        self.proc.stdin.write(json.dumps(request) + "\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]
        return self._read()

    def spawn(self, argv: list[str], env: dict[str, str], timeout: int = 300) -> Child:
        self.count += 1
        out, err = self.workdir / f"{self.count:04d}.out", self.workdir / f"{self.count:04d}.err"
        pid = self._send({"op": "spawn", "argv": argv, "env": env, "stdout": str(out), "stderr": str(err),
                          "timeout": timeout})["pid"]
        return Child(pid, out, err)

    def wait(self, child: Child) -> Done:
        rc = self._send({"op": "wait", "pid": child.pid})["rc"]
        return Done(rc, child.stdout.read_text(), child.stderr.read_text())

    def run(self, argv: list[str], env: dict[str, str], timeout: int = 300) -> Done:
        return self.wait(self.spawn(argv, env, timeout))

    def prov(self, env: dict[str, str], *args: str) -> Done:
        return self.run(["prov", *args], env)

    def close(self) -> None:
        self.proc.stdin.close()  # type: ignore[union-attr]
        self.proc.wait(timeout=60)
        self.log.close()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in COMMANDS:
        print(__doc__, file=sys.stderr)
        return 2
    return COMMANDS[args[0]](args[1:])


if __name__ == "__main__":
    sys.exit(main())
