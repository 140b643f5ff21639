"""A list or yes/no answered from a report's sentences (composer/analyst.Analyst.sentence_answer): a list of a
year's deeds leaves out the deeds of other years, events after the period ('Subsequent to December 1, 2025, we
completed …') and what the sentence after them says of them; a risk factor's condition ('If we do not complete an
announced acquisition …') is no deed; a lawsuit's allegation ('a former seasonal employee filed a class
action …') says nothing of a seasonal business, though it answers a question about lawsuits.

Every company and figure here is made up (Kestrel Packaging).
"""

from __future__ import annotations

from app.models.providers.offline.composer.analyst import Analyst
from app.text.sentences import asks_about_litigation, is_allegation
from app.turns import Block

CO = "Kestrel Packaging"
DEALS = ("During fiscal 2024, we completed our acquisition of privately held Lumen Films, a maker of barrier films, "
         "for $807.5 million. On January 27, 2024, we completed our acquisition of Brisk Foils. On August 1, 2024, we "
         "completed our acquisition of Canfield Trays. During fiscal 2025, we completed our acquisition of Ostrander "
         "Labels for $120.0 million. "
         "Subsequent to December 1, 2025, we completed our acquisition of Tidewell Cartons, a carton maker, for "
         "approximately $549 million in cash consideration. The initial purchase accounting for this transaction "
         "has not yet been completed. If we do not complete an announced acquisition transaction or integrate an "
         "acquired business successfully, we may not realize the benefits of the acquisition.")
SEASONS = ("In January 2024, a former seasonal employee filed a class action, alleging failure to provide meal and "
           "rest breaks. The material seasonal impact in our operations is increased net sales during the winter "
           "holiday season.")


def _said(question: str, text: str) -> str:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.37 [text]", text=text, source_id="k",
                  chunk_id="k:p37::0", company=CO, fiscal_year=2025, page=37)
    return " ".join(Analyst({"blocks": [block], "companies": [CO]}, question).sentences())


def test_a_years_list_holds_that_years_deeds_only():
    said = _said(f"What acquisitions did {CO} complete in fiscal 2025?", DEALS)
    assert "Ostrander Labels" in said
    # a day's date from April falls in its year or the next (a June year-end's fiscal 2025 began in July 2024)
    assert "Canfield Trays" in said
    for other in ("Lumen Films", "Brisk Foils", "Tidewell", "initial purchase accounting", "If we do not"):
        assert other not in said, said
    assert "Lumen Films" in _said(f"What acquisitions did {CO} complete in fiscal 2024?", DEALS)


def test_an_allegation_answers_only_a_question_about_lawsuits():
    assert is_allegation(SEASONS.split(". ")[0]) and not is_allegation(SEASONS.split(". ")[1])
    assert asks_about_litigation(f"Has {CO} been sued by its employees?")
    assert not asks_about_litigation(f"Is {CO}'s business seasonal?")
    said = _said(f"Is {CO}'s business seasonal?", SEASONS)
    assert said.startswith("Yes. The material seasonal impact") and "class action" not in said, said
    assert "class action" in _said(f"Did a seasonal employee of {CO} file a class action?", SEASONS)


def test_a_comparative_names_no_period_of_the_sentences_own():
    from app.text.dates import periods_of_sentence

    assert periods_of_sentence("Our contracted backlog at year end was $1.58bn (FY2024: $1.32bn).") == set()
    assert periods_of_sentence("Revenue increased 4% compared to fiscal 2024.") == set()
    assert periods_of_sentence("During fiscal 2024, we completed our acquisition of Lumen Films.") == {2024}
    assert periods_of_sentence("On January 27, 2024, we completed it.") == {2023, 2024}
    assert periods_of_sentence("On August 1, 2024, we completed it.") == {2024, 2025}
