"""The pytest plugin as a test suite sees it: its fixtures' failures, the daemon's log, the option that names listd."""

from __future__ import annotations

import pytest

USER_TESTS = """
import pytest

def test_a_wrong_expectation(listd_client, assert_changeset):
    listd_client.list_create("l", content={"sections": [{"id": "s", "items": [{"id": "a"}]}]})
    answer = listd_client.list_edit("l", [{"op": "deleteItems", "items": ["a"]}])
    assert_changeset(answer, inserts=["a"])

@pytest.mark.listd_args("--demo")
def test_the_daemon_takes_the_marks_arguments(listd_client, listd_daemon):
    assert listd_client.list_info("contacts")["owner"]["name"] == "listd demo"
    assert listd_daemon.running
"""


def test_a_failing_test_shows_what_differs_and_the_daemons_log(pytester: pytest.Pytester, listd_bin: str) -> None:
    pytester.makepyfile(test_user=USER_TESTS)
    result = pytester.runpytest("-p", "listd.pytest_plugin", f"--listd-bin={listd_bin}")
    result.assert_outcomes(passed=1, failed=1)
    output = result.stdout.str()
    expected = [
        # The caller's line, then the message: the plugin's own source is hidden.
        ">       assert_changeset(answer, inserts=[\"a\"])\nE       AssertionError: the changeset of list 'l' v1 "
        "does not match:\nE         inserts: expected ['a'], got [] (at [])",
        'E         deletes: expected none, got [[0, 0]]\nE       changeset: {"itemDeletes":[[0,0,1]]}',
        " listd log -",
        "\nlistd: info: listening on ",
    ]
    positions = [output.find(text) for text in expected]
    assert -1 not in positions and positions == sorted(positions), output


def test_a_listd_that_is_not_there_fails_the_fixture_naming_the_path(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_user="def test_x(listd_client):\n    pass\n")
    result = pytester.runpytest("-p", "listd.pytest_plugin", "--listd-bin=/no/such/listd")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*listd not found: /no/such/listd is not an executable file*"])


def test_a_failing_assert_changeset_shows_the_callers_line_and_the_message_not_the_plugins_source(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        test_user='def test_x(assert_changeset):\n    assert_changeset({"itemDeletes": [[0, 0, 1]]}, inserts=["a"])\n'
    )
    result = pytester.runpytest("-p", "listd.pytest_plugin")
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    failure = output[output.index("___ test_x ___") : output.index("short test summary")]
    assert "assert_changeset({" in failure and "inserts: expected ['a'], got []" in failure, output
    assert "testing.py" not in failure and "problems" not in failure, failure
    assert len(failure.splitlines()) < 15, failure


def test_an_error_answer_shows_the_callers_line_and_the_message_not_the_clients_frames(
    pytester: pytest.Pytester, listd_bin: str
) -> None:
    pytester.makepyfile(test_user='def test_x(listd_client):\n    listd_client.list_info("nope")\n')
    result = pytester.runpytest("-p", "listd.pytest_plugin", f"--listd-bin={listd_bin}")
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    failure = output[output.index("___ test_x ___") : output.index("short test summary")]
    assert '>       listd_client.list_info("nope")' in failure, output
    assert "UnknownList: unknown list 'nope'" in failure, output
    for internal in ("client.py", "requests.py", "def call", "def result", "raise self._error"):
        assert internal not in failure, failure


def test_no_listd_outside_a_repository_fails_the_fixture_once(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LISTD_BIN", raising=False)
    monkeypatch.delenv("LISTD", raising=False)
    monkeypatch.setenv("PATH", str(pytester.path))
    pytester.makepyfile(test_user="def test_x(listd_daemon):\n    pass\n")
    result = pytester.runpytest("-p", "listd.pytest_plugin")
    result.assert_outcomes(errors=1)
    output = result.stdout.str()
    error = output[output.index("ERROR at setup") : output.index("short test summary")]
    assert error.count("listd not found") == 1, output
    assert "During handling" not in output and "Traceback" not in output, output
    result.stdout.fnmatch_lines(["*listd not found: set LISTD_BIN*; or pass --listd-bin PATH*"])
