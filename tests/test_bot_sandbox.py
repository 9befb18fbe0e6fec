"""Hostile bots: each one is a fault with its reason, the game completes, the other seats are unaffected, and
nothing of the game but the bot's view reaches it (its sandbox: naipes.agents.sandbox).

Every bot here runs in a worker process of its own (naipes.agents.bot_process); the
time limits are short (0.3 s a call) so that the suite stays fast.
"""
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from naipes import RandomAgent, load_program, play_game
from naipes.agents.bot_process import MAX_MESSAGE, BotLimits, BotProcess
from naipes.agents.bot_seat import make_bot_seat
from naipes.agents.sandbox import sandbox
from naipes.errors import ParamError
from naipes.tools.cli import main
from naipes.tools.competition import discover_bots

from helpers import NOTE, RULESETS, bot_notes

ROOT = Path(__file__).resolve().parent.parent
LIMITS = BotLimits(decision=0.3, game=5.0, memory_mb=256, startup=20.0)

HEADER = NOTE + r'''
import gc, json, os, random, re, subprocess, sys, threading, time
from naipes.bots import Bot


def reply_pipe():
    """The worker's pipe to the game (the one pipe above stderr open for writing)."""
    import fcntl, stat
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                return fd
        except OSError:
            pass


'''

# also the entrants of the competition test
COMMON = r'''
class Honest(Bot):
    def decide(self, view, options):
        return 0


class SleepsInObserve(Bot):
    def observe(self, event):
        time.sleep(60)

    def decide(self, view, options):
        return 0


class HardExits(Bot):
    def decide(self, view, options):
        os._exit(7)


class Interrupts(Bot):
    def decide(self, view, options):
        raise KeyboardInterrupt
'''

OTHERS = r'''
class Snoop(Bot):
    """Looks through its whole process for the game: objects, frames, hidden cards."""
    def __init__(self):
        self.given = []

    def observe(self, event):
        self.given.append(event)

    def decide(self, view, options):
        found = sorted({type(o).__module__ + "." + type(o).__qualname__ for o in gc.get_objects()
                        if type(o).__module__.startswith("naipes.")})
        frames, frame = [], sys._getframe()
        while frame is not None:
            frames += [type(v).__module__ for v in frame.f_locals.values() if type(v).__module__.startswith("naipes.")]
            frame = frame.f_back
        seen = json.dumps([view, self.given])
        cards = set()
        for o in gc.get_objects():
            items = o.values() if isinstance(o, dict) else o if isinstance(o, (list, tuple, set)) else ()
            cards |= {x for x in items if isinstance(x, str) and re.fullmatch(r"(1[0-2]|[1-7])[oceb]", x)}
        note("snoop", {"objects": found, "frames": frames, "hidden_cards": sorted(c for c in cards if c not in seen),
                       "naipes_modules": sorted(m for m in sys.modules if m.startswith("naipes"))})
        return 0


class Patcher(Bot):
    """Patches the engine's modules and the generator, in its own process."""
    def __init__(self):
        import naipes.runtime.game, naipes.runtime.memory, naipes.bots
        naipes.runtime.game.Game.apply = naipes.runtime.game.play_game = None
        naipes.runtime.memory.Memory = naipes.bots.Bot = None
        random.random = lambda: 0.0
        random.shuffle = lambda x, *a: x.reverse()

    def decide(self, view, options):
        random.seed(1)
        return 0


class SleepsInDecide(Bot):
    def decide(self, view, options):
        time.sleep(60)


class BlocksForever(Bot):
    def decide(self, view, options):
        import signal
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        threading.Event().wait()


class Exits(Bot):
    def decide(self, view, options):
        sys.exit(3)


class Forks(Bot):
    """Forks a copy that lingers (where the process limit lets it: root without a sandbox)."""
    def decide(self, view, options):
        if os.fork() == 0:
            os.execv("/bin/sleep", ["sleep", "4242.001"])
        return 0


class TriesToFork(Bot):
    """Tries to fork at every decision, and plays on when the process limit refuses (a sandbox; a user not root)."""
    def decide(self, view, options):
        try:
            os.fork()
        except OSError as refused:
            note("refused", type(refused).__name__)
        return 0


class Spawns(Bot):
    """Starts a process the fork watch cannot see (where the process limit lets it: root without a sandbox)."""
    def decide(self, view, options):
        subprocess.Popen(["sleep", "4242.002"])
        return 0


class Detaches(Bot):
    """Starts a process in a session of its own, and one that its own child leaves behind (a daemon's double
    fork), so that neither is in its process group; both would hold the game's standard error if they could."""
    def decide(self, view, options):
        subprocess.Popen(["sleep", "4242.003"], start_new_session=True)
        subprocess.Popen(["sh", "-c", "setsid sleep 4242.004 & exit 0"]).wait()
        return 0


class Unprintable(Exception):
    def __str__(self):
        raise ValueError("no")


class RaisesUnprintable(Bot):
    def decide(self, view, options):
        raise Unprintable()


class Escape(BaseException):
    pass


class RaisesBaseException(Bot):
    def decide(self, view, options):
        raise Escape("out")


class RaisesEscapes(Bot):
    def decide(self, view, options):
        raise ValueError("\x1b[2J\x1b[31mred\x07 " + "x" * 5000)


class Evil:
    def __int__(self): raise ValueError("int")
    def __index__(self): raise ValueError("index")
    def __str__(self): raise ValueError("str")
    def __repr__(self): raise ValueError("repr")
    def __eq__(self, other): raise ValueError("eq")
    __hash__ = None


class AnswersEvil(Bot):
    def decide(self, view, options):
        return Evil()


class EvilInt(int):
    def __int__(self): raise ValueError("int")
    def __index__(self): raise ValueError("index")
    def __str__(self): raise ValueError("str")
    def __repr__(self): raise ValueError("repr")
    def __eq__(self, other): raise ValueError("eq")
    def __lt__(self, other): raise ValueError("lt")
    __hash__ = None


class AnswersEvilInt(Bot):
    """An int subclass whose methods raise: read as the int it is."""
    def decide(self, view, options):
        return EvilInt(len(options) - 1)


class EvilStr(str):
    def __str__(self): raise ValueError("str")
    def __eq__(self, other): raise ValueError("eq")
    __hash__ = None


class AnswersEvilStr(Bot):
    def decide(self, view, options):
        return EvilStr(options[-1])


class AnswersHugeString(Bot):
    def decide(self, view, options):
        return "x" * 10_000_000


class WritesHugeMessage(Bot):
    def decide(self, view, options):
        os.write(reply_pipe(), b"[" * (1 << 20))
        return 0


class WritesGarbage(Bot):
    def decide(self, view, options):
        os.write(reply_pipe(), b"\x00\xffgarbage\n")
        return 0


class AnswersAhead(Bot):
    def decide(self, view, options):
        os.write(reply_pipe(), b'{"n": 999999, "answer": 0}\n')
        return 0


class Hoards(Bot):
    def __init__(self):
        self.hoard = []

    def decide(self, view, options):
        while True:
            self.hoard.append(bytes(1 << 24))


class Prints(Bot):
    def decide(self, view, options):
        print("\x1b[2J GARBAGE " * 100)
        os.write(1, b"GARBAGE on fd 1\n")
        sys.stdout.flush()
        return 0


class SlowEachTime(Bot):
    def decide(self, view, options):
        time.sleep(0.2)
        return 0


class StartsSlowly(Bot):
    def __init__(self):
        time.sleep(60)

    def decide(self, view, options):
        return 0


class Signals(Bot):
    """Says it is thinking, then thinks for a long time (the test interrupts the game meanwhile)."""
    def decide(self, view, options):
        note("thinking", True)
        time.sleep(60)
'''
HOSTILE = HEADER + COMMON + OTHERS


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile")
    (path / "hostile.py").write_text(HOSTILE)
    return path


@pytest.fixture()
def seated(folder):
    """seated(CLASS): a seat for a hostile bot, with the short limits (closed after the test)."""
    seats = []

    def seat(name, limits=LIMITS):
        seats.append(make_bot_seat(f"python:{folder / 'hostile.py'}:{name}", limits))
        return seats[-1]
    yield seat
    for made in seats:
        made.close()


def chips():
    return load_program(RULESETS / "fichas.yaml", {"chips": "R1 R2 R3 B1 B2 G3"})


def running(mark, wait=10.0):
    """The processes (of this machine, living: not zombies) whose command line has `mark`, once `wait` seconds
    have passed or there are none."""
    end = time.monotonic() + wait
    while True:
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as cmdline, open(f"/proc/{pid}/stat") as stat:
                    if mark.encode() in cmdline.read() and stat.read().rsplit(")", 1)[1].split()[0] != "Z":
                        found.append(int(pid))
            except OSError:
                pass
        if not found or time.monotonic() > end:
            return found
        time.sleep(0.05)


def play_against_random(seat, seed=3, program=None):
    """One game, the bot at seat 1 against a random player; returns the result and the game's records."""
    records = []
    program = program or chips()
    result = play_game(program, [seat, RandomAgent(1)], seed=seed, listeners=[records.append])
    return result, records


# -------------------------------------------------------------- no way to the game
def test_a_snoop_finds_nothing_of_the_game_in_its_process(seated, capsys):
    program = load_program(RULESETS / "pocha_static.yaml", {"rounds": "1", "cards_each": "5"})
    seat = seated("Snoop")
    play_game(program, [seat, RandomAgent(1), RandomAgent(2), RandomAgent(3)], seed=4)
    assert seat.faults == []
    seat.close()
    report = bot_notes(capsys.readouterr().err, "snoop")[0]
    assert report["objects"] == [] and report["frames"] == []   # no Game, Memory, Decision, card... object
    assert report["hidden_cards"] == []                          # no card it was not shown
    assert "naipes.runtime.game" not in report["naipes_modules"]  # the engine is not even loaded there


def test_patching_modules_and_the_generator_has_no_effect_on_the_game(seated):
    program = chips()
    patched, _ = play_against_random(seated("Patcher"), program=program)
    honest, _ = play_against_random(seated("Honest"), program=program)
    assert (patched.winners, patched.payoffs, patched.decisions) == (honest.winners, honest.payoffs, honest.decisions)


# ------------------------------------------------------------ faults and reasons
ENDED = "first legal options for the rest of this game"


@pytest.mark.parametrize("name, reason, ended", [
    ("SleepsInDecide", "decide took longer than 0.3 s", True),
    ("SleepsInObserve", "observe took longer than 0.3 s", True),
    ("BlocksForever", "decide took longer than 0.3 s", True),
    ("Exits", "decide called sys.exit(3)", True),
    ("HardExits", "decide exited with status 7; its process was ended", True),
    ("Hoards", "decide ran out of memory (limit 256 MiB)", True),
    ("WritesHugeMessage", f"decide sent a message longer than {MAX_MESSAGE} bytes", True),
    ("WritesGarbage", "decide sent a malformed message", True),
    ("AnswersAhead", "decide sent a message out of turn", True),
    ("Interrupts", "decide raised KeyboardInterrupt", False),
    ("RaisesUnprintable", "decide raised Unprintable: (unprintable)", False),
    ("RaisesBaseException", "decide raised Escape: out", False),
    ("AnswersEvil", "decide answered a Evil, which is neither an option's index nor its label", False),
    ("AnswersHugeString", "decide answered a string of 10,000,000 characters, which is no option's label", False),
])
def test_a_hostile_bot_is_a_fault_with_its_reason_and_the_game_goes_on(seated, name, reason, ended):
    seat = seated(name)
    result, records = play_against_random(seat)
    assert result.winners                                   # the game reached its end
    assert seat.faults, name
    assert all(reason in fault for fault in seat.faults), seat.faults
    assert all((ENDED in fault) is ended for fault in seat.faults)
    if ended:
        assert len(seat.faults) == 1   # then the seat plays first options: no process, nothing more to record
    logged = [r for r in records if r["type"] == "fault"]
    assert len(logged) == len(seat.faults) and all(r["player"] == "P1" for r in logged)
    # every move of the bot's seat was a legal option, the first one wherever it faulted
    mine = [r for r in records if r["type"] == "decision" and r["player"] == "P1"]
    assert mine and all(r["choice"] in r["options"] for r in mine)


def test_the_other_seat_plays_the_same_game_beside_a_hostile_bot(seated):
    """The random seat's moves do not depend on what the bot did to its own process."""
    _, hostile = play_against_random(seated("Hoards"), seed=8)
    _, honest = play_against_random(seated("Honest"), seed=8)
    assert ([r["choice"] for r in hostile if r["type"] == "decision"]
            == [r["choice"] for r in honest if r["type"] == "decision"])


def test_answers_whose_methods_raise_are_read_as_plain_values(seated):
    for name in ("AnswersEvilInt", "AnswersEvilStr"):
        seat = seated(name)
        result, records = play_against_random(seat)
        assert seat.faults == [] and result.winners
        mine = [r for r in records if r["type"] == "decision" and r["player"] == "P1"]
        assert all(r["choice"] == r["options"][-1] for r in mine)


def test_a_reason_is_safe_to_print(seated):
    seat = seated("RaisesEscapes")
    play_against_random(seat)
    fault = seat.faults[0]
    assert "\x1b" not in fault and "\x07" not in fault and "\\x1b[2J" in fault
    assert len(fault) < 500


@pytest.mark.parametrize("name, mark", [("Forks", "4242.001"), ("Spawns", "4242.002")])
def test_a_process_a_bot_starts_is_a_fault_and_ends_with_it(seated, name, mark):
    seat = seated(name)
    result, _ = play_against_random(seat)
    assert result.winners
    assert seat.faults and any(reason in seat.faults[0] for reason in (
        "raised BlockingIOError",                        # no process allowed (a sandbox, or a user not root)
        "started a process (os.fork)",                   # root without a sandbox: the fork is seen
        "decide started a process that outlived its call"))  # ... and what it started is still there
    seat.close()
    assert running(mark) == []


def test_a_fork_the_process_limit_refuses_is_no_fault(seated, capsys):
    """Python's after-fork hook runs whether fork succeeded or not: only a process that exists is a fault."""
    if os.geteuid() == 0 and not sandbox().bwrap:
        pytest.skip("root without a sandbox may fork")
    seat = seated("TriesToFork")
    result, records = play_against_random(seat)
    seat.close()
    assert result.winners and seat.faults == []
    tries = [r for r in records if r["type"] == "decision" and r["player"] == "P1"]
    assert bot_notes(capsys.readouterr().err, "refused") == ["BlockingIOError"] * len(tries)


def test_the_game_budget_ends_a_bot_slow_at_every_decision(seated):
    # (each call's 0.2 s well within its own limit, on a busy machine too: the game's budget is what ends it)
    seat = seated("SlowEachTime", BotLimits(decision=1.0, game=0.5, memory_mb=256))
    result, _ = play_against_random(seat, program=load_program(RULESETS / "fichas.yaml"))
    assert result.winners
    [fault] = seat.faults
    assert "decide used up its 0.5 s for this game" in fault and ENDED in fault


def test_a_bot_that_keeps_crashing_is_restarted_then_retired(seated):
    seat = seated("HardExits")
    for game in range(5):
        assert play_against_random(seat, seed=game)[0].winners
    assert [("exited with status 7" in f, "retired after 3 ended processes" in f) for f in seat.faults] == [
        (True, False)] * 3 + [(False, True)] * 2


def test_a_bot_that_does_not_start_in_time_is_a_clear_error(folder):
    with pytest.raises(ParamError, match="StartsSlowly' failed to start: did not start within 0.5 s"):
        make_bot_seat(f"python:{folder / 'hostile.py'}:StartsSlowly", BotLimits(startup=0.5))


def test_printing_to_stdout_does_not_reach_the_results(folder):
    spec = f"python:{folder / 'hostile.py'}:Prints"
    run = subprocess.run([sys.executable, "-m", "naipes.tools.cli", "simulate", "fichas", "-n", "2", "--seed", "1",
                          "--seat", spec, "--seat", "random"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "GARBAGE" not in run.stdout and "GARBAGE" in run.stderr
    assert "P1    Prints" in run.stdout


# ------------------------------------------------------------------- the worker
def test_a_worker_answers_a_batch_of_calls():
    worker, hello = BotProcess.start(["play", str(ROOT / "examples" / "first_option_bot.py"), "FirstOption"], LIMITS)
    try:
        assert hello == {"ready": "FirstOption", "n": 0}
        assert worker.exchange([("observe", [{"type": "announce", "text": "hi"}]), ("decide", [{}, ["a", "b"]])]) \
            == [{}, {"n": 2, "answer": 0}]
    finally:
        worker.end()
    assert worker.process.returncode is not None


# ------------------------------------------------------------------ the commands
def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_simulate_with_a_hostile_bot_prints_its_table_and_the_reasons(folder):
    result = invoke("simulate", "fichas", "-n", 3, "--seed", 1, "--time-limit", 0.3,
                    "--seat", f"python:{folder / 'hostile.py'}:HardExits", "--seat", "random")
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.startswith("P1"))
    assert row.split()[1] == "HardExits" and int(row.split()[-1]) == 3
    assert "P1 HardExits: 3 faults, the first:" in result.output
    assert "seed 1, decision 1: decide exited with status 7" in result.output


def test_play_with_a_hostile_bot_reports_the_result_and_the_fault(folder):
    result = invoke("play", "fichas", "--seed", 2, "--time-limit", 0.3,
                    "--seat", f"python:{folder / 'hostile.py'}:SleepsInObserve", "--seat", "random")
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output and "P1 SleepsInObserve: 1 fault" in result.output


@pytest.mark.parametrize("jobs", [1, 2])
def test_tournament_with_hostile_bots_prints_its_table_and_the_reasons(folder, jobs):
    bots = folder / "hostile.py"
    result = invoke("tournament", "fichas", "-n", 3, "--seed", 1, "--jobs", jobs, "--time-limit", 0.3,
                    "--seat", f"python:{bots}:Exits", "--seat", f"python:{bots}:Interrupts")
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output
    assert "called sys.exit(3)" in result.output and "raised KeyboardInterrupt" in result.output


def test_competition_with_hostile_bots_prints_the_league_and_the_reasons(tmp_path):
    (tmp_path / "bots.py").write_text("import os, time\nfrom naipes.bots import Bot\n" + COMMON)
    result = invoke("competition", tmp_path, "-n", 4, "--seed", 1, "--ruleset", "fichas", "--time-limit", 0.3)
    assert result.exit_code == 0, result.output
    table = [line for line in result.output.splitlines() if line[:1].isdigit()]
    assert {line.split()[1] for line in table} == {"Honest", "SleepsInObserve", "HardExits", "Interrupts"}
    assert "observe took longer than 0.3 s" in result.output and "exited with status 7" in result.output
    assert "decide raised KeyboardInterrupt" in result.output


def test_a_scan_that_names_other_files_is_refused(tmp_path):
    lie = '{"n": 0, "bots": [["../../x.py", "Bot"]]}'
    (tmp_path / "liar.py").write_text(HEADER
                                      + f"os.write(reply_pipe(), {lie!r}.encode() + b'\\n')\nos._exit(0)\n")
    found = discover_bots(tmp_path)
    assert found.specs == [] and "the scan answered something else than bot classes" in found.broken["liar.py"]


@pytest.mark.parametrize("text, limits, reason", [
    # (the limit is the honest file's too: a fresh interpreter in a sandbox takes a third of a second on a busy machine)
    pytest.param("import time\ntime.sleep(60)\n", BotLimits(startup=5), "loading hangs.py: did not start within 5 s",
                 marks=pytest.mark.slow),
    ("import os\nos._exit(4)\n", BotLimits(startup=5), "loading hangs.py: loading exited with status 4"),
    ("import sys\nsys.exit(5)\n", BotLimits(), "failed to load: SystemExit: 5"),
])
def test_a_file_that_hangs_or_exits_while_loading_is_a_clear_fault_and_the_others_enter(tmp_path, text, limits,
                                                                                          reason):
    (tmp_path / "hangs.py").write_text(text)
    (tmp_path / "honest.py").write_text("from naipes.bots import Bot\n" + COMMON)
    found = discover_bots(tmp_path, limits)
    assert sorted(spec.rsplit(":", 1)[1] for spec in found.specs) == [
        "HardExits", "Honest", "Interrupts", "SleepsInObserve"]
    assert reason in found.broken["hangs.py"]


def hears_ctrl_c() -> None:
    """In the child: Ctrl-C as a terminal sends it (a shell ignores it in what it starts in the background,
    and children inherit that: Python then never raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("command", [["simulate", "fichas", "-n", "5"],
                                     ["tournament", "fichas", "-n", "4", "--jobs", "2"]])
def test_ctrl_c_stops_a_run_at_once_and_leaves_no_worker(tmp_path, command):
    (tmp_path / "signals.py").write_text(HOSTILE)  # a file of its own: its workers are the ones naming it
    spec = f"python:{tmp_path / 'signals.py'}:Signals"
    run = subprocess.Popen([sys.executable, "-m", "naipes.tools.cli", *command, "--seed", "1", "--time-limit", "60",
                            "--seat", spec, "--seat", "random"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=hears_ctrl_c)
    err = Lines(run.stderr)
    assert err.wait_for("NOTE thinking", 60)
    assert running(str(tmp_path / "signals.py"), wait=0)  # its worker, thinking
    run.send_signal(signal.SIGINT)
    run.wait(timeout=30)
    assert run.returncode == 130, err.text()
    assert "interrupted" in err.text()
    assert running(str(tmp_path / "signals.py")) == []


class Lines:
    """A stream's lines as they come (read by a thread of its own)."""

    def __init__(self, stream):
        self.lines = []
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for line in stream:
            self.lines.append(line)

    def wait_for(self, text, seconds):
        end = time.monotonic() + seconds
        while not any(text in line for line in self.lines) and time.monotonic() < end:
            time.sleep(0.05)
        return any(text in line for line in self.lines)

    def text(self):
        self.thread.join(timeout=10)
        return "".join(self.lines)


# ------------------------------------------------- the operating system's walls
SPY = r'''  # (a template: NOTE goes before it)
import ctypes, os, re
from naipes.bots import Bot

SECRETS = {secrets!r}  # what a bot must not find: the game's seed, its log's path, its environment, a bot's secret
LOG = {log!r}
KEEPER_SECRET = {keeper!r}


class Keeper(Bot):
    """Another bot, holding a secret of its own."""
    def __init__(self):
        self.secret = "".join(reversed(KEEPER_SECRET))[::-1]  # built here: in memory, not only in the source

    def decide(self, view, options):
        return 0


class Spy(Bot):
    """Tries every way it knows to the game and to other bots, once: what it found is its note."""
    def decide(self, view, options):
        if not getattr(self, "done", False):
            self.done = True
            note("spy", spy())
        return 0


def spy():
    me, libc = os.getpid(), ctypes.CDLL(None, use_errno=True)
    found = {{"others": [], "cmdline": [], "environ": [], "mem": [], "fd": [], "ptrace": [], "signal": [],
             "files": [], "inherited": []}}
    pid_max = min(int(open("/proc/sys/kernel/pid_max").read()), 1 << 17)
    for pid in range(1, pid_max + 1):  # every process id, whether /proc lists it or not
        if pid == me or not os.path.exists(f"/proc/{{pid}}"):
            continue
        cmdline = read(f"/proc/{{pid}}/cmdline")
        if cmdline is None or __file__.encode() not in cmdline:  # not of this bot's own sandbox
            found["others"].append(pid)
        if cmdline is None or b"naipes" not in cmdline:  # the game's and the bots' processes are what it wants
            continue
        for kind in ("cmdline", "environ"):
            text = read(f"/proc/{{pid}}/{{kind}}") or b""
            found[kind] += [[pid, s] for s in SECRETS if s.encode() in text]
        found["mem"] += [[pid, s] for s in memory_secrets(pid)]
        found["fd"] += [[pid, link] for _, link in links(f"/proc/{{pid}}/fd") if LOG in link]
        if libc.ptrace(0x4206, pid, 0, 0) == 0:  # PTRACE_SEIZE (it does not stop the process), then let go
            found["ptrace"].append(pid)
            libc.ptrace(17, pid, 0, 0)
        try:
            os.kill(pid, 0)
            found["signal"].append(pid)
        except OSError:
            pass
    if read(LOG) is not None:
        found["files"].append(LOG)
    for fd, link in links("/proc/self/fd"):
        if not re.match(r"(pipe:|/dev/null$|/proc/)", link):  # a file or a terminal of the game's
            found["inherited"].append([int(fd), link, "[trace]" in (read(link) or b"").decode(errors="replace")])
    return found


def read(path):
    try:
        with open(path, "rb") as file:
            return file.read(1 << 24)
    except OSError:
        return None


def links(folder):
    try:
        names = sorted(os.listdir(folder), key=int)
    except OSError:
        return []
    found = []
    for name in names:
        try:
            found.append((name, os.readlink(f"{{folder}}/{{name}}")))
        except OSError:  # (the descriptor that listed the folder, closed since)
            pass
    return found


def memory_secrets(pid):
    """The secrets in the writable memory of process `pid` (if it can be read at all)."""
    found = set()
    try:
        with open(f"/proc/{{pid}}/maps") as maps, open(f"/proc/{{pid}}/mem", "rb", 0) as mem:
            for line in maps:
                addresses, permissions = line.split()[:2]
                start, end = (int(x, 16) for x in addresses.split("-"))
                if permissions.startswith("rw") and end - start < 1 << 28:
                    try:
                        mem.seek(start)
                        chunk = mem.read(end - start)
                    except (OSError, OverflowError, ValueError):
                        continue
                    found |= {{s for s in SECRETS if s.encode() in chunk}}
    except OSError:
        pass
    return sorted(found)
'''
SEED = 424242


@pytest.fixture(scope="module")
def spied(tmp_path_factory):
    """A game played from the command line, its seed and log path on it, a secret in its environment, with
    --trace on a standard error that is a file, and two bots: a Spy, and a Keeper of a secret. What the spy found."""
    folder = tmp_path_factory.mktemp("spied")
    log, keeper = str(folder / "game.jsonl"), f"KEEPER-{secrets.token_hex(8)}"
    environment_secret = f"ENVIRONMENT-{secrets.token_hex(8)}"
    spy = folder / "spy.py"
    spy.write_text(NOTE + SPY.format(secrets=[f"--seed\x00{SEED}", log, environment_secret, keeper], log=log,
                              keeper=keeper))
    with open(folder / "stderr.txt", "w") as stderr:
        run = subprocess.run([sys.executable, "-m", "naipes.tools.cli", "play", "fichas", "--seed", str(SEED),
                              "--log", log, "--trace", "--time-limit", "60", "--seat", f"python:{spy}:Spy",
                              "--seat", f"python:{spy}:Keeper"],
                             stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=300,
                             env={**os.environ, "NAIPES_SECRET": environment_secret})
    err = (folder / "stderr.txt").read_text()
    assert run.returncode == 0, err
    [found] = bot_notes(err, "spy")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("attack", [
    "others",     # another process than its own can be named at all
    "cmdline",    # /proc/<game>/cmdline: the seed and the log's path
    "environ",    # /proc/<game>/environ: the game's environment
    "mem",        # /proc/<game or bot>/mem: the game's memory, another bot's secret
    "fd",         # /proc/<game>/fd: the game's open log
    "ptrace",     # tracing the game or another bot
    "signal",     # signalling them
    "files",      # the log, by its path
    "inherited",  # a descriptor of the game's (its standard error: the trace, every rule firing)
])
def test_a_bot_reaches_nothing_of_the_game_or_another_bot(spied, attack):
    assert spied[attack] == []


def test_a_bot_sees_a_clean_environment_and_only_its_own_descriptors(tmp_path, capsys):
    (tmp_path / "env.py").write_text(HEADER + '''
class Environment(Bot):
    def decide(self, view, options):
        note("environment", {"variables": dict(os.environ), "fds": sorted(map(int, os.listdir("/proc/self/fd")))})
        return 0
''')
    os.environ["NAIPES_SECRET"] = "not for bots"
    try:
        seat = make_bot_seat(f"python:{tmp_path / 'env.py'}:Environment", LIMITS)
        play_against_random(seat)
    finally:
        del os.environ["NAIPES_SECRET"]
    seat.close()
    seen = bot_notes(capsys.readouterr().err, "environment")[0]
    assert "NAIPES_SECRET" not in seen["variables"] and set(seen["variables"]) <= {
        "PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "PWD", "PYTHONHASHSEED",
        "PYTHONDONTWRITEBYTECODE"}
    assert len(seen["fds"]) == 6  # stdin, stdout and stderr, its two pipes, and the one listing the folder


@pytest.mark.slow
def test_a_process_in_a_session_of_its_own_ends_with_the_bot_and_a_piped_run_does_not_wait(folder):
    """A bot's process that left its group (a new session; a daemon's double fork) would hold the run's pipes:
    it cannot be started in a sandbox; elsewhere it is a fault and ends with the worker."""
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "naipes.tools.cli", "simulate", "fichas", "-n", "2", "--seed", "1",
                          "--seat", f"python:{folder / 'hostile.py'}:Detaches", "--seat", "random"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert time.monotonic() - start < 60
    assert running("4242.003") == [] and running("4242.004") == []
    assert ("raised BlockingIOError" in run.stdout             # no process at all (a sandbox; a user not root)
            or "decide started a process that outlived its call" in run.stdout)


@pytest.mark.skipif(os.geteuid() != 0, reason="without a sandbox, only root may start processes past the limit")
def test_without_a_sandbox_a_process_that_outlives_its_call_is_a_fault_and_ends(seated, monkeypatch):
    from naipes.agents import bot_process
    from naipes.agents.sandbox import Sandbox
    monkeypatch.setattr(bot_process, "sandbox", lambda: Sandbox(None, "a test"))
    seat = seated("Detaches")
    result, _ = play_against_random(seat)
    assert result.winners
    assert "decide started 2 processes that outlived its call" in seat.faults[0]
    assert running("4242.003") == [] and running("4242.004") == []


@pytest.mark.skipif(os.geteuid() != 0, reason="without a sandbox, only root may start processes past the limit")
def test_without_a_sandbox_a_fork_that_succeeds_is_a_fault(seated, monkeypatch):
    from naipes.agents import bot_process
    from naipes.agents.sandbox import Sandbox
    monkeypatch.setattr(bot_process, "sandbox", lambda: Sandbox(None, "a test"))
    seat = seated("Forks")
    assert play_against_random(seat)[0].winners
    assert "decide started a process (os.fork)" in seat.faults[0]


def test_without_bubblewrap_the_message_says_what_is_not_enforced(monkeypatch, capsys):
    from naipes.agents import sandbox
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    monkeypatch.setattr(sandbox.os, "access", lambda path, mode: False)
    sandbox.sandbox.cache_clear()
    try:
        assert sandbox.sandbox() == sandbox.Sandbox(None, "bubblewrap (bwrap) is not installed")
    finally:
        sandbox.sandbox.cache_clear()
    message = capsys.readouterr().err
    assert "Python bots run without a sandbox: bubblewrap (bwrap) is not installed" in message
    assert "command lines" in message and "memory" in message and "apt install bubblewrap" in message
