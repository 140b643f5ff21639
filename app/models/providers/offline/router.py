"""The offline provider's router: the classifier of app/routing, fitted once on the labelled examples and cached
under the models folder, told the tickers and latest report year of the knowledge base."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.routing.decision import RouteDecision
    from app.settings import Settings


class OfflineRoutingModel:
    """The offline router, fitted once on the labelled examples and cached under the models folder."""

    label = "offline classifier"

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._router: Any = None
        self._facts: tuple[int, dict[str, str], int | None] | None = None
        self._catalog: Any = None

    def corpus_facts(self) -> tuple[dict[str, str], int | None]:
        """The tickers the knowledge base's own sources state and its latest report year, read again whenever
        the corpus changes."""
        from app.knowledge.catalog import Catalog

        if self._catalog is None:
            if not self.settings.catalog_path.exists():
                return {}, None
            self._catalog = Catalog(self.settings.catalog_path)  # opened once, not on every turn
        generation = self._catalog.generation()
        if self._facts is None or self._facts[0] != generation:
            self._facts = (generation, self._catalog.tickers(), self._catalog.latest_report_year())
        return self._facts[1], self._facts[2]

    def _load(self) -> Any:
        if self._router is None:
            from app.knowledge.embeddings import get_embedder
            from app.routing.classifier import OfflineRouter

            embedder = get_embedder(self.settings)
            self._router = OfflineRouter.load_or_fit(self.settings.models_dir / "router", embedder.embed)
        return self._router

    def __call__(self, question: str, *, known_companies: Sequence[str], context_entities: Sequence[str]
                 ) -> RouteDecision:
        tickers, latest_year = self.corpus_facts()
        return self._load().predict(question, known_companies=list(known_companies),
                                    context_entities=list(context_entities), known_tickers=tickers,
                                    latest_report_year=latest_year)
