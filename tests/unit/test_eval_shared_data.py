"""prov eval's suites made from ../shared/data (app/evaluation/shared_data.py), on tiny datasets written here in
the real formats, never on the data itself: the suites, turns, golds and expected statuses each dataset gives,
--size, the corpus written under the home (never the repository), "data not present", and the runner's
additions they need (a case's own user and clarification reply, a bare-number gold)."""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from app.errors import BadInput
from app.evaluation import shared_data
from app.evaluation.runner import _ask_case, corpus_key
from app.evaluation.scoring import FigureFact, NameFact, YesNoFact, first_sentence_states, score
from app.evaluation.stages import stage_metrics
from app.evaluation.suites import REPO, Case, Suite, suite_from_records, suite_names, with_bare_reading


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r) + "\n" for r in rows)
    if path.suffix == ".gz":
        with gzip.open(path, "wt", encoding="utf-8") as fh:
            fh.write(text)
    else:
        path.write_text(text, encoding="utf-8")


def _by_name(suites: list[Suite]) -> dict[str, Suite]:
    return {s.name: s for s in suites}


# --- ConvFinQA ---------------------------------------------------------------------------------------------------

def _convfinqa_record(rid: str, questions: list[str], answers: list[Any], rows: dict[str, float]) -> dict[str, Any]:
    return {"id": rid, "doc": {"pre_text": "the table shows exercise prices .", "post_text": "end of note .",
                               "table": {"2007": rows, "2005": {k: v / 2 for k, v in rows.items()}}},
            "dialogue": {"conv_questions": questions, "conv_answers": [str(a) for a in answers],
                         "turn_program": [str(a) for a in answers], "executed_answers": answers,
                         "qa_split": [False] * len(answers)},
            "features": {"num_dialogue_turns": len(answers)}}


@pytest.fixture()
def convfinqa_data(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    page = {"weighted average exercise price per share": 60.94}
    _write(root / "convfinqa" / "convfinqa_dev.jsonl", [
        _convfinqa_record("Single_MRO/2007/page_134.pdf-1",
                          ["what was the weighted average exercise price per share in 2007?",
                           "and what was the change from 2005?"], [60.94, 1.42403], page),
        _convfinqa_record("Double_MRO/2007/page_134.pdf", ["what was it in 2007?"], [60.94], page),  # same page
        _convfinqa_record("Single_AES/2002/page_46.pdf-1", ["did the price rise?"], ["no"], {"price": 3.0}),
    ])
    return root


def test_convfinqa_gives_one_trace_per_conversation_on_its_own_page(convfinqa_data: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    suites, skipped = shared_data.load_shared(["shared/convfinqa"], home, root=convfinqa_data)
    assert skipped == []
    [suite] = suites
    assert (suite.name, suite.kind) == ("shared/convfinqa/traces", "traces")
    assert suite.corpus == home / "eval" / "shared" / "convfinqa-3"  # under the home, not the repository
    assert sorted(p.name for p in suite.corpus.iterdir()) == ["AES-2002-page_46.md", "MRO-2007-page_134.md"]
    page = (suite.corpus / "MRO-2007-page_134.md").read_text()
    assert "company: MRO" in page and "fiscal_year: 2007" in page and "| weighted average exercise price" in page
    first, shared_page, yes_no = suite.cases
    assert [len(c.turns) for c in suite.cases] == [2, 1, 1]
    assert first.reply == "MRO, 2007" and yes_no.reply == "AES, 2002"
    source = "convfinqa-3/MRO-2007-page_134.md"
    one, two = first.turns
    assert one.gold[0].source_id == source and two.gold == ()  # retrieval on the first turn only
    assert one.blocks_in == two.blocks_in == shared_page.turns[0].blocks_in == (source,)
    assert (one.bare, two.bare) == ("60.94", "1.42403")
    assert one.question is not None and one.question.expect == "answered"
    assert one.question.facts == (FigureFact(60.9, 1, "", "", "count", True, "60.9"),)  # plain reading till answered
    assert yes_no.turns[0].bare == "" and yes_no.turns[0].question is not None
    assert yes_no.turns[0].question.facts == (YesNoFact(yes=False),)
    [small], _ = shared_data.load_shared(["shared/convfinqa/traces"], home, size=1, root=convfinqa_data)
    assert len(small.cases) == 1 and small.corpus.name == "convfinqa-1"


@pytest.mark.parametrize(("gold", "answer"), [
    ("60.94", "It was 60.94 [1]."), ("60.94", "It was 60.9 [1]."), ("60.94", "It was 61 [1]."),
    ("60.94", "It was 60.8 [1]."), ("6955.22388", "Earnings were $6,955 million [1]."),
    ("6955.22388", "Earnings were 6.955 billion [1]."), ("6955.22388", "Earnings were 6,960."),
    ("0.0814", "The change is 8.1% of 2007's [1]."), ("0.0814", "The ratio is 0.081."),
    ("0.0814", "The change is 8% [1]."), ("1.42403", "It is 142.4% of the 2005 price."),
    ("-4.0", "The costs decreased by 4 [1]."), ("-4.0", "The change was 4 [1]."),
    ("2012", "It was highest in 2012 [1]."), ("2012", "It was highest in 2013 [1]."),
    ("35.8", "The inputs were 60.94 and 25.14. The change was 35.8."),
])
def test_a_bare_gold_scores_exactly_as_first_sentence_states(gold: str, answer: str) -> None:
    [suite] = [suite_from_records("x/traces", Path("."), [{"id": "c", "turns": [
        {"ask": "what was it?", "expect": "answered", "bare": float(gold)}]}])]
    turn = with_bare_reading(suite.cases[0].turns[0], answer)
    assert turn.question is not None
    assert score(turn.question, "answered", answer).right == first_sentence_states(gold, answer)
    assert not score(turn.question, "insufficient", answer).right


def test_a_bare_gold_must_be_a_number_and_expect_an_answer() -> None:
    with pytest.raises(BadInput, match="record 1"):
        suite_from_records("x/traces", Path("."), [{"id": "c", "turns": [
            {"ask": "q?", "expect": "answered", "bare": "many"}]}])
    with pytest.raises(BadInput, match="bare gold needs an expected answer"):
        suite_from_records("x/routing", Path("."), [{"id": "c", "question": "q?", "bare": 3}])


# --- FinanceBench -------------------------------------------------------------------------------------------------

CAPEX = "financebench_id_03029"  # in bench/data/financebench_keyfacts.jsonl: FY2018 capex, 1577 $m


@pytest.fixture()
def financebench_data(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    folder = root / "financebench"
    _write(folder / "dev_corpus_pages.jsonl.gz", [
        {"doc_name": "3M_2018_10K", "page_num": 0, "text": "3M Company annual report 2018"},
        {"doc_name": "3M_2018_10K", "page_num": 1, "text": "Purchases of property, plant and equipment (1,577)"},
        {"doc_name": "3M_2018_10K", "page_num": 2, "text": "   "},  # a blank page is no record
    ])
    asked = {"financebench_id": CAPEX, "company": "3M", "doc_name": "3M_2018_10K",
             "question_type": "metrics-generated", "question": "What is the FY2018 capital expenditure amount (in "
             "USD millions) for 3M?", "answer": "$1577.00", "justification": "",
             "evidence": [{"evidence_text": "Purchases of property", "doc_name": "3M_2018_10K",
                           "evidence_page_num": 1, "evidence_text_full_page": "..."}]}
    absent = {**asked, "financebench_id": "financebench_id_99999", "company": "Walmart",
              "doc_name": "WALMART_2018_10K", "question": "What was Walmart's FY2018 revenue?",
              "evidence": [{"evidence_text": "x", "doc_name": "WALMART_2018_10K", "evidence_page_num": 3,
                            "evidence_text_full_page": "x"}]}
    _write(folder / "dev_corpus_questions.jsonl", [asked])
    _write(folder / "dev_questions.jsonl", [asked, absent])
    return root


def test_financebench_answers_carry_key_facts_and_gold_pages_and_absent_companies_expect_insufficient(
        financebench_data: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    suites = _by_name(shared_data.load_shared(["shared/financebench"], home, root=financebench_data)[0])
    answers, unanswerable = suites["shared/financebench/answers"], suites["shared/financebench/unanswerable"]
    assert (answers.kind, unanswerable.kind) == ("answers", "unanswerable")
    assert answers.corpus == unanswerable.corpus == home / "eval" / "shared" / "financebench"
    records = [json.loads(x) for x in (answers.corpus / "filings.jsonl").read_text().splitlines()]
    assert [r["source_id"] for r in records] == ["3M_2018_10K:p1", "3M_2018_10K:p2"]  # 1-based, blank page out
    [case] = answers.cases
    [turn] = case.turns
    assert case.reply == "3M, 2018" and turn.company == "3M"
    assert [g.source_id for g in turn.gold] == ["3M_2018_10K:p2"]  # FinanceBench's page 1 is our p2
    assert turn.question is not None and turn.question.kind == "statement_figure"
    assert turn.question.facts == (FigureFact(1577.0, 0, "$", "m", "money", True, "1577 $m"),)
    asked = {c.turns[0].id: c.turns[0] for c in unanswerable.cases}
    ours = [json.loads(x)["id"] for x in (REPO / "bench/data/financebench_unstated.jsonl").read_text().splitlines()]
    assert set(asked) == {"financebench_id_99999", *ours}  # the absent company and our unstated metrics
    assert all(t.question is not None and t.question.expect == "insufficient" and not t.gold for t in asked.values())
    small = _by_name(shared_data.load_shared(["shared/financebench/unanswerable"], home, size=2,
                                             root=financebench_data)[0])
    assert list(small) == ["shared/financebench/unanswerable"] and len(small[list(small)[0]].cases) == 2


def _seed_home(path: Path, source_ids: list[str]) -> Path:
    path.mkdir(parents=True)
    with sqlite3.connect(path / "catalog.sqlite") as db:
        db.execute("create table sources (source_id text primary key)")
        db.executemany("insert into sources values (?)", [(s,) for s in source_ids])
    (path / "chroma").mkdir()
    (path / "chroma" / "index.bin").write_text("vectors")
    (path / "sparse").mkdir()
    (path / "checkpoints.sqlite").write_text("not the knowledge base")
    return path


def test_financebench_copies_a_kept_knowledge_base_only_when_it_holds_the_same_pages(
        financebench_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv(shared_data.SEED_FINANCEBENCH, str(_seed_home(tmp_path / "wrong", ["3M_2018_10K:p1"])))
    with pytest.raises(BadInput, match="1 sources, not the corpus's 2 pages"):
        shared_data.load_shared(["shared/financebench"], home, root=financebench_data)
    said: list[str] = []
    seed = _seed_home(tmp_path / "kept", ["3M_2018_10K:p1", "3M_2018_10K:p2"])
    monkeypatch.setenv(shared_data.SEED_FINANCEBENCH, str(seed))
    [suite, _], _ = shared_data.load_shared(["shared/financebench"], home, root=financebench_data,
                                            progress=said.append)
    kept = home / "eval" / corpus_key(suite.corpus)
    assert (kept / "catalog.sqlite").is_file() and (kept / "chroma" / "index.bin").read_text() == "vectors"
    assert not (kept / "checkpoints.sqlite").exists() and "copied" in said[0]


# --- GoodAI LTM ---------------------------------------------------------------------------------------------------

@pytest.fixture()
def goodai_data(tmp_path: Path) -> Path:
    root = tmp_path / "data"

    def script(task: str, said: list[str], question: str, expected: list[Any]) -> dict[str, Any]:
        return {"task": task, "script": [*said, question], "is_question": [False] * len(said) + [True],
                "expected_responses": expected, "evaluation_fn": "evaluate_correct"}

    _write(root / "goodai_ltm" / "goodai_ltm_definitions.jsonl", [
        script("Colours", ["My favourite colour is Pink.", "My favourite colour is Blue."],
               "What is my favourite colour?", ["Blue"]),
        script("Jokes", ["A joke."], "What was the joke?", ["A joke."]),  # not an update case
        script("NameList", ["My name is Gary.", "Refer to me as Mitchel."],
               "What have been all of the names that I have given you?", ["Gary", "Mitchel"]),
        script("Shopping", ["I want to buy 3 Soap.", "Please add 2 Toilet Paper to my shopping list"],
               "What is on my current shopping list? Express the list as JSON.", [["soap", 3], ["toilet paper", 2]]),
        script("Colours", ["Tan is my favourite colour."], "What is my favourite colour?", ["Tan"]),
    ])
    return root


def test_goodai_scripts_become_memory_traces_where_the_latest_statement_wins(goodai_data: Path,
                                                                              tmp_path: Path) -> None:
    [suite], _ = shared_data.load_shared(["shared/goodai-ltm"], tmp_path / "home", root=goodai_data)
    assert suite.name == "shared/goodai-ltm/traces" and suite.corpus == shared_data.SAMPLE_CORPUS
    ids = [c.id for c in suite.cases]
    assert ids == ["goodai-colours-0", "goodai-namelist-0", "goodai-shopping-0", "goodai-colours-1"]
    assert len({c.user for c in suite.cases}) == 4 and all(c.user for c in suite.cases)  # a user per script
    colours, names, shopping, _ = suite.cases
    assert [t.memory for t in colours.turns[:2]] == [{"write": "profile", "supersede": False},
                                                     {"write": "profile", "supersede": True}]
    assert [t.memory["write"] for t in shopping.turns[:2]] == ["task_state", "task_state"]
    question = colours.turns[-1].question
    assert question is not None and question.facts == (NameFact(("Blue",), lead=True),
                                                       NameFact(("Pink",), absent=True))
    assert score(question, "answered", "Your favourite colour is Blue.").right
    # every colour ever said, the latest among them, is no answer: the superseded one must be gone
    assert not score(question, "answered", "Your favourite colour is Blue (before that, Pink).").right
    assert not colours.turns[0].question  # a statement is checked on memory only
    listed, named = shopping.turns[-1].question, names.turns[-1].question
    assert listed is not None and named is not None
    answer = '[{"item": "Soap", "quantity": 3}, {"item": "Toilet Paper", "quantity": 2}]'
    assert score(listed, "answered", answer).right
    assert score(listed, "answered", "Your shopping list: 3 Soap, 2 Toilet Paper.").right
    assert not score(listed, "answered", answer.replace(": 2", ": 1")).right  # the quantity is the item's
    assert score(named, "answered", '["Gary", "Mitchel"]').right
    assert not score(named, "answered", '["Mitchel"]').right
    [two], _ = shared_data.load_shared(["shared/goodai-ltm/traces"], tmp_path / "home", size=2, root=goodai_data)
    assert [c.id for c in two.cases] == ["goodai-colours-0", "goodai-namelist-0"]  # in turn from each task


def test_an_item_taken_off_the_list_must_be_gone_from_the_answer(tmp_path: Path) -> None:
    root = tmp_path / "data"
    _write(root / "goodai_ltm" / "goodai_ltm_definitions.jsonl", [{
        "task": "Shopping", "evaluation_fn": "evaluate_correct", "expected_responses": [["soap", 3]],
        "script": ["Please add 3 Toothpaste to my shopping list", "I want to buy 3 Soap.",
                   "Please remove 3 Toothpaste from my shopping list", "What is on my current shopping list?"],
        "is_question": [False, False, False, True]}])
    [suite], _ = shared_data.load_shared(["shared/goodai-ltm"], tmp_path / "home", root=root)
    listed = suite.cases[0].turns[-1].question
    assert listed is not None
    assert score(listed, "answered", '[{"item": "Soap", "quantity": 3}]').right
    assert not score(listed, "answered", '[{"item": "Soap", "quantity": 3}, {"item": "Toothpaste", '
                                         '"quantity": 0}]').right


# --- MT-RAG-UN ----------------------------------------------------------------------------------------------------

def _task(cid: str, label: str, said: list[str], contexts: list[dict[str, str]]) -> dict[str, Any]:
    turns = []
    for i, text in enumerate(said):
        turns += [{"speaker": "user", "text": text}] + ([{"speaker": "agent", "text": "An answer."}]
                                                          if i < len(said) - 1 else [])
    return {"conversation_id": cid, "task_id": f"{cid}<::>{len(said)}", "task_type": "rag", "turn": str(len(said)),
            "contexts": contexts, "input": turns, "targets": [{"speaker": "agent", "text": "gold"}],
            "answerability": [label], "Collection": "govt"}


@pytest.fixture()
def mtrag_data(tmp_path: Path) -> Path:
    passage = {"document_id": "doc-1", "text": "\nCanal permits cost $25 a season.", "title": "Canal permits"}
    _write(tmp_path / "data" / "mtrag" / "mtragun_reference.jsonl", [
        _task("aaaa1111", "ANSWERABLE", ["Tell me about canal permits.", "How much do they cost?"], [passage]),
        _task("aaaa2222", "ANSWERABLE", ["Do permits expire?"], [passage, {"document_id": "doc-2", "text": "x"}]),
        _task("bbbb1111", "UNDERSPECIFIED", ["Does this current matter for climate?"], []),
        _task("cccc1111", "UNANSWERABLE", ["What are the steps?", "Are those the only steps?"], []),
        _task("dddd1111", "PARTIAL", ["What do permits allow?"], [{"document_id": "doc-3", "text": "Boating."}]),
    ])
    return tmp_path / "data"


def test_mtrag_tasks_replay_their_history_and_check_the_last_turn(mtrag_data: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    [suite], _ = shared_data.load_shared(["shared/mtrag-un"], home, root=mtrag_data)
    assert suite.corpus == home / "eval" / "shared" / "mtrag-un"
    passages = [json.loads(x) for x in (suite.corpus / "passages.jsonl").read_text().splitlines()]
    assert [p["source_id"] for p in passages] == ["doc-1", "doc-2", "doc-3"]  # every task's, each once
    assert passages[0]["title"] == "Canal permits" and passages[0]["text"] == "Canal permits cost $25 a season."
    cases = {c.id: c for c in suite.cases}
    answerable = cases["mtrag-answerable-aaaa1111"]
    history, last = answerable.turns
    assert history.ask == "Tell me about canal permits." and not (history.route or history.gold or history.question)
    assert last.route == {"is_out_of_scope": False, "needs_clarification": False}
    assert [g.source_id for g in last.gold] == ["doc-1"] and last.question is None
    vague = cases["mtrag-underspecified-bbbb1111"].turns[-1]
    assert vague.route["needs_clarification"] is True and vague.question is not None
    assert vague.question.expect == "clarification"
    unanswerable = cases["mtrag-unanswerable-cccc1111"].turns
    assert len(unanswerable) == 2 and unanswerable[-1].question is not None
    assert unanswerable[-1].question.expect == "insufficient" and not unanswerable[-1].gold
    assert cases["mtrag-partial-dddd1111"].turns[-1].gold[0].source_id == "doc-3"
    [three], _ = shared_data.load_shared(["shared/mtrag-un"], home, size=3, root=mtrag_data)
    assert [c.id for c in three.cases] == ["mtrag-answerable-aaaa1111", "mtrag-underspecified-bbbb1111",
                                           "mtrag-unanswerable-cccc1111"]  # in turn from each answerability


# --- data not present, names, the command -----------------------------------------------------------------------

def test_missing_data_is_said_and_skipped_and_unknown_names_are_bad_input(tmp_path: Path) -> None:
    empty = tmp_path / "no-data"
    suites, skipped = shared_data.load_shared(["shared"], tmp_path / "home", root=empty)
    assert suites == [] and len(skipped) == 4 and all("data not present" in line for line in skipped)
    assert not (tmp_path / "home").exists()  # nothing written
    assert all(name.endswith(" (data not present)") for name in shared_data.listing(empty))
    assert "shared/convfinqa/traces (data not present)" in shared_data.listing(empty)
    for name in ("shared/nope", "shared/convfinqa/answers", "shared/convfinqa/traces/x"):
        with pytest.raises(BadInput, match="no suite named|not a shared-data suite"):
            shared_data.load_shared([name], tmp_path / "home", root=empty)
    assert shared_data.is_shared("shared/mtrag-un") and not shared_data.is_shared("sharedness/x")
    assert not any(shared_data.is_shared(n) for n in suite_names())  # plain prov eval runs only evals/


def test_prov_eval_on_missing_data_says_so_and_exits_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.cli import app

    monkeypatch.setenv("PROV_SHARED_DATA", str(tmp_path / "no-data"))
    cli = CliRunner()
    listed = cli.invoke(app, ["eval", "--list"])
    assert listed.exit_code == 0 and "sample/answers\n" in listed.output
    assert "shared/mtrag-un/traces (data not present)" in listed.output
    ran = cli.invoke(app, ["eval", "--suite", "shared/convfinqa"])
    assert ran.exit_code == 0 and "shared/convfinqa: data not present" in ran.output
    ran = cli.invoke(app, ["eval", "--suite", "shared", "--json"])
    assert ran.exit_code == 0 and json.loads(ran.output)["suites"] == []
    assert cli.invoke(app, ["eval", "--suite", "shared/nope"]).exit_code == 2


# --- the runner's additions ----------------------------------------------------------------------------------------

class _Runtime:
    """Answers from a script of (status, answer), recording how it was asked."""

    def __init__(self, script: list[tuple[str, str]]) -> None:
        self.script = iter(script)
        self.calls: list[tuple[str, str, str | None]] = []
        self.kb = SimpleNamespace(search=lambda ask, k: SimpleNamespace(hits=[]))

    def _next(self) -> Any:
        status, answer = next(self.script)
        return SimpleNamespace(status=status, answer=answer, thread_id="t-1")

    def run(self, ask: str, thread: str | None, *, use_cache: bool, user: str | None) -> Any:
        self.calls.append(("run", ask, user))
        return self._next()

    def resume(self, thread: str, reply: str, *, user: str | None) -> Any:
        self.calls.append(("resume", reply, user))
        return self._next()

    def turns(self, thread: str) -> list[dict[str, Any]]:
        return [{}]


def test_a_case_is_asked_as_its_user_and_its_reader_answers_clarifications() -> None:
    suite = suite_from_records("shared/convfinqa/traces", Path("."), [{"id": "c", "reply": "MRO, 2007",
                                                                        "user": "reader", "turns": [
        {"ask": "what was the price in 2007?", "expect": "answered", "bare": 60.94},
        {"ask": "which report?", "expect": "clarification"},
        {"ask": "MRO", "expect": "answered", "bare": 25.14}]}])
    [case] = suite.cases
    runtime = _Runtime([("clarification", "Which company?"), ("answered", "It was $60.9 [1]."),
                        ("clarification", "Which company?"), ("answered", "It was 25.1.")])
    observed = _ask_case(runtime, suite, case.turns, reply=case.reply, user=case.user)
    assert runtime.calls == [("run", "what was the price in 2007?", "reader"), ("resume", "MRO, 2007", "reader"),
                             ("run", "which report?", "reader"),  # expected clarification: not answered for it
                             ("resume", "MRO", "reader")]  # the next turn is the reply, as before
    assert [o.status for o in observed] == ["answered", "clarification", "answered"]
    correctness = stage_metrics(observed)["correctness"]
    assert (correctness["n"], correctness["rate"]) == (3, 1.0)
    wrong = _ask_case(_Runtime([("answered", "It was 61 [1].")]), suite, case.turns[:1], reply="", user=None)
    assert stage_metrics(wrong)["correctness"]["rate"] == 0.0


def test_a_case_without_reply_or_user_is_asked_as_before() -> None:
    suite = suite_from_records("mine/traces", Path("."), [{"id": "c", "turns": [{"ask": "q?"}]}])
    runtime = _Runtime([("clarification", "Which company?")])
    [observed] = _ask_case(runtime, suite, suite.cases[0].turns)
    assert runtime.calls == [("run", "q?", None)] and observed.status == "clarification"
    assert suite.cases[0] == Case(id="c", suite="mine/traces", turns=suite.cases[0].turns)
