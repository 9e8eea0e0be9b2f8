from ghbench.jsondoc import dig

DOC = {"next": {"sessions": 4, "tried": [{"limit": 5000}, {"limit": 15000}]}, "n": None}


def test_keys_and_list_indexes_lead_to_the_value() -> None:
    assert dig(DOC, ["next", "sessions"]) == 4
    assert dig(DOC, ["next", "tried", "1", "limit"]) == 15000
    assert dig(DOC, []) == DOC


def test_a_missing_step_is_none() -> None:
    assert dig(DOC, ["next", "gone"]) is None
    assert dig(DOC, ["next", "tried", "2", "limit"]) is None  # past the list's end
    assert dig(DOC, ["next", "tried", "first"]) is None  # a list takes only an index
    assert dig(DOC, ["next", "sessions", "0"]) is None  # a number has no steps
    assert dig(DOC, ["n", "x"]) is None
