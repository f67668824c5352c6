"""The package as a user gets it: pip-installed into fresh virtual environments, its README's commands and examples run, its pytest plugin loaded through the entry point."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest
from support import ROOT

import listd

PACKAGE = ROOT / "clients" / "python"
README = PACKAGE / "README.md"
# The README's development command runs these tests: running it here would recurse.
NOT_RUN = ("python3 -m pytest -q clients/python",)

pytestmark = pytest.mark.venv


def blocks(language: str) -> list[str]:
    """The README's fenced blocks of ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", README.read_text(encoding="utf-8"), flags=re.S | re.M)


def user_environment(**extra: str) -> dict[str, str]:
    """The environment without what points Python at this source tree, turns plugins off or
    names a listd (the plugin then finds .build/debug/listd as in a clone of the repository)."""
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "PYTEST_ADDOPTS", "LISTD_BIN", "LISTD")
    }
    environment.update(extra)
    return environment


def run(command: list[str] | str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        command if isinstance(command, list) else ["bash", "-euo", "pipefail", "-c", command],
        cwd=cwd,
        env=user_environment(**extra),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"{command} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def sandbox(listd_bin: str) -> Iterator[Path]:
    """A directory laid out like the repository's root for the README's commands: a copy of
    clients/python (pip builds in the source tree) and .build/debug/listd."""
    directory = Path(tempfile.mkdtemp(prefix="listd-py-"))
    shutil.copytree(
        PACKAGE, directory / "clients" / "python", ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    (directory / ".build" / "debug").mkdir(parents=True)
    os.symlink(listd_bin, directory / ".build" / "debug" / "listd")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def installed(sandbox: Path) -> Path:
    """The README's install commands, run as written with this interpreter as ``python3``:
    the virtual environment they made."""
    (sandbox / "bin").mkdir()
    os.symlink(sys.executable, sandbox / "bin" / "python3")
    install = blocks("sh")[0]
    run(install, sandbox, PATH=f"{sandbox / 'bin'}:{os.environ['PATH']}")
    return sandbox / ".venv"


def test_the_install_puts_the_package_in_the_environment(installed: Path) -> None:
    python = str(installed / "bin" / "python")
    code = (
        "import importlib.metadata as m, importlib.resources as r, listd; "
        "print(listd.__file__); print(r.files('listd').joinpath('py.typed').is_file()); "
        "print([e.value for e in m.entry_points(group='pytest11') if e.name == 'listd.pytest_plugin'])"
    )
    lines = run([python, "-c", code], installed).stdout.splitlines()
    assert lines[0].startswith(str(installed)) and "site-packages" in lines[0], lines
    assert lines[1:] == ["True", "['listd.pytest_plugin']"]


def test_the_readme_examples_run_against_a_daemon_on_the_default_socket(
    installed: Path, sandbox: Path, listd_bin: str
) -> None:
    examples = [block for block in blocks("python") if not block.startswith("# test_")]
    assert len(examples) >= 3
    with tempfile.TemporaryDirectory(prefix="runtime-") as runtime:
        os.chmod(runtime, 0o700)
        daemon = subprocess.Popen(
            [listd_bin, "--listen", "--stay"],
            env=user_environment(XDG_RUNTIME_DIR=runtime),
            stdin=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            socket_path = os.path.join(runtime, "listd", "listd.sock")
            while True:  # until it accepts connections
                try:
                    listd.connect_socket(socket_path).close()
                    break
                except listd.NoDaemon:
                    assert daemon.poll() is None
                    time.sleep(0.01)
            outputs = []
            for example in examples:
                script = sandbox / "example.py"
                script.write_text(example, encoding="utf-8")
                outputs.append(
                    run(
                        [str(installed / "bin" / "python"), str(script)],
                        sandbox,
                        XDG_RUNTIME_DIR=runtime,
                        PATH=f"{sandbox / '.build' / 'debug'}:{os.environ['PATH']}",
                    ).stdout
                )
        finally:
            daemon.terminate()
            daemon.wait(10)
    promised = re.search(r"print\(answer\[\"changeset\"\]\)  # (.*)", examples[0])
    assert promised and outputs[0] == promised.group(1) + "\n"
    assert outputs[1] == "[['m2']]\n"
    assert re.fullmatch(r"0 \d+\n", outputs[2])


def test_the_plugin_loads_through_its_entry_point(installed: Path, sandbox: Path) -> None:
    (test_file,) = [block for block in blocks("python") if block.startswith("# test_")]
    name = test_file.splitlines()[0].removeprefix("# ")
    (sandbox / name).write_text(test_file, encoding="utf-8")
    commands = [block for block in blocks("sh")[1:] if not any(skip in block for skip in NOT_RUN)]
    assert commands and all(name in block for block in commands)
    for command in commands:
        result = run(command, sandbox)  # finds .build/debug/listd of the directory it runs in
        assert "2 passed" in result.stdout, result.stdout
    # Without the entry point's plugin, the fixtures are unknown: they came from the installed package.
    python = str(installed / "bin" / "python")
    result = subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:listd.pytest_plugin", name],
        cwd=sandbox,
        env=user_environment(),
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0 and "fixture 'listd_client' not found" in result.stdout


def test_pip_install_into_a_fresh_environment_needs_only_the_standard_library(sandbox: Path) -> None:
    fresh = sandbox / "fresh"
    run([sys.executable, "-m", "venv", str(fresh)], sandbox)
    run([str(fresh / "bin" / "pip"), "install", "--quiet", "./clients/python"], sandbox)
    modules = sorted(
        path.stem for path in (PACKAGE / "src" / "listd").glob("*.py") if path.stem not in ("__init__", "pytest_plugin")
    )
    code = "import listd; " + "; ".join(f"import listd.{module}" for module in modules) + "; print(listd.__version__)"
    assert run([str(fresh / "bin" / "python"), "-c", code], sandbox).stdout == f"{listd.__version__}\n"
    installed = run([str(fresh / "bin" / "pip"), "list", "--format=freeze"], sandbox).stdout.split()
    assert sorted(line.split("==")[0] for line in installed) == sorted(["listd", "pip", "setuptools"]) or sorted(
        line.split("==")[0] for line in installed
    ) == sorted(["listd", "pip"])
