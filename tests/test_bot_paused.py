"""A bot computes only in its own calls: its process is stopped between them. A red team's bot re-armed a timer
every 10 ms whose handler spun on while the game and the other bots played (pondering on their time)."""
import time

from naipes import play_game
from naipes.agents.bot_process import BotLimits
from naipes.agents.bot_seat import make_bot_seat

from helpers import NOTE, bot_notes, shipped_program

TICKER = NOTE + '''
import signal
from naipes.bots import Bot

class Ticker(Bot):
    """Counts the ticks of a 10 ms timer, and notes at each decision how many came since the last."""
    def __init__(self):
        self.ticks, self.seen = 0, 0
        signal.signal(signal.SIGALRM, self.tick)
        signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
    def tick(self, signum, frame):
        self.ticks += 1
    def decide(self, view, options):
        note("ticks", self.ticks - self.seen)
        self.seen = self.ticks
        return 0
'''


class Sleeper:
    """The other seat: 0.3 s a decision (the time a bot could use meanwhile)."""
    name = "sleeper"

    def choose(self, decision):
        time.sleep(0.3)
        return decision.options[0]


def test_a_bot_is_stopped_between_its_calls(tmp_path, capsys):
    path = tmp_path / "ticker.py"
    path.write_text(TICKER, encoding="utf-8")
    seat = make_bot_seat(f"python:{path}:Ticker", BotLimits())
    try:
        play_game(shipped_program("fichas", chips="R1 R2 R3 B1 B2 G3 G1 Y2"), [seat, Sleeper()], 1)
    finally:
        seat.close()
    between = bot_notes(capsys.readouterr().err, "ticks")[1:]  # (from the second decision: after a sleeper's turn)
    assert between and max(between) < 10  # (running on, each 0.3 s turn of the other seat gives some 30)
