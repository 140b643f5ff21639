"""A yes/no about what an agreement provides ('Under the employment agreement she signed …, will the company cover
the legal fees she incurred negotiating it?') is answered by the agreement's own clause, whose wording a report's
reader otherwise sets aside as boilerplate: the occasion said first need not stand in it, 'cover' is written
'reimburse', and the clause's letter is no part of the answer.

Every company, person, page and figure here is made up (Wrenfield, a warehouse club; Dana Whitcombe).
"""

from __future__ import annotations

from app.text.question_kinds import read_ask
from tests.unit.test_prose_amounts_dated import _compose

CLAUSES = ("(c) Executive shall be entitled to 20 vacation days in each calendar year, prorated for any partial year.\n"
           "(d) Subject to Section 14(b) hereof, the Company shall reimburse Executive the reasonable legal fees "
           "(based on hourly rates) and\ndisbursements incurred by her in connection with negotiating and preparing "
           "this employment agreement, provided that in no event shall the amount of such reimbursement exceed "
           "$35,000.\n(e) As used herein, the Term shall mean the Employment Period.")
QUESTION = ("Under the employment agreement Dana Whitcombe signed with Wrenfield in May 2024, will the company cover "
            "the legal fees she incurred negotiating it?")


def test_an_occasion_said_first_leaves_a_yes_no() -> None:
    assert read_ask(QUESTION).kind == "yes_no"


def test_an_agreements_clause_answers_what_it_provides() -> None:
    answer = _compose("Wrenfield", 2024, CLAUSES, QUESTION)
    assert answer.startswith("Yes. Subject to Section 14(b) hereof, the Company shall reimburse Executive the "
                             "reasonable legal fees")
    assert "$35,000" in answer


LETTER = ("(c) Office. While you are serving as Senior Advisor, the Employer will provide you with an office, and he "
          "will remain eligible for the deferred compensation plan in which he participates.\n(d) Subject to Section "
          "11, the Company will reimburse you for your reasonable legal fees incurred in connection with the "
          "negotiation of this Agreement, and his other advisers' fees, up to a total of $25,000.")


def test_of_two_clauses_the_one_about_the_person_asked_answers() -> None:
    # a transition letter to the outgoing chief (a man) beside the incoming chief's agreement, in one filing
    answer = _compose("Wrenfield", 2024, f"{LETTER}\n{CLAUSES}", QUESTION)
    assert "$35,000" in answer and "$25,000" not in answer


_LETTER = ("2. Post-Termination Obligations and Restrictive Covenants. (a) The Non-Competition provision of the "
           "Employment Agreement will remain outstanding. (b) Non-Solicitation of Employees. You understand and "
           "acknowledge that the Employer has expended and continues to expend significant time and expense in "
           "recruiting and training its employees and that the loss of employees would cause significant harm to the "
           "Employer. You therefore further agree not to directly or indirectly solicit, hire, recruit, attempt to "
           "hire or recruit, or induce the termination of employment of any employee of the Employer for the "
           "remainder of your employment with the Employer and for two (2) years to run consecutively, beginning on "
           "the Separation Date.")


def test_a_permission_asked_is_answered_by_the_clause_that_forbids_it() -> None:
    answer = _compose("Marrow Outfitters", 2025, _LETTER, "Under the August 2025 letter agreement covering Dana Pike's "
                      "retirement from Marrow Outfitters, is she free to recruit Marrow Outfitters employees once she "
                      "has left the company?")
    assert answer.startswith("No. You therefore further agree not to directly or indirectly solicit, hire, recruit"), \
        answer


def test_a_recital_that_names_the_deed_does_not_answer_a_permission() -> None:
    recital = _LETTER[:_LETTER.index(" You therefore")]
    answer = _compose("Marrow Outfitters", 2025, recital, "Under the August 2025 letter agreement covering Dana Pike's "
                      "retirement from Marrow Outfitters, is she free to recruit Marrow Outfitters employees once she "
                      "has left the company?")
    assert not answer.startswith(("Yes", "No")), answer
