"""A verb asked is found as the noun a report writes for it ('retain card members': 'Card Member retention'), in the
search query, the topic match and the analyst's key words; 'able' is no topic word."""

from __future__ import annotations

from app.knowledge.analyzer import analyze
from app.text.terms import stem_in_words
from app.text.terms import matched_terms, nominal_forms, nominal_stem, topic_terms
from nodes.rewrite import keyword_query

REPORT = "Net card fees increased 17 percent, as Card Member retention remained high."


def test_the_nouns_follow_the_verbs_they_stand_for():
    assert nominal_forms("able retain card members, closed stores and grew") == ["retention", "closure", "growth"]
    assert nominal_forms("What was revenue in FY2024?") == []
    assert nominal_stem(analyze("retain")[0]) == analyze("retention")[0]
    assert nominal_stem(analyze("revenue")[0]) is None


def test_sales_are_no_noun_of_selling():
    assert nominal_forms("Is Pellbury looking to sell its franchise business?") == []
    assert not stem_in_words(analyze("sell")[0], set(analyze("franchise sales rose 5.6%")))


def test_the_keyword_query_adds_the_noun():
    query = keyword_query("Was American Express able to retain card members during 2022?", ["American Express"])
    assert query.split()[-1] == "retention" and "retain" in query.split()


def test_a_report_sentence_with_the_noun_matches_the_verb_asked():
    topic = topic_terms("Was American Express able to retain card members during 2022?", ["American Express"])
    assert "abl" not in topic
    assert matched_terms(topic, set(analyze(REPORT))) == topic
    assert stem_in_words("retain", set(analyze(REPORT)))
