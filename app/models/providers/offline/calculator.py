"""The offline provider's calculator model: a chat model that plans the calculator's tool calls from keywords and
the figures (nodes/calculate.next_rule_based_message), so the ReAct loop runs the same with or without a model
server."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool

from nodes.calculate import next_rule_based_message


class RuleBasedCalculatorModel(BaseChatModel):
    """An offline chat model that plans the calculator's tool calls from keywords and the figures."""

    label: ClassVar[str] = "offline rule-based policy"
    tool_names: tuple[str, ...] = ()

    @property
    def _llm_type(self) -> str:
        return "prov-rule-based-calculator"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RuleBasedCalculatorModel:
        names = tuple(convert_to_openai_tool(t)["function"]["name"] for t in tools)
        return self.model_copy(update={"tool_names": names})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=next_rule_based_message(messages, self.tool_names))])
