"""The web table without a browser: the table's game thread, and the server over HTTP and WebSockets.

A human seat's moves come from its tab; a move that is not the seat's to make,
not legal, or for an earlier position is refused with a reason and changes
nothing; each seat is shown only its own view and its own options.
"""
from __future__ import annotations

import json
import socket
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra (pip install -e '.[web]')")
testclient = pytest.importorskip("starlette.testclient", reason="Starlette's TestClient needs httpx2 (the test extra)")
websockets = pytest.importorskip("starlette.websockets")

from click.testing import CliRunner  # noqa: E402

from naipes import load_program  # noqa: E402
from naipes.library.limits import MAX_STEPS  # noqa: E402
from naipes.runtime.game import Game  # noqa: E402
from naipes.tools import catalogue  # noqa: E402
from naipes.tools.cli import main  # noqa: E402
from naipes.tools.replay import Replay  # noqa: E402
from naipes.web import app as web_app  # noqa: E402
from naipes.web.app import create_app  # noqa: E402
from naipes.web.guard import JSONResponse  # noqa: E402
from naipes.web.table import EARLIER, UNEXPLAINED, Table, Tables, explain_refused  # noqa: E402

from helpers import RULESETS, shipped_program, write_rules  # noqa: E402

GAMES = {name: RULESETS / f"{name}.yaml" for name in ("fichas", "pocha")}
TIMEOUT = 20


def wait_for(table: Table, seat, predicate):
    """The seat's state once `predicate` holds for it (the game runs in its own thread)."""
    changed = threading.Event()
    table.watchers.append(changed.set)
    try:
        for _ in range(1000):
            state = table.state(seat)
            if state is not None and predicate(state):
                return state
            assert changed.wait(TIMEOUT), f"the table did not change in {TIMEOUT} s"
            changed.clear()
        raise AssertionError("the awaited state never came")
    finally:
        table.watchers.remove(changed.set)


def my_turn_or_over(state):
    return state["your_turn"] or state["over"]


def play(table: Table, seat: int, label: str) -> str | None:
    """Submit a move; once it is accepted, wait for the game to move on (the state shown until then is the old one)."""
    state = table.state(seat)
    refusal = table.submit(seat, {"serial": state["serial"], "label": label}).result(TIMEOUT)
    if refusal is None:
        wait_for(table, seat, lambda s: s["serial"] > state["serial"] or s["over"])
    return refusal


def started(program, seats, seed):
    table = Table(program, seats, seed)
    table.start()
    return table


# ------------------------------------------------------------ the table
def test_a_whole_chip_game_with_a_human_seat_against_minimax():
    table = started(shipped_program("fichas"), ["human", "minimax"], seed=11)
    moves = 0
    while not (state := wait_for(table, 0, my_turn_or_over))["over"]:
        assert state["view"]["to_move"] == "P1" and state["options"]
        assert play(table, 0, state["options"][0]["label"]) is None
        moves += 1
    table.join(TIMEOUT)
    assert moves >= 1 and state["outcome"]["winners"] in (["P1"], ["P2"])
    assert state["outcome"]["sheet"] is None  # the chip game declares no score
    assert state["view"]["zones"]["table"] == [] and state["options"] == []
    decisions = [r for r in table.records_for(0) if r["type"] == "decision"]
    assert [r["own"] for r in decisions if r["seat"] == 0] == [r["text"] for r in decisions if r["seat"] == 0]
    # each move in its own words (the moves' `verb:`), as the terminal tells it: 'P2 takes every chip of colour R'
    assert decisions and all(r["told"] == f" takes every chip of {r['text']}" for r in decisions)
    assert table.records[-1]["type"] == "end"


def test_the_end_carries_the_games_score_sheet():
    """Pocha with peak 2 deals three hands: three rows, then the totals the game ended with."""
    table = started(shipped_program("pocha", peak="2", random_seats="false"),
                    ["human", "random", "random", "random"], seed=9)
    while not (state := wait_for(table, 0, my_turn_or_over))["over"]:
        assert play(table, 0, state["options"][0]["label"]) is None
    sheet = state["outcome"]["sheet"]
    assert sheet["columns"] == ["score"] and sheet["players"] == ["P1", "P2", "P3", "P4"]
    assert len(sheet["rows"]) == 3 and sheet["rows"][-1] == sheet["total"]
    assert sheet["total"] == [[p["score"]] for p in state["view"]["players"]]


def first_refused_card(table: Table, seats: int):
    """Play the first legal option at every seat until a seat to move holds a card it may not play."""
    while True:
        for seat in range(seats):
            state = table.state(seat)
            if state and state["your_turn"]:
                refused = [o for o in state["refused"] if o["card"]]
                if refused:
                    return seat, state, refused[0]
                assert play(table, seat, state["options"][0]["label"]) is None
                break
        else:
            wait_for(table, None, lambda s: s["to_move"] is not None)


def test_an_illegal_card_is_refused_with_the_rule_that_forbids_it_and_changes_nothing():
    table = started(shipped_program("pocha", peak="3", random_seats="false"), ["human"] * 4, seed=3)
    wait_for(table, 0, lambda s: s["to_move"] is not None)
    seat, state, card = first_refused_card(table, 4)
    assert card["reason"].startswith("the rule '") and "requires one of" in card["reason"]
    before = table.state(seat)
    refusal = play(table, seat, card["label"])
    assert refusal == f"'{card['label']}' is refused: {card['reason']}"
    by_card = table.submit(seat, {"serial": state["serial"], "card": card["card"]}).result(TIMEOUT)
    assert by_card == refusal
    assert table.state(seat) is before and table.serial == state["serial"]
    assert not any(r.get("text") == card["label"] for r in table.records)
    assert play(table, seat, state["options"][0]["label"]) is None  # the seat still plays
    wait_for(table, seat, lambda s: s["serial"] > state["serial"])
    table.close()


def test_requests_out_of_turn_or_for_an_earlier_position_are_refused():
    table = started(shipped_program("fichas"), ["human", "human"], seed=4)
    state = wait_for(table, 0, my_turn_or_over)
    label = state["options"][0]["label"]
    assert play(table, 1, label) == "it is not your turn: waiting for P1 to move"
    answer = table.submit(None, {"serial": state["serial"], "label": label}).result(TIMEOUT)
    assert answer.startswith("you are watching")
    assert table.submit(0, {"serial": state["serial"] - 1, "label": label}).result(TIMEOUT).startswith(
        "that click was for an earlier position")
    assert table.submit(0, {"label": label}).result(TIMEOUT).startswith("a move is")
    assert table.state(0) is state
    assert play(table, 0, label) is None
    answer = table.submit(0, {"serial": state["serial"], "label": label}).result(TIMEOUT)
    assert answer.startswith("it is not your turn")
    table.close()
    table.join(TIMEOUT)
    assert table.over and table.outcome == {"stopped": "the table was closed", "seed": 4}


def test_a_second_click_for_a_position_already_answered_is_refused_without_waiting_for_the_seats_next_turn():
    """Two requests for one position (a double click): the first is the move; the second is answered at once or as
    the game moves on, never left waiting until the seat is to move again (here, after the other human's move)."""
    table = started(shipped_program("fichas"), ["human", "human"], seed=4)
    state = wait_for(table, 0, my_turn_or_over)
    request = {"serial": state["serial"], "label": state["options"][0]["label"]}
    first, second = table.submit(0, request), table.submit(0, dict(request))
    assert first.result(TIMEOUT) is None
    assert second.result(TIMEOUT) in (EARLIER, "it is not your turn: waiting for P2 to move")
    assert wait_for(table, 1, my_turn_or_over)["your_turn"]
    table.close()


def test_each_seat_sees_its_own_view_and_only_its_own_options():
    program = shipped_program("pocha", peak="2", random_seats="false")
    table = started(program, ["human", "human", "random", "random"], seed=5)
    mover = wait_for(table, 0, lambda s: s["to_move"] is not None)["view"]["to_move"]
    for seat in (0, 1):
        state = table.state(seat)
        view = state["view"]
        hands = [p["hand"] for p in view["players"]]
        assert all(isinstance(h, list) == (i == seat) for i, h in enumerate(hands)), "another seat's hand is hidden"
        assert view == table.game.view(seat)
        if f"P{seat + 1}" != mover:
            assert state["options"] == [] and state["refused"] == []
    onlooker = table.state(None)["view"]
    assert all(isinstance(p["hand"], dict) for p in onlooker["players"])
    table.close()


# A move of 100,000 candidates of which one is legal: explaining a refused one goes over all of them.
MANY = """
game: many
players: 2
state:
  done: {init: "False"}
phases:
  picking:
moves:
  pick:
    choose: "n in range(100000)"
    legal: {the_last: "n == 99999"}
    then: "done = True"
rules:
  - name: ask
    phase: picking
    when: "not done"
    then: "ask players[0] to pick"
  - name: finish
    phase: picking
    when: "done"
    then: "end game winner players[0]"
"""
THE_LAST = "the rule 'the_last' requires one of: pick 99999"


def test_the_refused_options_of_one_decision_are_explained_within_one_step_budget(tmp_path):
    game = Game(load_program(write_rules(tmp_path, MANY)), 1)
    game.start()
    [legal] = game.options()
    refused = [o for o in game.candidates() if o != legal]
    assert game.explain_illegal(refused[0].move, refused[0].arg) == THE_LAST
    one = MAX_STEPS - game.memory.steps  # the steps one explanation spends (a fresh budget each, when asked alone)
    reasons = explain_refused(game, refused)
    assert len(reasons) == len(refused) == 99_999
    assert reasons == [THE_LAST] * (MAX_STEPS // one) + [UNEXPLAINED] * (len(refused) - MAX_STEPS // one)


def test_a_move_of_100000_candidates_is_shown_at_once_and_a_refused_one_is_explained_when_asked(tmp_path):
    # each refused option was explained with a budget of its own: minutes before its seat was shown anything
    table = started(load_program(write_rules(tmp_path, MANY)), ["human", "human"], seed=1)
    try:
        state = wait_for(table, 0, my_turn_or_over)
        assert [o["label"] for o in state["options"]] == ["pick 99999"] and len(state["refused"]) == 99_999
        assert state["refused"][0]["reason"] == THE_LAST and state["refused"][-1]["reason"] == UNEXPLAINED
        assert play(table, 0, "pick 5") == f"'pick 5' is refused: {THE_LAST}"  # (asked alone: a budget of its own)
        assert play(table, 0, "pick 99999") is None
        assert wait_for(table, 0, lambda s: s["over"])["outcome"]["winners"] == ["P1"]
    finally:
        table.close()


# ------------------------------------------------------------ the server
@pytest.fixture
def client():
    app = create_app(GAMES, pause=0, hosts=["testserver"])
    with testclient.TestClient(app) as client:  # (a server error raises here: any traceback fails the test)
        yield client


def new_table(client, **body):
    """A table made as a page makes it: its id, and the WebSocket of the seat it gives (with the seat's key)."""
    response = client.post("/api/tables", json={"game": "fichas", "seed": 2, **body})
    assert response.status_code == 200, response.text
    made = response.json()
    return made["id"], f"/ws/{made['id']}?seat={made['seat']}&token={made['token']}"


def socket_of(link: str) -> str:
    """The WebSocket of a seat's link (table/ID?seat=N&token=T)."""
    assert link.startswith("table/")
    return "/ws/" + link.removeprefix("table/")


def receive(ws, kind):
    """The next message of a kind (records and states come as the game changes)."""
    for _ in range(200):
        message = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def test_the_games_list_at_once_and_a_chosen_game_gives_its_params_and_ai_levels(client, monkeypatch):
    compiled = []
    monkeypatch.setattr(catalogue, "load_program", lambda path, *a: compiled.append(path) or load_program(path, *a))
    catalogue.describe_file.cache_clear()
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) == {"fichas", "pocha"} and compiled == []  # the list compiles nothing
    how_to_play = shipped_program("fichas").doc
    assert how_to_play.startswith("The chip game: two players")
    assert games["fichas"] == {"name": "fichas", "title": "The chip game (fichas)", "doc": how_to_play,
                               "players": {"min": 2, "max": 2, "default": 2}}
    assert games["pocha"]["players"] == {"min": 3, "max": 8, "default": 4}  # Pocha's own, over its base's
    assert games["pocha"]["doc"].startswith("Pocha: ")
    fichas = client.get("/api/games/fichas").json()
    assert compiled == [str(GAMES["fichas"])]
    assert fichas["title"] == "The chip game (fichas)" and fichas["players"]["ai"] == "exact"
    count = next(p for p in fichas["params"] if p["name"] == "count")
    assert (count["type"], count["default"], count["min"]) == ("int", 12, 1) and count["doc"]
    levels = [level["name"] for level in fichas["levels"]]
    assert levels[:2] == ["exact", "greedy"] and "minimax" in levels
    pocha = client.get("/api/games/pocha").json()
    assert "minimax" not in [level["name"] for level in pocha["levels"]]  # pocha hides cards
    assert client.get("/api/games/chess").status_code == 404


def test_a_rule_file_that_does_not_compile_is_listed_and_says_why_when_chosen(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text((RULESETS / "fichas.yaml").read_text().replace("title: The chip game (fichas)",
                                                                     "title: Broken chips\nrules: 3"))
    unreadable = tmp_path / "unreadable.yaml"
    unreadable.write_text("title: [unclosed\n")
    app = create_app({"broken": broken, "unreadable": unreadable}, hosts=["testserver"])
    with testclient.TestClient(app) as client:
        listed = {g["name"]: g for g in client.get("/api/games").json()}
        assert listed["broken"]["title"] == "Broken chips" and "error" in listed["unreadable"]
        chosen = client.get("/api/games/broken")
        assert chosen.status_code == 400 and "broken.yaml:" in chosen.json()["error"]


@pytest.mark.parametrize("body, message", [
    ({"game": "chess"}, "no game 'chess'"),
    ({"seats": ["human"]}, "seats 2 to 2 players, not 1"),
    ({"seats": ["human", "python:evil.py:Bot"]}, "unknown player 'python:evil.py:Bot'"),
    ({"seats": ["human", "../../strategies/pocha/strong.yaml"]}, "unknown player"),
    ({"params": {"count": "0"}}, "count"),
    ({"params": {"colour": "3"}}, "colour"),
    ({"seed": "x"}, "seed is a whole number"),
    ({"seed": -1}, "seed is a whole number from 0"),
    ({"seed": 10 ** 30}, "seed is a whole number from 0"),
    ({"params": {"count": [1]}}, "params is a mapping of names to plain values"),
    ({"seats": "human"}, "seats is a list"),
    ({"game": ["fichas"]}, 'a new table is {"game": NAME'),
])
def test_a_table_that_cannot_be_made_is_refused_with_the_reason(client, body, message):
    response = client.post("/api/tables", json={"game": "fichas", **body})
    assert response.status_code == 400 and message in response.json()["error"]


def test_a_seat_may_be_the_rule_files_own_ai_with_its_options_and_no_options_a_request_names():
    # Tute Cabrero's default AI is a search agent with options (players: ai: "ismcts:iterations=1000"): a table
    # seats it as the file says, and refuses the same agent with options the browser chose
    from naipes.web.app import TableError, _check_seats
    program = shipped_program("tute_cabrero")
    assert ":" in program.default_ai
    _check_seats(program, ["human", program.default_ai, "strong"])
    with pytest.raises(TableError, match="unknown player 'ismcts:iterations=100000000'"):
        _check_seats(program, ["human", "ismcts:iterations=100000000", "strong"])


def test_two_tabs_play_a_chip_game_each_at_its_seat(client):
    table_id, mine = new_table(client, seats=["human", "human"])
    with client.websocket_connect(mine) as first:
        info = receive(first, "table")
        assert info["seat"] == 0 and info["display"]["shape"] == "chip"
        assert info["cards"]["R1"] == {"colour": "R", "value": 1}
        invite = info["invites"]["1"]  # whoever made the table has the other seat's link, to send
        with client.websocket_connect(socket_of(invite)) as second:
            info = receive(second, "table")
            assert info["seat"] == 1 and "invites" not in info
            tabs = [first, second]
            state = [receive(first, "state"), receive(second, "state")]
            while True:
                mover = 0 if state[0]["your_turn"] else 1
                other = 1 - mover
                assert state[other]["options"] == []
                tabs[other].send_json({"serial": state[mover]["serial"], "label": state[mover]["options"][0]["label"]})
                refusal = receive(tabs[other], "refused")["reason"]
                assert refusal == f"it is not your turn: waiting for P{mover + 1} to move"
                tabs[mover].send_json({"serial": state[mover]["serial"], "label": state[mover]["options"][-1]["label"]})
                state = [receive(first, "state"), receive(second, "state")]
                if state[0]["over"]:
                    break
            assert state[0]["outcome"] == state[1]["outcome"] and len(state[0]["outcome"]["winners"]) == 1


def messages_until_over(ws) -> list[str]:
    """Every message a tab gets, as sent, until its state says the game is over."""
    texts = []
    while True:
        texts.append(ws.receive_text())
        message = json.loads(texts[-1])
        if message["type"] == "state" and message["over"]:
            return texts
        if message["type"] == "state" and message["your_turn"]:
            ws.send_json({"serial": message["serial"], "label": message["options"][0]["label"]})


def test_no_seed_reaches_a_tab_before_the_game_is_over(client):
    """The seed predicts every hand: no message, list or page has it until the last hand is played."""
    response = client.post("/api/tables", json={"game": "fichas", "seats": ["human", "random"],
                                                "params": {"count": "4"}})
    made = response.json()
    table = client.app.state.tables.get(made["id"])
    seed = str(table.seed)
    assert 0 <= table.seed < 1 << 53  # drawn from 53 bits: too many to try against one's hand
    assert seed not in response.text and seed not in client.get("/api/tables").text
    with client.websocket_connect(f"/ws/{made['id']}?seat=watch") as onlooker, \
            client.websocket_connect(f"/ws/{made['id']}?seat=0&token={made['token']}") as tab:
        texts = messages_until_over(tab)
        assert json.loads(texts[0])["seed"] is None and json.loads(texts[0])["seed_chosen"] is False
        assert not any(seed in text for text in texts[:-1])
        assert json.loads(texts[-1])["outcome"]["seed"] == table.seed  # told at the end
        watched = messages_until_over(onlooker)
        assert not any(seed in text for text in watched[:-1])
    listed = {t["id"]: t for t in client.get("/api/tables").json()}
    assert listed[made["id"]]["seed"] == table.seed


def test_a_seat_opens_only_with_its_own_key(client):
    table_id, mine = new_table(client, seats=["human", "human"])
    table = client.app.state.tables.get(table_id)
    other = f"/ws/{table_id}?seat=1&token={table.tokens[1]}"
    assert len(table.tokens[0]) >= 24 and table.tokens[0] != table.tokens[1]
    with client.websocket_connect(mine) as tab:
        assert receive(tab, "table")["seat"] == 0
        for wrong in ("", "&token=", f"&token={table.tokens[1]}", f"&token={table.tokens[0][:-1]}",
                      "&token=%C2%B2"):
            with client.websocket_connect(f"/ws/{table_id}?seat=0{wrong}") as intruder:
                assert "opens only with its own link" in receive(intruder, "error")["message"]
        with client.websocket_connect(mine) as reloaded:  # the same key: the same player (a reload, a window)
            assert receive(reloaded, "table")["seat"] == 0
        with client.websocket_connect(other) as guest:
            assert receive(guest, "table")["seat"] == 1
            assert receive(tab, "seats")["seats"][1]["taken"]
    assert not table.seats()[1]["taken"]
    with client.websocket_connect(f"/ws/{table_id}?seat=1") as intruder:  # a seat left: still locked
        assert "opens only with its own link" in receive(intruder, "error")["message"]
    with client.websocket_connect(other) as guest:  # but its key reopens it
        assert receive(guest, "table")["seat"] == 1


def test_seats_that_are_not_a_persons_or_not_there_are_refused(client):
    table_id, _ = new_table(client, seats=["human", "minimax"])
    with client.websocket_connect(f"/ws/{table_id}?seat=1") as ai_seat:
        assert "played by minimax" in receive(ai_seat, "error")["message"]
    with client.websocket_connect(f"/ws/{table_id}?seat=watch") as onlooker:
        assert receive(onlooker, "table")["seat"] is None and "invites" not in receive(onlooker, "state")
    with client.websocket_connect("/ws/nosuchtable?seat=0") as lost:
        assert "no such table" in receive(lost, "error")["message"]


def test_malformed_messages_are_refused(client):
    table_id, mine = new_table(client, seats=["human", "minimax"])
    with client.websocket_connect(mine) as tab:
        state = receive(tab, "state")
        for junk in ("not json", "[" * 3000 + "]" * 3000, "x" * 10000, '{"serial": "1"}', "[]", "null"):
            tab.send_text(junk)
            assert receive(tab, "refused")["reason"].startswith("a move is")
        tab.send_bytes(b'{"serial": 1}')
        assert receive(tab, "refused")["reason"].startswith("a move is")
        tab.send_json({"serial": state["serial"], "label": "colour Z"})
        assert receive(tab, "refused")["reason"] == "'colour Z' is not a move you can make now"
        tab.send_json({"serial": state["serial"], "card": "R1"})
        assert "is not a choice now" in receive(tab, "refused")["reason"]
        tab.send_json({"serial": state["serial"], "label": ["colour R"], "card": {"a": 1}})
        assert receive(tab, "refused")["reason"] == "a move names an option's label or a card"


EVIL = "http://evil.example"


def test_requests_from_another_site_are_refused_and_cannot_end_a_game(client):
    table_id, mine = new_table(client, seats=["human", "human"])
    with client.websocket_connect(mine) as tab:
        receive(tab, "state")
        for _ in range(40):
            response = client.post("/api/tables", json={"game": "fichas"}, headers={"origin": EVIL})
            assert response.status_code == 403 and "another site" in response.text
        assert [t["id"] for t in client.get("/api/tables").json()] == [table_id]
        for headers in ({"origin": "null"}, {"origin": "http://testserver:8001"}, {"origin": "https://testserver.evil"},
                        {"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"}):
            assert client.post("/api/tables", json={"game": "fichas"}, headers=headers).status_code == 403
        same = client.post("/api/tables", json={"game": "fichas"},
                           headers={"origin": "http://testserver", "sec-fetch-site": "same-origin"})
        assert same.status_code == 200
        for origin in (EVIL, "null"):
            with pytest.raises(websockets.WebSocketDisconnect), \
                    client.websocket_connect(mine, headers={"origin": origin}) as ws:
                ws.receive_json()
        with client.websocket_connect(mine, headers={"origin": "http://testserver"}) as ws:
            assert receive(ws, "table")["seat"] == 0
        assert not client.app.state.tables.get(table_id).closed


def test_a_host_name_that_is_not_the_servers_is_refused():
    """DNS rebinding: a page of evil.example, whose name now points here, is refused by its Host."""
    app = create_app(GAMES, pause=0)  # this machine's names only
    with testclient.TestClient(app, base_url="http://localhost:8000") as client:
        assert client.get("/api/tables").status_code == 200
        for host in ("evil.example", "evil.example:8000", "localhost.evil.example", "evil@localhost", ""):
            response = client.get("/api/tables", headers={"host": host})
            assert response.status_code == 400 and "does not answer to the name" in response.text
        assert client.post("/api/tables", json={"game": "fichas"}, headers={"host": "evil.example"}).status_code == 400
        assert client.get("/", headers={"host": "[::1]:8000"}).status_code == 200
        with pytest.raises(websockets.WebSocketDisconnect), \
                client.websocket_connect("/ws/x?seat=watch", headers={"host": "evil.example"}) as ws:
            ws.receive_json()


def test_a_flood_of_requests_for_tables_waits_its_turn_and_what_finds_no_room_is_refused_at_once(monkeypatch):
    """Tables are made two at a time (a rule file loaded and compiled each: seconds, and memory), eight more requests
    wait their turn, and any further one is refused at once: a flood costs the server no more than that."""
    app = create_app(GAMES, pause=0, hosts=["testserver"])
    release, started, make = threading.Event(), threading.Semaphore(0), web_app.new_table

    def slowly_made(*args):
        started.release()
        assert release.wait(TIMEOUT)
        return make(*args)

    monkeypatch.setattr(web_app, "new_table", slowly_made)
    room = web_app.MAKING_AT_ONCE + web_app.MAKING_WAITING
    with testclient.TestClient(app) as client, ThreadPoolExecutor(room) as pool:
        asked = [pool.submit(client.post, "/api/tables", json={"game": "fichas"}) for _ in range(room)]
        assert all(started.acquire(timeout=TIMEOUT) for _ in range(web_app.MAKING_AT_ONCE))
        wait_until(lambda: app.state.making.inside == room)
        refused = client.post("/api/tables", json={"game": "fichas"})
        assert refused.status_code == 503 and refused.json()["error"].startswith("the server is busy making")
        assert not started.acquire(timeout=0.2), "only two are made at once"
        release.set()
        assert [answer.result(TIMEOUT).status_code for answer in asked] == [200] * room
        assert client.post("/api/tables", json={"game": "fichas"}).status_code == 200  # room again


def wait_until(condition) -> None:
    for _ in range(int(TIMEOUT / 0.01)):
        if condition():
            return
        threading.Event().wait(0.01)
    raise AssertionError("the awaited condition never held")


def test_a_flood_of_new_tables_cannot_end_a_game_in_play():
    app = create_app(GAMES, pause=0, hosts=["testserver"], tables=Tables(limit=3))
    tables = app.state.tables
    with testclient.TestClient(app) as client:
        table_id, mine = new_table(client)
        with client.websocket_connect(mine) as tab:
            receive(tab, "state")
            answers = [client.post("/api/tables", json={"game": "fichas"}).status_code for _ in range(5)]
            assert answers == [200, 200, 503, 503, 503]
            assert not tables.get(table_id).closed
            tables.idle = 0  # tables nobody looks at are let go at once; one with a tab open is not
            assert client.post("/api/tables", json={"game": "fichas"}).status_code == 200
            assert not tables.get(table_id).closed and len(tables.all()) == 3
        assert client.post("/api/tables", json={"game": "fichas"}).status_code == 200  # the tab closed: it may go
        assert tables.get(table_id) is None and len(tables.all()) == 3


def test_a_table_busy_with_its_rule_files_code_stalls_no_other_request(client):
    """While a table's thread computes a seat's state (here the options of the seat to move, held until the test
    lets it go, as a rule file's long computation holds it), the list of tables, the list of games and another
    table's state answer. (The table's own method is held: a compiled Game's are read-only.)"""
    busy, let_go = threading.Event(), threading.Event()
    table = Table(shipped_program("fichas"), ["human", "human"], seed=3)
    choices = table._choices

    def held_choices(decision):
        busy.set()
        let_go.wait(TIMEOUT * 3)
        return choices(decision)
    table._choices = held_choices  # type: ignore[method-assign]
    client.app.state.tables.add(table)
    assert busy.wait(TIMEOUT), "the table's thread never listed the options"

    def another_tables_state():
        _, mine = new_table(client, seats=["human", "human"])
        with client.websocket_connect(mine) as tab:
            return receive(tab, "state")
    pool = ThreadPoolExecutor(1)
    try:  # (each request in a thread of its own: a stalled one fails the test, not hangs it)
        tables, games, state = [pool.submit(ask).result(TIMEOUT) for ask in (
            lambda: client.get("/api/tables"), lambda: client.get("/api/games"), another_tables_state)]
    finally:
        let_go.set()
        pool.shutdown()
    assert table.id in [t["id"] for t in tables.json()] and games.status_code == 200 and state["your_turn"]
    assert wait_for(table, 0, my_turn_or_over)["your_turn"]  # the busy table goes on once its view is made


def test_large_and_deep_bodies_are_refused(client):
    def post(content, **headers):
        return client.post("/api/tables", content=content, headers={"content-type": "application/json", **headers})
    big = post(b"x" * 20_000_000)
    assert big.status_code == 413 and "larger than" in big.text
    assert post(b"[" * 100_000 + b"]" * 100_000).status_code == 413
    deep = post(b'{"game": ' + b"[" * 5_000 + b"]" * 5_000 + b"}")  # small, but deep
    assert deep.status_code == 400 and "nested 5001 deep; at most 8" in deep.json()["error"]
    streamed = post(iter([b" " * 10_000] * 5))  # no Content-Length: cut off as it is read
    assert streamed.status_code == 413
    assert client.post("/api/tables", data={"game": "fichas"}).status_code == 415  # a form (a cross-site post's)
    assert post(b"\xff\xfe").status_code == 400 and post(b"{").status_code == 400
    assert client.app.state.tables.all() == []


NOT_UNICODE = "the request holds text that is not valid Unicode"


@pytest.mark.parametrize("body", [
    '{"game": "\\ud800"}', '{"game": "pocha", "params": {"\\ud800": 1}}', '{"resume": "\\udfff"}',
    '{"game": "fichas", "seats": [["human", {"x\\udc80y": "z"}]]}', '["\\ud83d"]',
])
def test_text_that_is_not_unicode_is_refused_where_it_comes_in(client, body):
    """A lone UTF-16 surrogate is a legal JSON escape, but no UTF-8 holds it: an answer quoting it could not be sent."""
    def post(content):
        return client.post("/api/tables", content=content.encode(), headers={"content-type": "application/json"})
    response = post(body)
    assert response.status_code == 400 and response.json()["error"] == NOT_UNICODE
    pair = post('{"game": "fichas", "params": {"\\ud83d\\ude00": 1}}')  # (a pair is a character: 😀, no such param)
    assert pair.status_code == 400 and pair.json()["error"] != NOT_UNICODE


def test_a_move_with_text_that_is_not_unicode_is_refused_and_the_tab_plays_on(client):
    _, mine = new_table(client, seats=["human", "minimax"])
    with client.websocket_connect(mine) as tab:
        serial = receive(tab, "state")["serial"]
        for text in (f'{{"serial": {serial}, "card": "\\ud800"}}', f'{{"serial": {serial}, "x": [{{"\\udfff": 1}}]}}',
                     f'{{"serial": {serial}, "card": "\ud800"}}'):  # (an escape, or the character itself from a client)
            tab.send_text(text)
            refused = receive(tab, "refused")
            assert refused["reason"] == NOT_UNICODE
        tab.send_json({"serial": serial, "card": "R1"})
        assert "is not a choice now" in receive(tab, "refused")["reason"]


def test_an_answer_quoting_text_that_is_not_unicode_is_still_sent():
    """Were such text to get past the guard (a file name's undecodable bytes), its answer is ASCII."""
    assert JSONResponse({"name": "ñ\udcff"}).body == b'{"name":"\\u00f1\\udcff"}'


@pytest.mark.parametrize("path", [
    "/ws/{id}?seat=²", "/ws/{id}?seat=-1", "/ws/{id}?seat=99999", "/ws/{id}?seat=", "/ws/{id}?seat=1e3",
    "/ws/{id}?seat=%FF", "/ws/{id}?seat=0&seat=1", "/ws/{id}?seat=0&token=%00", "/ws/nosuch?seat=0",
    "/ws/{id}?seat=٣",
])
def test_no_seat_text_gives_a_server_traceback(client, path):
    table_id, _ = new_table(client)
    with client.websocket_connect(path.format(id=table_id)) as ws:
        message = ws.receive_json()
    assert message["type"] == "error" and message["message"]


@pytest.mark.parametrize("path", ["/api/replay", "/api/replay/99999999999999999999", "/table/%FF?seat=²",
                                  "/api/tables?x=%FF", "/static/../app.py", "/nowhere"])
def test_no_path_gives_a_server_traceback(client, path):
    assert client.get(path).status_code in (200, 404)


def test_every_answer_forbids_framing_and_sniffing(client):
    page = client.get("/")
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY" and page.headers["x-content-type-options"] == "nosniff"
    assert client.get("/api/tables").headers["referrer-policy"] == "no-referrer"


def test_the_page_and_its_assets_are_served_from_the_package(client):
    page = client.get("/table/abc")
    assert page.status_code == 200 and "/static/table.js" in page.text
    for asset in ("table.js", "table.css"):
        assert client.get(f"/static/{asset}").status_code == 200


def test_serve_says_so_when_the_port_is_taken():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "fichas", "--port", str(port)])
    assert result.exit_code == 1 and f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args, message", [
    (["fichas", "--seat", "human", "--seat", "human", "--seat", "human"], "seats 2 to 2 players, not 3"),
    (["fichas", "--seat", "wizardly"], "unknown agent 'wizardly'"),
    (["--seat", "human"], "--seat, --players, --opponents and -p need a RULESET"),
    (["fichas", "--players", "3"], "--players: The chip game (fichas) seats 2 to 2 players, not 3"),
])
def test_serve_refuses_a_table_it_cannot_seat(args, message):
    result = CliRunner().invoke(main, ["serve", *args, "--port", "0"])
    assert result.exit_code in (1, 2) and message in result.output and "Traceback" not in result.output


# ------------------------------------------------------------ saved games
def logging_client(folder):
    return testclient.TestClient(create_app(GAMES, pause=0, hosts=["testserver"], logs=folder))


def play_out(ws, until=lambda state: state["over"], moves=None):
    """Play a tab's first option at every turn until `until` holds for its state (that state)."""
    while True:
        message = ws.receive_json()
        if message["type"] != "state":
            continue
        if until(message):
            return message
        if message["your_turn"]:
            ws.send_json({"serial": message["serial"], "label": message["options"][0]["label"]})


POCHA = {"peak": "2", "random_seats": "false"}


def test_a_finished_games_log_is_downloaded_and_replayed(tmp_path):
    with logging_client(tmp_path) as client:
        made = client.post("/api/tables", json={"game": "fichas", "seats": ["human", "random"],
                                                "params": {"count": "5"}}).json()
        with client.websocket_connect(f"/ws/{made['id']}?seat=0&token={made['token']}") as tab:
            final = play_out(tab)
        name = final["outcome"]["log"]
        assert [(g["name"], g["finished"], g["ruleset"]) for g in client.get("/api/logs").json()] == \
            [(name, True, "fichas")]
        download = client.get(f"/api/logs/{name}")
        assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
        assert download.content == (tmp_path / name).read_bytes()
        replay = Replay.load(tmp_path / name)
        assert replay.game.over and replay.header["seats"] == ["human", "random"]
        assert replay.header["seed"] == final["outcome"]["seed"]
        info = client.get(f"/api/replay?log={name}&seat=0").json()
        assert info["replay"]["steps"] == replay.steps and info["seed"] == replay.header["seed"]
        last = client.get(f"/api/replay/{replay.steps}?log={name}&seat=watch").json()
        assert last["state"]["over"] and last["state"]["outcome"]["winners"] == final["outcome"]["winners"]
        assert client.get(f"/api/replay?log={name}&seat=²").status_code == 400


def test_a_game_in_play_gives_out_no_log(tmp_path):
    with logging_client(tmp_path) as client:
        made = client.post("/api/tables", json={"game": "fichas", "seats": ["human", "random"]}).json()
        [saved] = client.get("/api/logs").json()
        assert not saved["finished"] and saved["in_play"]
        for path in (f"/api/logs/{saved['name']}", f"/api/replay?log={saved['name']}"):
            answer = client.get(path)
            assert answer.status_code == 403 and "shows every hand" in answer.json()["error"]
        assert client.post("/api/tables", json={"resume": saved["name"]}).status_code == 409
        for name in ("../fichas.yaml", "nosuch.jsonl", "%2e%2e%2fx.jsonl", "a/b.jsonl"):
            assert client.get(f"/api/logs/{name}").status_code == 404
            assert client.post("/api/tables", json={"resume": name}).status_code == 404
        assert made["id"]


def test_a_saved_game_is_resumed_at_one_table_however_many_ask_at_once(tmp_path):
    # the log was checked, then read again for seconds, then claimed by the table: four requests at once all made
    # a table writing one file, and the first to finish gave out every hand of the others' game
    with logging_client(tmp_path) as client:
        client.post("/api/tables", json={"game": "fichas", "seats": ["human", "random"]})
    with logging_client(tmp_path) as client:
        [saved] = client.get("/api/logs").json()
        answers: list = []
        askers = [threading.Thread(target=lambda: answers.append(
            client.post("/api/tables", json={"resume": saved["name"]}))) for _ in range(4)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join()
        assert sorted(answer.status_code for answer in answers) == [200, 409, 409, 409]
        assert sum(1 for t in client.app.state.tables.all() if t.log and t.log.name == saved["name"]) == 1
        assert client.get(f"/api/logs/{saved['name']}").status_code == 403


def records_then_state(ws) -> tuple[list[dict], dict]:
    """The records a tab gets before its first state, and that state. The records come in as many messages as the
    game thread had made them when the tab looked (a resumed game's, as its logged decisions are made again)."""
    records: list[dict] = []
    while (message := ws.receive_json())["type"] != "state":
        if message["type"] == "records":
            records += message["records"]
    return records, message


def test_a_stopped_game_is_resumed_after_a_restart_and_its_log_goes_on(tmp_path):
    with logging_client(tmp_path) as client:
        made = client.post("/api/tables", json={"game": "pocha", "params": POCHA,
                                                "seats": ["human", "random", "random", "random"]}).json()
        with client.websocket_connect(f"/ws/{made['id']}?seat=0&token={made['token']}") as tab:
            before = play_out(tab, lambda s: s["your_turn"] and len(s["view"]["players"][0]["hand"]) == 2)
    with logging_client(tmp_path) as client:  # a new server, the same folder
        [saved] = client.get("/api/logs").json()
        assert not saved["finished"] and not saved["in_play"] and saved["seats"][0] == "human"
        resumed = client.post("/api/tables", json={"resume": saved["name"]}).json()
        table = client.app.state.tables.get(resumed["id"])
        with client.websocket_connect(f"/ws/{resumed['id']}?seat=0&token={resumed['token']}") as tab:
            info = receive(tab, "table")
            assert info["seed"] is None and info["spec"]["params"] == POCHA
            records, state = records_then_state(tab)
            assert state["view"] == before["view"] and state["options"] == before["options"]
            mine = [r for r in records if r["type"] == "decision" and r["seat"] == 0]
            assert mine and all(r["own"] for r in mine)  # the logged moves, in the mover's own words
            tab.send_json({"serial": state["serial"], "label": state["options"][0]["label"]})
            final = play_out(tab)
        assert final["outcome"]["log"] == saved["name"] and not list(tmp_path.glob("*.part"))
        replay = Replay.load(tmp_path / saved["name"])  # the whole game, before and after the restart
        assert replay.game.over and replay.steps == table.game.decisions
        assert client.post("/api/tables", json={"resume": saved["name"]}).json()["error"].startswith(
            "this game is over")


@pytest.mark.parametrize("change, message", [
    (lambda h: {**h, "seats": ["human", "python:evil.py:Bot"]}, "unknown player 'python:evil.py:Bot'"),
    (lambda h: {**h, "ruleset": "/tmp/evil.yaml"}, "a rule file this server does not serve"),
])
def test_a_saved_game_resumes_only_with_the_servers_rule_files_and_players(tmp_path, change, message):
    with logging_client(tmp_path) as client:
        made = client.post("/api/tables", json={"game": "fichas", "seats": ["human", "random"]}).json()
        assert made["id"]
    [log] = tmp_path.glob("*.jsonl")
    lines = log.read_text().splitlines()
    lines[0] = json.dumps(change(json.loads(lines[0])))
    log.write_text("\n".join(lines) + "\n")
    with logging_client(tmp_path) as client:
        answer = client.post("/api/tables", json={"resume": log.name})
        assert answer.status_code == 400 and message in answer.json()["error"]
        assert client.app.state.tables.all() == []
