"""A Python bot a file names is read only as a regular .py file, never waited on: a red team's strategy named
`python:/proc/kmsg:Bot`, and `naipes check` hung reading it."""
import os

import pytest

from naipes.agents.bot_seat import check_bot_reference
from naipes.errors import ParamError


def test_a_file_that_is_not_python_is_not_read():
    with pytest.raises(ParamError, match="is not a Python file"):
        check_bot_reference("python:/proc/self/status:Bot")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_named_like_python_is_not_waited_on(tmp_path):
    pipe = tmp_path / "bot.py"
    os.mkfifo(pipe)  # (a read of it would wait for a writer for ever)
    with pytest.raises(ParamError, match="not found|is not a regular file"):
        check_bot_reference(f"python:{pipe}:Bot")


def test_a_python_file_is_read_as_text(tmp_path):
    bot = tmp_path / "bot.py"
    bot.write_text("class Bot:\n    pass\n", encoding="utf-8")
    check_bot_reference(f"python:{bot}:Bot")
    with pytest.raises(ParamError, match="defines no 'Other'"):
        check_bot_reference(f"python:{bot}:Other")
