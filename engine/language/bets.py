"""The ``bets:`` section: a call that waits for an answer, written once for every betting game.

A bet is a ladder of calls (Truco's truco, retruco, vale cuatro; Mus's envido
and órdago; poker's bet and raises) that a player makes and an opponent must
answer: accept, refuse, or call again, which accepts what it answers. What
every such bet keeps is the same (the calls made, how many are accepted, who
must answer, who made the last call, which side may raise next), and so are
the moves that change it; only what the calls are worth, when one may be
made and what an answer does are the game's. This module expands each
declared bet into ordinary state variables, functions and moves of the rule
tree before the section readers see it (a desugaring: nothing new reaches the
engine), so the expanded file is checked, compiled and run as if written out
by hand, but for one thing: what the bet makes is code already parsed
(:class:`naipes.language.code.Code`), not text.

For a bet NAME the file gets:

- state ``NAME_calls`` (the calls made, in order), ``NAME_accepted`` (how many
  of them are accepted), ``NAME_asked`` (who must answer; None: nothing waits),
  ``NAME_by`` (who made the last call), ``NAME_raiser`` (the team that may call
  next once a call is accepted; -1: either), with ``size:`` ``NAME_sizes`` (the
  amount of each call), with ``answerers:`` ``NAME_next`` (who is asked next
  if the one asked refuses), each started again by ``reset:``;
- functions ``NAME_answering(p)`` (p must answer it now), ``NAME_options(p)``
  (the calls p may make now), ``NAME_worth(k)``, ``NAME_amount(i)`` (what the
  i-th call made is worth: its size, or its worth), ``NAME_stake()`` (what the
  bet stands at as accepted: what a refusal pays) and ``NAME_value()`` (what it
  stands at if the last call is accepted);
- the move that makes a call (``move:``, default NAME; or a move for each
  call, a move of one call making it without a choice, or for the amount it
  chooses if the call is sized) and the answer move (``answer:``, default
  ``answer``; bets that name the same answer move share it, and an answer goes
  to the first of them, in the order declared, that waits for the player).

Each function, condition and action block is made from a template of the
engine's own, located at the bet's declaration, with holes that the file's own
texts (conditions, worths, sizes, actions) fill: each is parsed by itself, so
its nodes are where the file wrote it (an error in it is located there), and it
is put into the template's tree as a node, so it can never change the structure
around it. Names and calls are checked before they are written into a
template: a name is an identifier, a call plain words.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import Location, did_you_mean
from . import code, rounds
from .code import Code
from .compiler import identifier_problem, move_name_problem
from .loader import Map, Seq, location_of
from .rounds import CALL, ROUND_KEYS, Declared, Report, Round, given, given_actions, made, made_block
from .sections import SIGNATURE
from .shapes import shape_errors
from .vocabulary import BET, RULE_FILE

GENERATED_MOVE_KEYS = ("choose", "space", "when", "then")  # what a bet writes of its moves (the file: the rest)
RAISERS = ("accepter", "any")  # who may call next after an accept: the accepter's team, or either
ANSWERED_BY = ("player", "team")  # who may answer: the player asked, or any member of his team


@dataclass
class _Bet:
    """One declared bet, its keys read and checked."""

    name: str
    spec: Map
    loc: Location
    calls: list[str]
    moves: dict[str, list[str]]  # each call move, and the calls it makes
    named: bool  # `move:` named a move for each call (a move of one call then takes no choice, or its amount)
    answer: str
    answers: tuple[str, str]
    raiser: str  # who may call after an accept: accepter or any
    sizes: dict[str, Any]  # a sized call, and the expression of the amounts it may be made for

    @property
    def move(self) -> str:
        """The first call move (the one a doc names)."""
        return next(iter(self.moves))

    def key(self, key: str) -> Any:
        return self.spec.get(key)

    def place(self, key: str) -> Location:
        return self.spec.loc(key) if key in self.spec else self.loc


def expand_bets(tree: Map, report: Report) -> tuple[Map, set[str]]:
    """`tree` with its `bets:` written out as state, functions and moves (the tree itself if it declares none), and
    the names the bets refused (each reported) would have made (see Symbols.unmade)."""
    bets = tree.get("bets")
    if not isinstance(bets, Map) or not bets:
        return tree, set()
    misshapen = shape_errors(_map(tree.where, bets=bets), RULE_FILE)
    for problem in misshapen:
        report(problem.message, problem.location or bets.where, problem.hint)
    if misshapen:
        return tree, {made for name, spec in bets.items() for made in _unmade(str(name), spec, bets.key_loc(name))}
    ladders: list[_Bet | None] = []
    betting: list[Round | None] = []
    unmade: set[str] = set()
    told: list[str] = []

    def tell(message: str, at: Location, hint: str | None) -> None:
        told.append(message)
        report(message, at, hint)
    for name, spec in bets.items():
        before = len(told)
        if isinstance(spec, Map) and "round" in spec:
            betting.append(rounds.read_round(str(name), spec, bets.key_loc(name), tree, tell))
            read = betting[-1] is not None
        else:
            ladders.append(_read(str(name), spec, bets.key_loc(name), tell))
            read = ladders[-1] is not None
        if not read or len(told) > before:  # (refused, or made without what a wrong key would have given)
            unmade |= _unmade(str(name), spec, bets.key_loc(name))
    declared = [bet for bet in ladders if bet is not None]
    out = _copy(tree)
    sections = {key: _copy(_section(tree, key)) for key in ("state", "player_state", "functions", "moves", "phases")}
    state, functions, moves = sections["state"], sections["functions"], sections["moves"]
    written = {m.group(1): key for key in functions if (m := SIGNATURE.match(str(key)))}  # name -> signature

    def put_function(bet: Declared, signature: str, body: Code) -> None:
        name = signature.split("(")[0]
        if name in written:
            report(f"the bet '{bet.name}' makes the function '{name}', and the file declares one of that name",
                   functions.key_loc(written[name]), f"the bet is declared at {bet.loc}")
            del functions[written[name]]  # (the bet's stands, for what follows)
        _put(functions, signature, body, bet, "function", report)
    for bet in declared:
        for name, spec in _variables(bet).items():
            _put(state, name, spec, bet, "state variable", report)
        for signature, body in _functions(bet, declared).items():
            put_function(bet, signature, body)
        for move, calls in bet.moves.items():
            _put_move(moves, move, _call_move(bet, move, calls), bet, report)
    for r in (r for r in betting if r is not None):
        _write_round(r, sections, put_function, report)
    for answer in dict.fromkeys(bet.answer for bet in declared):
        sharing = [bet for bet in declared if bet.answer == answer]
        for bet in sharing[1:]:
            if bet.answers != sharing[0].answers:
                report(f"the bets '{sharing[0].name}' and '{bet.name}' share the move '{answer}' and must give the "
                       f"same answers", bet.place("answers"), f"'{sharing[0].name}' gives {list(sharing[0].answers)}")
        _put_move(moves, answer, _answer_move(sharing), sharing[0], report)
    for key, section in sections.items():
        if not section and not isinstance(tree.get(key), Map):
            continue  # (nothing made for it, and the file gives none or another shape, which its reader reports)
        out[key] = section
        out.key_locs.setdefault(key, bets.where)
        out.value_locs.setdefault(key, bets.where)
    del out["bets"]
    return out, unmade


def _unmade(name: str, spec: Any, loc: Location) -> set[str]:
    """The names the bet `name` would have made (its variables, functions and moves, and the choices k and n its
    moves make), read from a stand-in for it with every optional key: what a refused bet's uses name."""
    spec = spec if isinstance(spec, Map) else _map(loc)
    if "round" in spec:
        betting = Round(name, _map(loc), loc, "", "chips", {a: a for a in rounds.ACTIONS}, {"min": "0"}, None)
        made = [*(v for variables in rounds.variables(betting) for v in variables), *rounds.functions(betting)]
        moves = [*rounds.ACTIONS]
    else:
        bet = _Bet(name, _map(loc, answerers="[]"), loc, ["call"], {name: ["call"]}, False, "answer",
                   ("accept", "refuse"), RAISERS[0], {"call": "1"})
        made = [*_variables(bet), *_functions(bet, [bet])]
        moves = [name, str(spec.get("answer", "answer"))]
    given = spec.get("move")
    moves += [str(m) for m in given.values()] if isinstance(given, Map) else [str(given)] if given else []
    return {signature.split("(")[0] for signature in made} | set(moves) | {"k", "n"}


def _write_round(r: Round, sections: dict[str, Map], put_function: Callable[[Declared, str, Code], None],
                 report: Report) -> None:
    """A round of betting written out: its variables, functions, moves and the step posting its blinds."""
    for section, variables in zip(("state", "player_state"), rounds.variables(r)):
        for name, (init, reset, shown, doc) in variables.items():
            spec = _map(r.loc, init=made(r, init), show=shown, doc=doc, **({"reset": reset} if reset else {}))
            if reset and "reset" in r.spec and reset != r.phase:
                spec.value_locs["reset"] = r.place("reset")
            _put(sections[section], name, spec, r, "player variable" if section == "player_state" else
                 "state variable", report)
    for signature, function in rounds.functions(r).items():
        put_function(r, signature, function)
    for move, keys in rounds.moves(r).items():
        _put_move(sections["moves"], move, _map(r.loc, **keys), r, report)
    made_step = rounds.blinds_step(r)
    if made_step is None:
        return
    step, step_keys = made_step
    phases = sections["phases"]
    body = phases.get(r.phase)
    phase = _copy(body) if isinstance(body, Map) else _map(phases.key_loc(r.phase))
    steps = phase.get("enter")
    enter = Seq(steps) if isinstance(steps, Seq) else Seq()
    enter.where = phase.loc("enter")
    enter.item_locs = list(steps.item_locs) if isinstance(steps, Seq) else []
    if any(isinstance(s, Map) and step in s for s in enter):
        report(f"the bet '{r.name}' makes the step '{step}' of phase '{r.phase}', and the file declares one of that "
               f"name", phase.loc("enter"), f"the bet is declared at {r.loc}")
    where = r.spec["blinds"].key_loc(step)
    enter.insert(0, _map(where, **{step: _map(where, **step_keys)}))
    enter.item_locs.insert(0, where)
    phase["enter"] = enter
    phase.key_locs.setdefault("enter", where)
    phase.value_locs.setdefault("enter", where)
    phases[r.phase] = phase


def _read(name: str, spec: Map, loc: Location, report: Report) -> _Bet | None:
    for key in spec:
        if key in ROUND_KEYS - {"move", "reset", "doc"}:
            report(f"'{key}' is a key of a round of betting (give 'round: PHASE'), not of a bet answered once",
                   spec.key_loc(key), None)
        elif key not in BET.keys:
            report(f"unknown key '{key}' in bets '{name}'", spec.key_loc(key),
                   did_you_mean(str(key), BET.keys) or f"allowed: {', '.join(sorted(BET.keys))}")
    problem = identifier_problem(name, "bet")
    if problem:
        report(problem, loc, None)
        return None
    calls = spec.get("calls")
    if not isinstance(calls, Seq) or not calls:
        report(f"the bet '{name}' needs its calls: 'calls: [CALL, ...]', in the order they raise",
               spec.loc("calls") if "calls" in spec else loc, None)
        return None
    answers = spec.get("answers", Seq(["accept", "refuse"]))
    if not isinstance(answers, Seq) or len(answers) != 2:
        report(f"bets '{name}': 'answers' is two words, accepting then refusing: [quiero, no quiero]",
               spec.loc("answers"), None)
        return None
    words = [(str(w), location_of(w, spec.loc(key))) for key in ("calls", "answers") for w in spec.get(key, ())]
    bad = [(w, at) for w, at in words if not CALL.fullmatch(w)]
    for word, at in bad:
        report(f"bets '{name}': the call or answer '{word}' must be words (letters, digits, spaces, '.', '-')", at,
               None)
    calls = Seq(c for c in calls if CALL.fullmatch(str(c))) or calls  # (a bad call is reported: go on without it)
    words = [(w, at) for w, at in words if CALL.fullmatch(w)]
    if len({w for w, _ in words}) < len(words):
        report(f"bets '{name}': a call or an answer is given twice", spec.loc("calls"), None)
        return None
    by_move = _moves(name, spec, [str(c) for c in calls], report)
    answer = str(spec.get("answer", "answer"))
    if by_move is None:
        return None
    for value in [answer, *by_move]:
        problem = move_name_problem(value)
        if problem:
            report(problem, spec.loc("answer" if value == answer else "move"), None)
            return None
    sizes = _sizes(name, spec, by_move, report)
    if "answerer" in spec and "answerers" in spec:  # (reported: the answerers stand, for what follows)
        report(f"bets '{name}': give 'answerer' (one player) or 'answerers' (players in order), not both",
               spec.key_loc("answerers"), None)
    raiser = str(spec.get("raiser", "accepter"))
    for key, value, allowed in (("raiser", raiser, RAISERS), ("answered_by", spec.get("answered_by", "player"),
                                                                   ANSWERED_BY)):
        if value not in allowed:
            report(f"bets '{name}': '{key}' is one of {', '.join(allowed)}", spec.loc(key),
                   did_you_mean(str(value), allowed))
    raiser = raiser if raiser in RAISERS else RAISERS[0]
    worth = spec.get("worth")
    if isinstance(worth, Seq) and (len(worth) != len(calls) or not all(
            isinstance(w, (int, float)) and not isinstance(w, bool) for w in worth)):
        report(f"bets '{name}': 'worth' is a number for each call ({len(calls)}), or an expression of the call k",
               spec.loc("worth"), None)
        return None
    if any(not CALL.fullmatch(w) for w in answers) or not all(CALL.fullmatch(str(c)) for c in calls):
        return None
    return _Bet(name, spec, loc, [str(c) for c in calls], by_move, isinstance(spec.get("move"), Map), answer,
                (str(answers[0]), str(answers[1])), raiser, sizes)


def _moves(name: str, spec: Map, calls: list[str], report: Report) -> dict[str, list[str]] | None:
    """Each call move and its calls: `move:` names one move for every call, or a move for each call."""
    given = spec.get("move", name)
    if not isinstance(given, Map):
        return {str(given): calls}
    for call in given:
        if str(call) not in calls:
            report(f"bets '{name}': 'move' names a move for '{call}', which is not one of its calls",
                   given.key_loc(call), did_you_mean(str(call), calls) or f"calls: {', '.join(calls)}")
    missing = [call for call in calls if call not in given]
    if missing:  # (reported: the bet's own name makes them, for what follows)
        report(f"bets '{name}': 'move' gives no move for the call '{missing[0]}' (a move for each call, or one "
               f"name for all)", spec.loc("move"), None)
    by_move: dict[str, list[str]] = {}
    for call in calls:
        by_move.setdefault(str(given.get(call, name)), []).append(call)
    return by_move


def _sizes(name: str, spec: Map, moves: dict[str, list[str]], report: Report) -> dict[str, Any]:
    """The sized calls and their amounts' expressions; a sized call needs a move of its own (a wrong one is
    reported and left out)."""
    given = spec.get("size")
    if not isinstance(given, Map):
        return {}  # (none, or the shape check reported it)
    calls = [call for made in moves.values() for call in made]
    sizes = {}
    for call in given:
        if str(call) not in calls:
            report(f"bets '{name}': 'size' gives the amounts of '{call}', which is not one of its calls",
                   given.key_loc(call), did_you_mean(str(call), calls) or f"calls: {', '.join(calls)}")
        elif not isinstance(spec.get("move"), Map) or any(str(call) in made and len(made) > 1
                                                           for made in moves.values()):
            report(f"bets '{name}': the sized call '{call}' needs a move of its own (it chooses the amount): "
                   f"'move: {{{call}: MOVE, ...}}'", given.key_loc(call), None)
        else:
            sizes[str(call)] = given[call]
    return sizes


def _section(tree: Map, key: str) -> Map:
    value = tree.get(key)
    if isinstance(value, Map):
        return value
    empty = Map()
    empty.where, empty.key_locs, empty.value_locs = tree.where, {}, {}
    return empty


def _copy(entries: Map) -> Map:
    out = Map(entries)
    out.where, out.key_locs, out.value_locs = entries.where, dict(entries.key_locs), dict(entries.value_locs)
    return out


def _map(loc: Location, **items: Any) -> Map:
    out = Map(items)
    out.where, out.key_locs, out.value_locs = loc, dict.fromkeys(items, loc), dict.fromkeys(items, loc)
    return out


def _put(section: Map, key: str, value: Any, bet: Declared, what: str, report: Report) -> None:
    if key in section:
        report(f"the bet '{bet.name}' makes the {what} '{key}', and the file declares one of that name",
               section.key_loc(key), f"the bet is declared at {bet.loc}")  # (the bet's stands, for what follows)
    section[key] = value
    section.key_locs[key] = section.value_locs[key] = bet.loc


def _put_move(moves: Map, name: str, generated: Map, bet: Declared, report: Report) -> None:
    """The generated move, merged into the file's entry of that name (which may give its doc, label, verb...)."""
    given = moves.get(name)
    if given is None or not isinstance(given, Map):
        moves[name] = generated
        moves.key_locs[name] = moves.value_locs[name] = bet.loc
        return
    merged = _copy(given)
    for key, value in generated.items():
        if key in given and key in GENERATED_MOVE_KEYS:
            report(f"move '{name}' is made by the bet '{bet.name}', which writes its {key}", given.key_loc(key),
                   "the file may give it its doc, label, public, verb and stage")
        elif key not in given:
            merged[key] = value
            merged.key_locs[key] = merged.value_locs[key] = bet.loc
    moves[name] = merged


def _calls_list(bet: _Bet) -> str:
    return "[" + ", ".join(f"'{c}'" for c in bet.calls) + "]"


def _variables(bet: _Bet) -> dict[str, Map]:
    b, loc = bet.name, bet.loc
    reset = {"reset": bet.key("reset")} if "reset" in bet.spec else {}
    kept = {
        "calls": ("[]", True, f"the calls of the bet '{b}' made so far, in order (accepted, then the one waiting)"),
        "accepted": ("0", False, f"how many of {b}_calls are accepted"),
        "asked": ("None", False, f"who must answer the last call of '{b}' (None: no call waits)"),
        "by": ("None", False, f"who made the last call of '{b}'"),
        "raiser": ("-1", False, f"the team that may call '{b}' next once a call is accepted (-1: either)"),
    }
    if bet.sizes:
        kept["sizes"] = ("[]", True, f"the amount of each call in {b}_calls (None: a call made for no amount)")
    if "answerers" in bet.spec:
        kept["next"] = ("[]", False, f"who is asked the last call of '{b}' next if {b}_asked refuses it")
    variables = {f"{b}_{key}": _map(loc, init=made(bet, init), show=show, doc=doc, **reset)
                 for key, (init, show, doc) in kept.items()}
    for variable in variables.values():
        variable.value_locs["reset"] = bet.place("reset")
    return variables


def _functions(bet: _Bet, bets: list[_Bet]) -> dict[str, Code]:
    b = bet.name
    earlier = [other for other in bets[:bets.index(bet)] if other.answer == bet.answer]
    first = "" if not earlier else "".join(f" and {o.name}_asked is None" for o in earlier)
    asked = (f"{b}_asked is not None and team(p) == team({b}_asked)" if bet.key("answered_by") == "team"
             else f"{b}_asked == p")
    holes = {key: given(bet, key) for key in ("follows", "open", "base") if key in bet.spec}
    follows = ("($follows)" if "follows" in holes
               else f"len({b}_calls) < {len(bet.calls)} and k == {_calls_list(bet)}[len({b}_calls)]")
    opens = "($open)" if "open" in holes else "True"
    base = "$base" if "base" in holes else "0"
    worth = bet.key("worth")
    if worth is not None and not isinstance(worth, Seq):
        worth_code = given(bet, "worth")
    else:  # a number for each call (by default its place in the ladder: 1, 2, 3, ...)
        numbers = list(worth) if isinstance(worth, Seq) else list(range(1, len(bet.calls) + 1))
        worth_code = made(bet, "".join(f"{w!r} if k == '{c}' else " for w, c in zip(numbers[:-1], bet.calls)) +
                          repr(numbers[-1]))
    total = f"sum({b}_amount(i) for i in range(N))" if bet.key("adds") is True else f"{b}_amount(N - 1)"

    def stake(count: str) -> Code:
        """What the bet stands at with its first `count` calls accepted: their worths added up (adds: true) or
        the last one's."""
        return made(bet, total.replace("N", count) + f" if {count} > 0 else {base}", **holes)

    amount = (f"{b}_sizes[i] if {b}_sizes[i] is not None else {b}_worth({b}_calls[i])" if bet.sizes
              else f"{b}_worth({b}_calls[i])")
    return {
        f"{b}_answering(p)": made(bet, asked + first),
        f"{b}_options(player)": made(
            bet, f"[k for k in {_calls_list(bet)} if ({b}_answering(player) or ({b}_asked is None and ({opens}) and "
                 f"({b}_raiser == -1 or {b}_raiser == team(player)))) and {follows}]", **holes),
        f"{b}_worth(k)": worth_code,
        f"{b}_amount(i)": made(bet, amount),
        f"{b}_stake()": stake(f"{b}_accepted"),
        f"{b}_value()": stake(f"len({b}_calls)"),
    }


def _call_move(bet: _Bet, move: str, calls: list[str]) -> Map:
    """The move that makes `calls`: it chooses the call k among them, or (a move named for one call) makes that
    call, for the amount n it chooses if the call is sized."""
    b = bet.name
    holes = {key: given(bet, key) for key in ("when", "answerer", "answerers") if key in bet.spec}
    if "answerers" in holes:
        who = f"{b}_next = list($answerers)\n{b}_asked = {b}_next[0]\n{b}_next = {b}_next[1:]"
    else:
        who = f"{b}_asked = " + ("($answerer)" if "answerer" in holes else "next_player(player)")
    single = bet.named and len(calls) == 1
    call = f"'{calls[0]}'" if single else "k"
    size = calls[0] in bet.sizes if single else False
    sizes = f"{b}_sizes = {b}_sizes + [{'n' if size else 'None'}]\n" if bet.sizes else ""
    then = made_block(bet, f"if {b}_answering(player):\n    {b}_accepted = len({b}_calls)\n"
                           f"{b}_calls = {b}_calls + [{call}]\n{sizes}{b}_by = player\n{who}", **holes)
    when = "($when)" if "when" in holes else "True"
    if "answerers" in holes:  # a call nobody may answer is not offered (rather than failing once made)
        when += " and len(list($answerers)) > 0"
    if not single:
        listed = "[" + ", ".join(f"'{c}'" for c in calls) + "]"
        options = f"{b}_options(player)" if calls == bet.calls else f"[c for c in {b}_options(player) if c in {listed}]"
        return _map(bet.loc, choose=made(bet, f"k in {options}"), space=made(bet, listed),
                    when=made(bet, when, **holes), label=made(bet, "k"), then=then)
    when += f" and {call} in {b}_options(player)"
    if not size:
        return _map(bet.loc, when=made(bet, when, **holes), label=made(bet, call), then=then)
    amounts = code.given_expression(bet.sizes[calls[0]], bet.spec["size"].loc(calls[0]), f"'size' of bet '{b}'")
    return _map(bet.loc, choose=made(bet, "n in ($amounts)", amounts=amounts), when=made(bet, when, **holes),
                label=made(bet, f"{call} + ' ' + str(n)"), then=then)


def _answer_move(bets: list[_Bet]) -> Map:
    first = bets[0]
    accept, refuse = first.answers
    template, holes = "", {}
    for i, bet in enumerate(bets):
        b = bet.name
        template += (f"{'if' if i == 0 else 'elif'} {b}_answering(player):\n    if k == '{accept}':\n"
                     f"        {b}_accepted = len({b}_calls)\n")
        if bet.raiser == "accepter":
            template += f"        {b}_raiser = team(player)\n"
        for key, lines in (("accepted", ""), ("refused", "    else:\n")):
            if key == "refused" and "answerers" in bet.spec:  # a refusal asks the next of them, while one is left
                template += (f"    elif len({b}_next) > 0:\n        {b}_asked = {b}_next[0]\n"
                             f"        {b}_next = {b}_next[1:]\n")
            template += lines + (f"        ${key}{i}\n" if key in bet.spec else "        pass\n")
            template += f"        {b}_asked = None\n"
            if key in bet.spec:
                holes[f"{key}{i}"] = given_actions(bet, key)
    either = " or ".join(f"{bet.name}_answering(player)" for bet in bets)
    return _map(first.loc, choose=made(first, f"k in ['{accept}', '{refuse}']"),
                space=made(first, f"['{accept}', '{refuse}']"), when=made(first, either), label=made(first, "k"),
                then=made_block(first, template, **holes))
