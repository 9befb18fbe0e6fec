"""Phases as a mapping.

Enter steps run in order on entering a phase, `goto` is checked, variants change steps by name.
"""
import pytest

from naipes import Game, RuleErrors, load_program
from naipes.program import WORD

from helpers import load_errors, write_rules

GAME = """
game: steps
players: 2
params:
  rounds: {default: 2}
state:
  log: "[]"
  rnd: 0
phases:
  deal:
    doc: a new rnd
    enter:
      - count_the_round: |
          rnd += 1
          log = log + ['count']
      - note_the_second_round:
          when: "rnd == 2"
          then: "log = log + ['second']"
      - start_playing: |
          log = log + ['start']
          goto play
      - never_reached: "log = log + ['never']"
  play:
rules:
  - name: play_a_round
    phase: play
    then: |
      log = log + ['play']
      if rnd >= rounds:
          end game
      else:
          goto deal
"""


def write(tmp_path, text, name="steps.yaml"):
    return write_rules(tmp_path, text, name)


def errors_of(tmp_path, text, name="steps.yaml"):
    return load_errors(write(tmp_path, text, name))


def run(path):
    game = Game(load_program(path), 0)
    game.start()
    return game.memory.vars["log"]


def test_enter_steps_run_in_order_with_their_conditions_and_stop_at_a_goto(tmp_path):
    assert run(write(tmp_path, GAME)) == ["count", "start", "play", "count", "second", "start", "play"]


def test_a_trace_reports_each_step_as_it_runs(tmp_path):
    game = Game(load_program(write(tmp_path, GAME)), 0)
    records = []
    game.listeners.append(records.append)
    game.start()
    steps = [r["step"] for r in records if r["type"] == "step"]
    assert steps == ["count_the_round", "start_playing", "count_the_round", "note_the_second_round", "start_playing"]
    entering = [r for r in records if r["type"] == "fire" and r["rule"] == "entering_deal"]
    assert len(entering) == 2 and all(r["steps"] for r in entering)


def test_a_variant_overrides_and_removes_steps_by_name(tmp_path):
    write(tmp_path, GAME)
    variant = write(tmp_path, """
        extends: steps.yaml
        game: steps_variant
        override:
          - name: count_the_round
            then: |
              rnd += 1
              log = log + ['counted']
        remove: [note_the_second_round]
        """, "variant.yaml")
    assert run(variant) == ["counted", "start", "play", "counted", "start", "play"]


def test_a_step_override_changes_only_the_keys_it_gives(tmp_path):
    # 'when' alone keeps the step's 'then'; 'doc' alone keeps the actions of a step written '- name: actions'.
    write(tmp_path, GAME)
    variant = write(tmp_path, """
        extends: steps.yaml
        game: steps_variant
        override:
          - name: note_the_second_round
            when: "rnd == 1"
          - name: count_the_round
            doc: one more round
        """, "variant.yaml")
    assert run(variant) == ["count", "second", "start", "play", "count", "start", "play"]


def test_a_variant_lists_phases_in_a_new_order_keeping_their_steps(tmp_path):
    write(tmp_path, GAME)
    variant = write(tmp_path, """
        extends: steps.yaml
        game: steps_variant
        phases: [deal, extra, play]
        """, "variant.yaml")
    program = load_program(variant)
    assert program.phases == ["deal", "extra", "play"]
    assert run(variant)[:2] == ["count", "start"]


def test_a_step_override_with_rule_keys_is_refused_where_written(tmp_path):
    write(tmp_path, GAME)
    errors = errors_of(tmp_path, """
        extends: steps.yaml
        game: v
        override:
          - name: count_the_round
            priority: 5
            then: "pass"
        """, "variant.yaml")
    assert "'priority' is not a key of a phase step" in errors[0].message
    assert errors[0].location.line == 5  # priority: 5


def test_goto_an_unknown_phase_is_a_located_error_with_a_suggestion(tmp_path):
    text = GAME.replace("goto play", "goto plya")
    errors = errors_of(tmp_path, text)
    assert errors[0].message == "unknown phase 'plya'"
    assert errors[0].hint == "did you mean 'play'?"
    written = text.lstrip("\n")
    assert errors[0].location.line == written.count("\n", 0, written.index("goto plya")) + 1


@pytest.mark.parametrize("statement", ["phase = 'plya'", "if phase == 'plya':\n          end game",
                                       "if phase in ['deal', 'plya']:\n          end game"])
def test_a_phase_name_misspelt_in_a_text_is_a_compile_error(tmp_path, statement):
    text = GAME.replace("      log = log + ['play']", "      " + statement)
    errors = errors_of(tmp_path, text)
    assert errors[0].message == "'plya' is not a value of phase"
    assert errors[0].hint == "did you mean 'play'?"


def test_the_conditional_goto_picks_its_phase(tmp_path):
    text = GAME.replace("          goto play\n      - never", "          goto play if rnd > 1 else play\n      - never")
    assert run(write(tmp_path, text))[:3] == ["count", "start", "play"]


def test_a_strategy_cannot_goto(tmp_path):
    game = write(tmp_path, GAME)
    strategy = tmp_path / "strategies" / "bad.yaml"
    strategy.parent.mkdir()
    strategy.write_text("game: steps\nrules:\n  - name: jump\n    then: goto play\n", encoding="utf-8")
    from naipes.agents.registry import load_strategy
    with pytest.raises(RuleErrors) as caught:
        load_strategy(strategy, load_program(game))
    assert "a strategy cannot" in caught.value.errors[0].message


@pytest.mark.parametrize("phases, message", [
    ("phases:\n  deal:\n    enter: shuffle\n", "the enter steps of phase 'deal' are a list"),
    ("phases:\n  deal:\n    enter:\n      - just text\n", "a step of phase 'deal' is '- name: actions'"),
    ("phases:\n  deal:\n    start: []\n", "unknown key 'start' in phase 'deal'"),
    ("phases:\n  deal:\n    enter:\n      - a: pass\n      - a: pass\n", "two steps are named 'a'"),
    ("phases: {deal: 3}\n", "phase 'deal' is a mapping"),
    ("phases: 3\n", "'phases' is a list of names"),
])
def test_badly_written_phases_are_located_errors(tmp_path, phases, message):
    errors = errors_of(tmp_path, "game: g\nplayers: 2\n" + phases + "rules:\n  - name: r\n    then: end game\n")
    assert message in errors[0].message
    assert errors[0].location is not None and errors[0].location.line >= 3


@pytest.mark.slow
def test_extends_names_a_shipped_rule_file_from_any_folder(tmp_path):
    variant = write(tmp_path, "extends: pocha\ngame: my_pocha\nparams:\n  peak: {default: 3}\n", "mine.yaml")
    program = load_program(variant)
    assert program.name == "my_pocha" and program.param_values["peak"] == 3
    errors = errors_of(tmp_path, "extends: pocah\ngame: x\n", "typo.yaml")
    assert "not found" in errors[0].message and errors[0].hint == "did you mean 'pocha'?"


STAGED = """
game: staged
players: 2
state:
  log: "[]"
  turn: "players[0]"
phases:
  play:
    stages: [draw, discard]
  done:
moves:
  draw:
    stage: draw
    then: |
      log = log + ['draw ' + stage]
      stage = 'discard'
      ask player to draw, discard
  discard:
    stage: discard
    then: |
      log = log + ['discard ' + stage]
      stage = 'draw'
      if len(log) >= 4:
          goto done
      else:
          ask player to draw, discard
setup: "ask turn to draw, discard"
rules:
  - name: finish
    phase: done
    then: "end game"
"""


def test_a_stage_offers_only_its_moves_and_a_turn_starts_in_the_first(tmp_path):
    game = Game(load_program(write(tmp_path, STAGED)), 0)
    game.start()
    assert game.memory.vars["stage"] == "draw"
    assert [o.move for o in game.options()] == ["draw"]
    game.apply(game.options()[0])
    assert [o.move for o in game.options()] == ["discard"] and game.view(0)["stage"] == "discard"
    while not game.over:
        game.apply(game.options()[0])
    assert game.memory.vars["log"] == ["draw draw", "discard discard", "draw draw", "discard discard"]
    assert game.memory.vars["stage"] is None  # `done` has no stages


@pytest.mark.parametrize("change, message, hint", [
    (("stage = 'discard'", "stage = 'discrad'"), "'discrad' is not a value of stage", "did you mean 'discard'?"),
    (("    stage: discard\n", "    stage: dicsard\n"), "move 'discard': unknown stage 'dicsard'",
     "did you mean 'discard'?"),
])
def test_a_misspelt_stage_is_a_located_error(tmp_path, change, message, hint):
    errors = errors_of(tmp_path, STAGED.replace(*change))
    assert errors[0].message == message and errors[0].hint == hint
    assert errors[0].location is not None


@pytest.mark.parametrize("variant", ["override:\n  - name: [1]\n    then: pass\n", "remove: [[1]]\n"])
def test_a_variant_naming_what_it_changes_with_a_list_gets_a_located_error(tmp_path, variant):
    write(tmp_path, GAME)
    errors = errors_of(tmp_path, "extends: steps.yaml\ngame: v\n" + variant, "variant.yaml")
    assert "name" in errors[0].message and errors[0].location.line >= 3


def test_extends_by_name_prefers_the_file_beside_the_variant(tmp_path):
    (tmp_path / "pocha.yaml").write_text("game: my_base\nplayers: 2\nrules:\n  - name: r\n    then: end game\n")
    program = load_program(write(tmp_path, "extends: pocha\ngame: mine\n", "mine.yaml"))
    assert [r.name for r in program.rules] == ["r"]


HALTING = """
game: halting
players: 2
state:
  log: "[]"
  rnd: 0
player_state:
  score: {init: 0}
evaluation: "player.score"
phases:
  deal:
    enter:
      - next_round: |
          if rnd >= 2:
              end game
          rnd += 1
      - to_the_scoring: goto score  # (nothing watched is written yet: the entry runs on)
  score:
    enter:
      - score_the_round: |
          for p in players:
              p.score += 1
      - bonus:
          when: "rnd == 1"
          then: |
            for p in players:
                p.score += 10
      - tidy_up: "TIDY"
      - next: goto deal
"""


def watched_run(path, halting: bool) -> Game:
    """A game watched for its evaluation's names, as a search's world is (halting: as it is; else with the
    memory's early stop turned off, so the entry runs to its end)."""
    game = Game(load_program(path), 0)
    game.pause_after(game.program.evaluation_reads)
    if not halting:
        game.memory.halt = None
    game.start()
    return game


def test_a_watched_entry_stops_after_the_last_step_that_can_change_what_is_watched(tmp_path):
    path = write(tmp_path, HALTING.replace("TIDY", "log = log + ['tidy']"))
    halted, whole = watched_run(path, True), watched_run(path, False)
    assert halted.paused and whole.paused
    scores = [[p.score for p in game.memory.players] for game in (halted, whole)]
    assert scores == [[11, 11], [11, 11]]  # the bonus step, which writes the score again, ran in both
    assert halted.memory.vars["log"] == [] and halted.memory.vars["phase"] == "score"  # tidy_up was skipped
    assert whole.memory.vars["log"] == ["tidy"] and whole.memory.vars["phase"] == "deal"


@pytest.mark.parametrize("tidy", ["log = log + ['tidy']\nif rnd > 5:\n    end game",  # may end the game
                                  "log = log + ['tidy']\nfor p in players:\n    p.score += 0"])  # writes the score
def test_a_watched_entry_runs_on_through_a_step_that_may_change_the_result(tmp_path, tidy):
    text = HALTING.replace('"TIDY"', "|\n          " + tidy.replace("\n", "\n          "))
    game = watched_run(write(tmp_path, text), True)
    assert game.paused and game.memory.vars["log"] == ["tidy"]  # tidy_up ran (the stop comes after it)
    assert game.memory.halted and game.memory.vars["phase"] == "score"


@pytest.mark.parametrize("rule", ['phase: score\n    when: "len(log) > 0"',  # a rule of the phase
                                  'when: "phase == \'score\' and len(log) > 0"'])  # a rule of every phase
def test_a_watched_entry_runs_on_when_a_rule_of_its_phase_may_change_the_result(tmp_path, rule):
    # without the entry's goto, the phase goes on after it: a rule may still write the score
    text = HALTING.replace("      - next: goto deal\n", "").replace('"TIDY"', "\"log = log + ['tidy']\"") + f"""
rules:
  - name: late_bonus
    {rule}
    then: |
      for p in players:
          p.score += 100
      log = []
      goto deal
"""
    halted, whole = watched_run(write(tmp_path, text), True), watched_run(write(tmp_path, text), False)
    assert [p.score for p in halted.memory.players] == [p.score for p in whole.memory.players] == [111, 111]
    assert not halted.memory.halted


# The rules of a phase with enter steps read what the steps set: their conditions are evaluated only once the
# steps have run (docs/language.md, Phases), on every entry, whatever guards them and whatever the strategy.
UPCARD = """
game: enter
players: {min: 2, max: 2, default: 2}
cards:
  attributes: {rank: int}
  generate: "[{'rank': r} for r in range(1, 7)]"
  name: "f'c{c.rank}'"
  start: deck
zones:
  deck: {visibility: hidden}
  table: {visibility: public}
state:
  upcard: {init: "None"}
  turn: {init: "0"}
phases:
  deal:
  play:
    enter:
      - turn_up: |
          move deck[0] to table
          upcard = table[0]
rules:
  - name: start
    when: "phase == 'deal'"
    then: |
      goto play
  - name: finish
    when: "phase == 'play' and upcard.rank > 0"
    then: |
      end game winner players[0]
"""


def test_a_rule_of_a_phase_reads_what_its_enter_steps_set(tmp_path):
    game = Game(load_program(write(tmp_path, UPCARD, "enter.yaml")), 0)
    game.start()
    assert game.memory.over and game.memory.winners == (0,)
    assert [card.name for card in game.memory.vars["table"]] == ["c1"]


ROUNDS = """
game: rounds
players: 2
strategy: STRATEGY
state:
  log: "[]"
  rnd: 0
  upcard: {init: "None"}
cards:
  attributes: {rank: int}
  generate: "[{'rank': r} for r in range(1, 4)]"
  name: "f'c{c.rank}'"
  start: deck
zones:
  deck: {visibility: hidden}
  table: {visibility: public}
phases:
  deal:
  play:
    enter:
      - count_the_round: "rnd += 1"
      - turn_up: |
          move deck[0] to table
          upcard = table[-1]
rules:
  - name: deal_again
    phase: deal
    then: |
      upcard = None
      goto play
  - name: look
    GUARD
    then: |
      log = log + [('look', rnd)]
  - name: each_player
    phase: play
    for: p in players
    when: "upcard.rank > p.index"
    then: |
      log = log + [('player', p.index, rnd)]
  - name: next_round
    phase: play
    priority: -1
    then: |
      if rnd >= 2:
          end game
      else:
          goto deal
"""
GUARDS = {"phase": "phase: play\n    when: \"upcard.rank == rnd\"",
          "leading test": "when: \"phase == 'play' and upcard.rank == rnd\""}


@pytest.mark.parametrize("strategy", ["declaration", "depth", "breadth", "lex", "mea", "random"])
@pytest.mark.parametrize("guard", sorted(GUARDS))
def test_the_rules_of_a_phase_wait_for_its_enter_steps_on_every_entry(tmp_path, strategy, guard):
    text = ROUNDS.replace("STRATEGY", strategy).replace("GUARD", GUARDS[guard])
    game = Game(load_program(write(tmp_path, text, "rounds.yaml")), 0)
    game.start()  # (upcard is None in deal: a condition of play evaluated before turn_up would fail)
    assert game.memory.over
    log = game.memory.vars["log"]
    for rnd, rank in ((1, 1), (2, 2)):  # each round turns up the next card: rank == rnd
        assert ("look", rnd) in log
        assert {entry[1] for entry in log if entry[0] == "player" and entry[2] == rnd} == set(range(rank))
    assert len(log) == 5  # look, player 0 in the first round; look, players 0 and 1 in the second


@pytest.mark.parametrize("first", ["play", "deal"])
def test_a_phase_waits_for_its_steps_in_a_program_of_many_words(tmp_path, first):
    """The game starts in the phase with enter steps, or enters it by a goto; its rule stands in another word of
    the agenda than its entry (more than WORD rules)."""
    deal = "  - name: go_play\n    phase: deal\n    then: goto play\n"
    phases = "  play:\n    enter:\n      - open: \"hand = [3]\"\n  deal:\n  later:"
    if first == "deal":
        phases = "  deal:\n" + phases.replace("  deal:\n", "")
    idle = "".join(f"  - name: idle_{i}\n    phase: later\n    priority: 5\n    then: pass\n" for i in range(WORD + 2))
    text = f"""
game: many
players: 2
state:
  log: "[]"
  hand: {{init: "None"}}
phases:
{phases}
rules:
{idle}{deal}  - name: read_the_hand
    phase: play
    when: "hand[0] == 3"
    then: |
      log = log + ['read']
      end game
"""
    program = load_program(write(tmp_path, text, "many.yaml"))
    assert len(program.matchings) > 1
    game = Game(program, 0)
    game.start()
    assert game.memory.over and game.memory.vars["log"] == ["read"]


def test_a_goto_in_a_step_enters_the_next_phase_whose_rules_wait_for_its_own_steps(tmp_path):
    text = """
game: chain
players: 2
state:
  log: "[]"
  hand: {init: "None"}
phases:
  deal:
    enter:
      - leave: |
          log = log + ['deal']
          goto play
  play:
    enter:
      - open: |
          log = log + ['open']
          hand = [3]
rules:
  - name: read_the_hand
    phase: play
    when: "hand[0] == 3"
    then: |
      log = log + ['read']
      end game
"""
    game = Game(load_program(write(tmp_path, text, "chain.yaml")), 0)
    game.start()
    assert game.memory.over and game.memory.vars["log"] == ["deal", "open", "read"]


RESETS = """
game: resets
players: 2
params:
  hands: {default: 3}
state:
  hand: 0
  log: "[]"
  raised: {init: "False", reset: deal}
  stake: {init: "hand * 10", reset: deal}   # the init is computed again at each reset, from the state then
player_state:
  taken: {init: "player.index", reset: deal}
phases:
  deal:
    enter:
      - count: |
          hand += 1
          log = log + [(hand, raised, stake, [p.taken for p in players])]
          goto play
  play:
  scoring:
rules:
  - name: play_it
    phase: play
    then: |
      raised = True
      stake += 5
      for p in players:
          p.taken += 7
      goto scoring
  - name: next_hand
    phase: scoring
    then: |
      log = log + [('scored', stake)]
      if hand >= hands:
          end game
      else:
          goto deal
"""


def test_variables_reset_start_again_from_their_init_on_entering_their_phase(tmp_path):
    # before the deal's steps: each hand sees False, 10 * the hand before, and each player's own index
    assert run(write(tmp_path, RESETS)) == [
        (1, False, 0, [0, 1]), ("scored", 5), (2, False, 10, [0, 1]), ("scored", 15),
        (3, False, 20, [0, 1]), ("scored", 25)]


def test_a_phase_without_enter_steps_resets_before_its_rules_see_the_variables(tmp_path):
    # scoring has no enter steps: resetting 'stake' there, its rule reads the init
    text = RESETS.replace('stake: {init: "hand * 10", reset: deal}', 'stake: {init: "hand * 10", reset: scoring}')
    log = run(write(tmp_path, text))
    assert [entry for entry in log if entry[0] == "scored"] == [("scored", 10), ("scored", 20), ("scored", 30)]


def test_a_reset_that_names_no_phase_is_a_located_error_with_a_suggestion(tmp_path):
    errors = errors_of(tmp_path, RESETS.replace("reset: deal}", "reset: dael}", 1))
    assert "'reset' names the phase" in errors[0].message and "'dael' is not a phase" in errors[0].message
    assert errors[0].location.line == 8 and "deal" in (errors[0].hint or "")


def test_goto_the_phase_it_is_in_enters_it_again(tmp_path):
    # a rule of 'play' that goes to 'play' runs its entry again: the resets and the enter steps
    text = """
game: again
players: 1
state:
  log: "[]"
  rounds: 0
  stake: {init: 1, reset: play}
phases:
  play:
    enter:
      - note_it: "log = log + [('entered', stake)]"
rules:
  - name: raise_and_play_again
    phase: play
    then: |
      stake += 10
      rounds += 1
      log = log + [('played', stake)]
      if rounds == 3:
          end game
      else:
          goto play
"""
    assert run(write(tmp_path, text)) == [("entered", 1), ("played", 11), ("entered", 1), ("played", 11),
                                           ("entered", 1), ("played", 11)]


ASKED_THEN_LEFT = """
game: asked_then_left
players: 2
state:
  turn: "players[0]"
  moves: 0
  hands: 0
moves:
  go:
    then: |
      moves += 1
      turn = next_player(player)
  draw:
    then: "moves += 1"
phases:
  play:
    enter:
      - new_hand: |
          moves = 0
          hands += 1
  other:
rules:
  - name: ask_to_go
    phase: play
    when: "turn is not None"
    then: "ask turn to go"
  - name: hand_over   # (declared after ask_to_go: fires after it, in the same settle)
    phase: play
    when: "moves >= 3"
    then: "goto GOAL"
  - name: ask_to_draw
    phase: other
    then: "ask players[1] to draw"
  - name: the_end
    phase: other
    when: "moves >= 4"
    then: "end game"
"""


@pytest.mark.parametrize("goal", ["play", "other"])
def test_a_decision_asked_before_a_goto_is_withdrawn_and_the_phase_entered_asks_its_own(tmp_path, goal):
    # ask_to_go asks, then hand_over leaves the phase before the decision is put: the decision was the phase left's.
    # Entered again, the phase asks the player whose turn it is (it was "asked P2 to go while P2 still has to go");
    # entered for another, its own rule asks for its own move
    text = ASKED_THEN_LEFT.replace("GOAL", goal).replace('"moves >= 3"', '"moves >= 3 and hands < 3"'
                                                         if goal == "play" else '"moves >= 3"')
    game = Game(load_program(write(tmp_path, text)), 0)
    game.listeners.append(lambda record: record["type"] == "decision" and made.append(record["move"]))
    made: list[str] = []
    game.start()
    while not game.memory.over and len(made) < 9:
        game.apply(game.options()[0])
    if goal == "play":  # three moves a hand, each after the first asked in the phase entered again
        assert made == ["go"] * 9
        assert (game.memory.vars["hands"], game.memory.vars["moves"]) == (3, 3)
        assert game.memory.pending == (game.memory.vars["turn"], ("go",))
    else:
        assert game.memory.over and made == ["go"] * 3 + ["draw"]
