"""A round of betting: a bet (`bets:` NAME with `round: PHASE`) that every player still in answers in turn.

Poker's betting round, as the rulebooks say it: in turn each player still in folds, checks or calls (puts in
what it takes to match the highest bet, all-in if short), or bets or raises; a fold leaves the others in; the
round is over when every player still in who has chips has acted since the last full raise and all have put
in the same (or are all-in). A raise must be by at least the last full bet or raise of the round (no-limit),
or is of a fixed size, a capped number of times a round (fixed-limit); an all-in short of a full raise does
not reopen the betting to those who have acted. Blinds are forced bets that open the first round.

As :mod:`naipes.language.bets` does for a bet answered once, this module writes a round out as ordinary
state, functions, moves and an enter step (code made from templates whose holes the file's own texts fill:
:mod:`naipes.language.code`) before the section readers see it: each entry of the phase
`round:` names is one round (the round's variables are declared `reset:` that phase), and the bet's own
`reset:` phase starts a hand (folds and what each has put in). For a round NAME the file gets:

- state ``NAME_high`` (the highest bet this round: what each must have put in to stay in), ``NAME_raise``
  (the minimum raise: the last full bet or raise this round, or the opening size), ``NAME_raises`` (bets and
  raises this round); per player ``p.NAME_bet`` (put in this round), ``p.NAME_put`` (put in this hand: the
  side pots), ``p.NAME_acted`` (has acted since the last full raise), ``p.NAME_folded`` (out of this hand:
  folded, or no chips when it began);
- functions ``NAME_in()`` (the players still in), ``NAME_size()`` (every chip put in this hand),
  ``NAME_owed(p)`` (what p must put in to call, at most his chips), ``NAME_to_act(p)`` (p must still act this
  round), ``NAME_next_to_act(p)`` (the next after p who must), ``NAME_over()`` (nobody must: the round is
  over), ``NAME_may_raise(p)``, ``NAME_sizes(p)`` (the sizes p may bet or raise), ``NAME_to(p, k)`` (what p's
  bet comes to with size k), ``NAME_fixed()`` and ``NAME_cap()`` (the bet's `fixed` and `cap`);
- the moves fold, call (or check) and bet (or raise), named by `move:`, and with `blinds:` the enter step of
  the round's phase that posts them.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import Location, did_you_mean
from . import code
from .code import Code
from .compiler import identifier_problem, move_name_problem
from .loader import Map, Seq
from .vocabulary import BET

ACTIONS = ("bet", "call", "fold")  # what a player may do in turn (the moves, by default so named)
ALL_IN = "all-in"  # the size a player may always bet or raise to: every chip he has
ROUND_KEYS = frozenset({"round", "reset", "chips", "minimum", "fixed", "cap", "sizes", "blinds", "move", "folded",
                        "doc"})
BET_ONLY = frozenset(BET.fields) - ROUND_KEYS  # the keys of a bet answered once, not of a round
# (this module is the lower of the two that read bets: bets.py imports it, and the two share these)
Report = Callable[[str, Location, str | None], None]
CALL = re.compile(r"\w[\w .-]*", re.UNICODE)  # a call or an answer: words (no quote can end a template's text)


@dataclass
class Round:
    """One declared round of betting, its keys read and checked."""

    name: str
    spec: Map
    loc: Location
    phase: str
    chips: str
    moves: dict[str, str]  # bet, call, fold -> the move's name
    sizes: dict[str, Any]  # a no-limit size's word -> what a raise of it is by (an expression of player)
    blinds: tuple[str, Map] | None  # the step that posts the forced bets, and its keys

    def place(self, key: str) -> Location:
        return self.spec.loc(key) if key in self.spec else self.loc


def read_round(name: str, spec: Map, loc: Location, tree: Map, report: Report) -> Round | None:
    """The round `spec` declares, or None (every problem reported where it is)."""
    for key in spec:
        if key in BET_ONLY:
            report(f"'{key}' is a key of a bet answered once, not of a round of betting (round: {spec['round']})",
                   spec.key_loc(key), "a round's keys: " + ", ".join(sorted(ROUND_KEYS)))
        elif key not in ROUND_KEYS:
            report(f"unknown key '{key}' in bets '{name}'", spec.key_loc(key),
                   did_you_mean(str(key), ROUND_KEYS) or f"allowed: {', '.join(sorted(ROUND_KEYS))}")
    problem = identifier_problem(name, "bet")
    if problem:
        report(problem, loc, None)
        return None
    phases = tree.get("phases")
    declared = [str(p) for p in phases] if isinstance(phases, (Map, Seq)) else []
    phase = str(spec["round"])
    if not isinstance(phases, Map) or phase not in phases:
        report(f"bets '{name}': 'round' names the phase each entry of which is a round of betting; '{phase}' is not "
               f"a phase declared in a 'phases:' mapping", spec.loc("round"),
               did_you_mean(phase, declared) or None)
        return None
    chips = str(spec.get("chips", "chips"))
    players = tree.get("player_state")
    variables = [str(v) for v in players] if isinstance(players, Map) else []
    if chips not in variables:
        report(f"bets '{name}': the chips are bet from the player variable '{chips}', which player_state does not "
               f"declare", spec.loc("chips") if "chips" in spec else loc,
               did_you_mean(chips, variables) or "give 'chips: VARIABLE' (a player variable of numbers)")
        return None
    moves = _moves(name, spec, report)
    sizes = _sizes(name, spec, report)
    blinds = _blinds(name, spec, report)
    if moves is None or sizes is None:
        return None
    return Round(name, spec, loc, phase, chips, moves, sizes, blinds)


def _moves(name: str, spec: Map, report: Report) -> dict[str, str] | None:
    given = spec.get("move")
    if given is None:
        return {action: action for action in ACTIONS}
    if not isinstance(given, Map):
        report(f"bets '{name}': a round's 'move' names its moves: {{bet: MOVE, call: MOVE, fold: MOVE}} (each by "
               f"default so named)", spec.loc("move"), None)
        return None
    for action in given:
        if str(action) not in ACTIONS:
            report(f"bets '{name}': 'move' names the moves {', '.join(ACTIONS)}; '{action}' is none of them",
                   given.key_loc(action), did_you_mean(str(action), ACTIONS))
    moves = {action: str(given.get(action, action)) for action in ACTIONS}
    for action, move in moves.items():
        problem = move_name_problem(move)
        if problem:
            report(problem, given.loc(action) if action in given else spec.loc("move"), None)
            return None
    if len(set(moves.values())) < len(moves):
        report(f"bets '{name}': 'move' names a move twice (bet, call and fold are three moves)", spec.loc("move"),
               None)
        return None
    return moves


def _sizes(name: str, spec: Map, report: Report) -> dict[str, Any] | None:
    given = spec.get("sizes")
    if given is None:
        return {"min": "0"}
    if not isinstance(given, Map) or not given:
        return None  # (the shape check reported it)
    for word in given:
        if not CALL.fullmatch(str(word)) or str(word) == ALL_IN:
            report(f"bets '{name}': a size is named by words (letters, digits, spaces, '.', '-'), and '{ALL_IN}' is "
                   f"always offered", given.key_loc(word), None)
            return None
    return {str(word): given[word] for word in given}


def _blinds(name: str, spec: Map, report: Report) -> tuple[str, Map] | None:
    given = spec.get("blinds")
    if not isinstance(given, Map) or len(given) != 1:
        return None  # (none, or the shape check reported it)
    step, body = next(iter(given.items()))
    if not isinstance(body, Map):
        return None
    if "bets" not in body and "antes" not in body:
        report(f"bets '{name}': the step '{step}' posts nothing: give its 'bets' (the blinds) or 'antes'",
               given.key_loc(step), None)
        return None
    return str(step), body


def variables(r: Round) -> tuple[dict[str, tuple[str, str, bool, str]], dict[str, tuple[str, str, bool, str]]]:
    """The round's game and player variables: name -> (init, reset phase, shown, doc)."""
    b, hand = r.name, str(r.spec.get("reset", ""))
    game = {
        f"{b}_high": ("0", r.phase, True, "the highest bet this round: what each player still in must have put in"),
        f"{b}_raise": (f"{b}_fixed() if {b}_fixed() > 0 else {b}_minimum()", r.phase, False,
                       "the minimum raise: the last full bet or raise this round (at first the opening size)"),
        f"{b}_raises": ("0", r.phase, False, "the bets and raises made this round (blinds count as the first)"),
    }
    players = {
        f"{b}_bet": ("0", r.phase, True, "chips the player has put in this round"),
        f"{b}_put": ("0", hand, False, "chips the player has put in this hand (the side pots)"),
        f"{b}_acted": ("False", r.phase, False, "has acted since the last full bet or raise of this round"),
        f"{b}_folded": (f"player.{r.chips} == 0", hand, False, "out of this hand: folded, or no chips when it began"),
    }
    return game, players


def functions(r: Round) -> dict[str, Code]:
    """The round's functions: signature -> its body."""
    b, c = r.name, r.chips
    words = list(r.sizes)
    first, every = repr([words[0]]), repr(words)
    sizes = r.spec.get("sizes")
    holes = {f"size{i}": code.given_expression(r.sizes[word], sizes.loc(word) if isinstance(sizes, Map) else r.loc,
                                               f"'sizes' of bet '{b}'") for i, word in enumerate(words)}
    size = "".join(f"($size{i}) if k == {word!r} else " for i, word in enumerate(words[:-1])) + \
        f"($size{len(words) - 1})"
    return {
        f"{b}_in()": made(r, f"[p for p in players if not p.{b}_folded]"),
        f"{b}_size()": made(r, f"sum(p.{b}_put for p in players)"),
        f"{b}_owed(p)": made(r, f"min({b}_high - p.{b}_bet, p.{c})"),
        f"{b}_to_act(p)": made(r, f"not p.{b}_folded and p.{c} > 0 and (p.{b}_bet < {b}_high or (not p.{b}_acted "
                                  f"and any(q != p and q.{c} > 0 for q in {b}_in())))"),
        f"{b}_next_to_act(p)": made(r, f"first([q for q in seating(next_player(p)) if {b}_to_act(q)])"),
        f"{b}_over()": made(r, f"not any({b}_to_act(p) for p in players)"),
        f"{b}_all_in(p)": made(r, f"not p.{b}_folded and p.{c} == 0"),
        f"{b}_minimum()": given(r, "minimum") if "minimum" in r.spec else made(r, "1"),
        f"{b}_fixed()": given(r, "fixed") if "fixed" in r.spec else made(r, "0"),
        f"{b}_cap()": given(r, "cap") if "cap" in r.spec else made(r, "0"),
        f"{b}_may_raise(p)": made(r, f"not p.{b}_acted and p.{c} > {b}_high - p.{b}_bet and any(q != p and q.{c} > 0 "
                                     f"for q in {b}_in()) and ({b}_cap() == 0 or {b}_raises < {b}_cap())"),
        f"{b}_to(player, k)": made_block(r, f"if k == '{ALL_IN}':\n    return player.{b}_bet + player.{c}\n"
                                            f"if {b}_fixed() > 0:\n    return {b}_high + {b}_fixed()\n"
                                            f"return {b}_high + max({b}_raise, {size})", **holes),
        f"{b}_sizes(player)": made_block(
            r, f"let most = player.{b}_bet + player.{c}\n"
               f"let ks = [k for k in ({first} if {b}_fixed() > 0 else {every}) if {b}_to(player, k) < most]\n"
               f"if {b}_fixed() > 0:\n    return ks if len(ks) > 0 else ['{ALL_IN}']\n"
               f"return [k for i, k in enumerate(ks) if {b}_to(player, k) not in [{b}_to(player, j) for j in ks[:i]]]"
               f" + ['{ALL_IN}']"),
    }


def moves(r: Round) -> dict[str, dict[str, Code]]:
    """The round's three moves: name -> key -> its code."""
    b, c = r.name, r.chips
    folded = {"folded": given_actions(r, "folded")} if "folded" in r.spec else {}
    return {
        r.moves["fold"]: {
            "choose": made(r, "k in ['fold']"), "space": made(r, "['fold']"),
            "when": made(r, f"player.{b}_bet < {b}_high"), "label": made(r, "k"),
            "then": made_block(r, f"player.{b}_folded = True\nplayer.{b}_acted = True"
                                  + ("\n$folded" if folded else ""), **folded)},
        r.moves["call"]: {
            "choose": made(r, f"k in ['check' if player.{b}_bet >= {b}_high else 'call']"),
            "space": made(r, "['check', 'call']"),
            "label": made(r, f"k if k == 'check' else f'call {{{b}_owed(player)}}'"),
            "then": made_block(r, f"let a = {b}_owed(player)\nplayer.{c} -= a\nplayer.{b}_bet += a\n"
                                  f"player.{b}_put += a\nplayer.{b}_acted = True")},
        r.moves["bet"]: {
            "choose": made(r, f"k in {b}_sizes(player)"), "space": made(r, repr([*r.sizes, ALL_IN])),
            "when": made(r, f"{b}_may_raise(player)"),
            "label": made(r, f"('bet' if {b}_high == 0 else 'raise') + f' to {{{b}_to(player, k)}}' + "
                             f"(' ({ALL_IN})' if k == '{ALL_IN}' else '')"),
            # a full bet or raise (by the minimum raise, or an opening bet of the minimum) reopens the betting
            "then": made_block(r, f"let t = {b}_to(player, k)\n"
                                  f"if t - {b}_high >= {b}_raise or ({b}_high == 0 and t >= {b}_minimum()):\n"
                                  f"    {b}_raise = t - {b}_high\n    {b}_raises += 1\n    for q in players:\n"
                                  f"        if q != player:\n            q.{b}_acted = False\n"
                                  f"let a = t - player.{b}_bet\nplayer.{c} -= a\nplayer.{b}_bet = t\n"
                                  f"player.{b}_put += a\nplayer.{b}_acted = True\n{b}_high = t")},
    }


def blinds_step(r: Round) -> tuple[str, dict[str, Any]] | None:
    """The enter step that posts the forced bets (its then, when and doc): first each player's ante (dead: in the
    pot, not a bet of the round), then the blinds, each (player, amount) in order; what a player posts is at most
    his chips. The largest blind is the bet to call, the minimum raise at least it, and it counts as the round's
    first bet."""
    if r.blinds is None:
        return None
    b, c = r.name, r.chips
    step, body = r.blinds

    def own(key: str, default: str = "") -> Code:
        what = f"'{key}' of the step '{step}' of bet '{b}'"
        value, at = body.get(key, default), body.loc(key) if key in body else r.loc
        return code.given_actions(value, at, what) if key == "then" else code.given_expression(value, at, what)
    then, holes = "", {"bets": own("bets", "[]")}
    if "antes" in body:
        then += (f"for player in {b}_in():\n    let {b}_ante = min($antes, player.{c})\n"
                 f"    player.{c} -= {b}_ante\n    player.{b}_put += {b}_ante\n")
        holes["antes"] = own("antes")
    then += (f"let {b}_forced = list($bets)\n"
             f"for {b}_p, {b}_a in {b}_forced:\n    let {b}_posted = min({b}_a, {b}_p.{c})\n"
             f"    {b}_p.{c} -= {b}_posted\n    {b}_p.{b}_bet += {b}_posted\n    {b}_p.{b}_put += {b}_posted\n"
             f"if len({b}_forced) > 0:\n    {b}_high = max([{b}_high] + [pair[1] for pair in {b}_forced])\n"
             f"    {b}_raise = max({b}_raise, {b}_high)\n    {b}_raises += 1\n")
    if "then" in body:
        then += "$then\n"
        holes["then"] = own("then")
    out: dict[str, Any] = {"then": made_block(r, then, **holes)}
    if "when" in body:
        out["when"] = own("when")
    if "doc" in body:
        out["doc"] = body["doc"]
    return step, out


class Declared(Protocol):
    """A bet answered once (bets._Bet) or a round of betting: what code is made for."""

    name: str
    spec: Map
    loc: Location

    def place(self, key: str) -> Location: ...


def given(bet: Declared, key: str) -> Code:
    """The bet's expression for `key`, parsed by itself (where the file wrote it)."""
    return code.given_expression(bet.spec[key], bet.place(key), f"'{key}' of bet '{bet.name}'")


def given_actions(bet: Declared, key: str) -> Code:
    """The bet's actions for `key` (a text, or a list of texts), parsed by themselves."""
    return code.given_actions(bet.spec[key], bet.place(key), f"'{key}' of bet '{bet.name}'")


def made(bet: Declared, template: str, **holes: Code) -> Code:
    """An expression of the engine's own for the bet (located at its declaration), its holes filled."""
    return code.expression(template, bet.loc, f"bet '{bet.name}'", **holes)


def made_block(bet: Declared, template: str, **holes: Code) -> Code:
    """Statements of the engine's own for the bet (located at its declaration), its holes filled."""
    return code.statements(template, bet.loc, f"bet '{bet.name}'", **holes)
