import pytest

from ghbench.commands.options import parse_issue_list
from ghbench.errors import UsageError


def test_lists_and_ranges() -> None:
    assert parse_issue_list("1,2,5-9") == [1, 2, 5, 6, 7, 8, 9]
    assert parse_issue_list(" 3 , 4-4 ") == [3, 4]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "at least one"),
        ("a", "not an issue number"),
        ("9-5", "backwards"),
        ("1,1", "listed twice"),
        ("0", "start at 1"),
    ],
)
def test_bad_lists_name_the_flag(text: str, match: str) -> None:
    with pytest.raises(UsageError, match=match) as info:
        parse_issue_list(text)
    assert str(info.value).startswith("--issues")
