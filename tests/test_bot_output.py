"""What a bot prints is copied to standard error up to a limit, then read and left out (said once): a red team's bot
printed 77 MB in three seconds, enough over a tournament to fill a disk."""
import os
import threading

from naipes.agents.bot_process import Output


def test_a_bots_output_past_the_limit_is_read_and_left_out(capsys):
    read, write = os.pipe()
    output = Output(read, "flood")
    line = b"x" * 1000 + b"\n"
    writer = threading.Thread(target=lambda: [os.write(write, line * 100) for _ in range(30)])  # 3 MB
    writer.start()
    writer.join(timeout=30)
    assert not writer.is_alive()  # (the worker is never left waiting on a full pipe)
    os.close(write)
    output.close()
    printed = capsys.readouterr().err
    assert Output.SHOWN <= len(printed) < Output.SHOWN + 20_000  # (each line also names the bot)
    assert printed.rstrip().endswith(f"(the rest of its output is left out: more than {Output.SHOWN:,} characters)")
    assert printed.count("left out") == 1
