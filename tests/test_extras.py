"""A missing extra is one clear line and exit 2, never a traceback.

The extras are installed here, so each test runs Python in a subprocess whose import
system cannot find the extra's modules (as after ``pip install rummy500`` alone): the
import really fails, and the package must say which extra to install.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import rummy500

SRC = str(Path(rummy500.__file__).resolve().parent.parent)

HIDE = """
import sys

class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {hidden!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
"""


def python(hidden: set[str], code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-c", HIDE.format(hidden=hidden) + code],
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def test_play_without_the_tui_extra_says_which_to_install(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    done = python({"textual"}, "from rummy500.cli import main\n"
                               f"sys.exit(main(['play', '--save-dir', {str(saves)!r}]))",
                  tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr == ("rummy500 play needs the [tui] extra (textual is not installed): "
                           "pip install 'rummy500[tui]'\n")
    assert not saves.exists()  # nothing was started


def test_the_other_commands_work_without_the_tui_extra(tmp_path: Path) -> None:
    done = python({"textual"}, "from rummy500.cli import main\n"
                               "sys.exit(main(['simulate', '--deals', '2', '--seed', '1', "
                               "'--json']))", tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"deals": 2' in done.stdout


def test_the_research_environments_name_the_rl_extra(tmp_path: Path) -> None:
    for hidden, module in (({"gymnasium"}, "rummy500.rl"),
                           ({"pettingzoo"}, "rummy500.rl.pettingzoo"),
                           ({"pyspiel"}, "rummy500.rl.openspiel")):
        done = python(hidden, "try:\n"
                              f"    import {module}\n"
                              "except ImportError as error:\n"
                              "    print(type(error).__name__, error.code, error)\n",
                      tmp_path)
        assert done.returncode == 0, done.stderr
        missing = hidden.pop()
        assert done.stdout == (f"MissingExtraError missing_extra {module} needs the [rl] extra "
                               f"({missing} is not installed): pip install 'rummy500[rl]'\n")

