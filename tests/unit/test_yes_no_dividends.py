"""Yes/no questions on dividends as filings state them: a payment whose sentence ends in a date ('… to shareholders
of record at the close of business on March 28, 2019'), which is a sentence and no table row, and a denial that
names the stock otherwise than the question ('capital stock' for 'common stock'). Companies are invented."""

from __future__ import annotations

from app.facts.prose import is_row_line
from app.models.providers.offline.composer import compose_offline
from app.text.measures import without_short_names
from app.text.sentences import split_sentences
from app.turns import Block

_PAID = ("On February 12, 2019, our Board of Directors declared a cash dividend of $0.37 per common share. On May 9, "
         "2019, we made an aggregate cash dividend payment of $283 million to shareholders of record at the close "
         "of business on March 28, 2019.")
_NEVER = ("We have never declared or paid any cash dividends on our capital stock and we do not anticipate paying "
          "cash dividends in the foreseeable future.")


def _answer(question: str, text: str, year: int) -> str:
    block = Block(n=1, kind="report", header=f"[1] Ternline FY{year}", text=text, source_id="t1",
                  chunk_id="t1::0", company="Ternline", fiscal_year=year)
    return compose_offline({"question": question, "blocks": [block], "companies": ["Ternline"],
                            "fiscal_years": [year]})


def test_a_sentence_that_ends_in_a_date_is_no_table_row() -> None:
    assert not is_row_line("On May 9, 2019, we made an aggregate cash dividend payment of $283 million to "
                           "shareholders of record at the close of business on March 28, 2019.")
    # a row whose label holds a date keeps its figures after it
    assert is_row_line("Balance at Dec 31, 2019 1,234 5,678")
    assert is_row_line("Stores opened 41 37")


def test_a_payment_answers_yes() -> None:
    answer = _answer("Did Ternline pay a cash dividend to shareholders in 2019?", _PAID, 2019)
    assert answer.startswith("Yes. On May 9, 2019, we made an aggregate cash dividend payment of $283 million"), answer


def test_a_denial_of_the_stock_named_otherwise_answers_no() -> None:
    answer = _answer("Did Ternline declare or pay any cash dividends on its common stock in 2020?", _NEVER, 2020)
    assert answer.startswith("No. We have never declared or paid any cash dividends on our capital stock"), answer
    # a sentence missing a word that is no modifier of another asked does not answer
    answer = _answer("Did Ternline declare or pay any special dividends on its preferred shares in 2020?", _NEVER, 2020)
    assert not answer.startswith(("No.", "Yes.")), answer


def test_the_companys_other_name_beside_its_own_is_no_key_word() -> None:
    # 'Quillfeather (Ternline)': the name the company had, written beside the one it has, is the company's
    question = "Did Quillfeather (Ternline) declare or pay any cash dividends on its common stock in 2020?"
    assert without_short_names(question, ["Ternline"]).startswith("Did   declare or pay")
    assert without_short_names("Did Ternline (formerly Quillfeather) pay?", ["Ternline"]) == "Did   pay?"
    # a name in brackets beside another that is not the company's stays: 'Seller (Square)' is a segment
    assert without_short_names("What was Seller (Square) revenue?", ["Ternline"]) == "What was Seller (Square) revenue?"
    answer = _answer(question, _NEVER, 2020)
    assert answer.startswith("No. We have never declared or paid any cash dividends"), answer
    # nor of the measure a count asks for
    from app.text.measures import measure_asked

    assert measure_asked("How many full-time employees does Quillfeather (Ternline) have?",
                         ["Ternline"]).phrase == "full-time employees"


def test_a_run_in_heading_is_no_part_of_the_answer() -> None:
    text = ("Because many shares are held by brokers, we are unable to estimate the number of beneficial owners of our "
            "common stock represented by these record holders.Dividend Policy We have never declared nor paid any cash "
            "dividends on our capital stock.")
    answer = _answer("Did Ternline pay any cash dividends on its common stock in 2020?", text, 2020)
    assert answer.startswith("No. We have never declared nor paid any cash dividends on our capital stock"), answer
    # a name that opens with 'We' is no heading's end
    assert split_sentences("We Energies supplies power to the Company in Wisconsin.") == [
        "We Energies supplies power to the Company in Wisconsin."]


def test_a_verbs_irregular_form_is_the_verb() -> None:
    from app.text.terms import stem_in_words

    assert stem_in_words("pay", {"paid"}) and stem_in_words("sold", {"sell"}) and stem_in_words("grow", {"grew"})
    assert not stem_in_words("pay", {"sold"})
    answer = _answer("Did Ternline pay any cash dividends on its capital stock in 2020?",
                     "We have never paid any cash dividends on our capital stock.", 2020)
    assert answer.startswith("No. We have never paid any cash dividends"), answer


def test_a_right_to_dividends_if_declared_is_no_deed() -> None:
    # 'entitled to dividends when, as and if, declared' grants a right; the denial answers
    rights = ("Holders of the Company's Class A common stock and Class B common stock are entitled to dividends when, "
              "as and if, declared by the Company's board of directors. ")
    answer = _answer("Did Ternline declare or pay any cash dividends on its common stock in 2020?", rights + _NEVER,
                     2020)
    assert answer.startswith("No. We have never declared or paid any cash dividends"), answer
    assert not _answer("Did Ternline declare or pay any cash dividends on its common stock in 2020?", rights,
                       2020).startswith("Yes")
