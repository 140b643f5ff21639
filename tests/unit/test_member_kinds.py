"""Which members a ranking question asks for: places are never products (app/facts/members.py)."""

from app.facts.members import asked_kind_of_member, is_region


def test_places_joined_or_with_one_left_out_are_places():
    """A schedule's regions are often written as places joined or with one left out."""
    assert is_region("Western Hemisphere excluding U.S.")
    assert is_region("Asia-Pacific, Africa")
    assert is_region("Western Hemisphere")
    assert not is_region("Spine, Sports & Other")
    assert not is_region("Hips")
    assert not is_region("Print and Publishing")


def test_a_franchise_ranking_takes_no_places():
    """'Which franchise is the smallest' is never answered by a region of a sales-by-area table."""
    members = ["United States", "Europe", "Western Hemisphere excluding U.S.", "Asia-Pacific, Africa"]
    question = "Within Harlow's orthopaedics business, which franchise is the smallest by 2022 sales?"
    assert asked_kind_of_member(members, question, lambda m: m) == []


def test_a_franchise_ranking_keeps_its_franchises():
    members = ["Hips", "Knees", "Trauma", "Spine, Sports & Other", "Europe"]
    question = "Which franchise of Harlow's orthopaedics business had the lowest sales in 2022?"
    assert asked_kind_of_member(members, question, lambda m: m) == ["Hips", "Knees", "Trauma", "Spine, Sports & Other"]


def test_a_region_ranking_still_takes_places():
    members = ["United States", "Europe", "Western Hemisphere excluding U.S."]
    question = "Which region of Harlow grew fastest in 2022?"
    assert asked_kind_of_member(members, question, lambda m: m) == members
