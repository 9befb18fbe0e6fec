"""The web table in a real browser: headless Chromium driven by Selenium.

A whole chip game started from the choose-game screen, and a Pocha match of
short rounds played by two people in two tabs: what each tab shows is
checked against the server's game, and illegal clicks (a card the obligations
forbid, a card played out of turn) are refused with their reason. Skipped,
with the reason, where Chromium, chromedriver or Selenium is missing.
"""
from __future__ import annotations

import threading

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra (pip install -e '.[web]')")
pytestmark = pytest.mark.slow  # starts a browser
from naipes.web.browser import missing  # noqa: E402

if missing():
    pytest.skip(f"no browser to drive: {missing()}", allow_module_level=True)

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.responses import HTMLResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from naipes import load_program  # noqa: E402
from naipes.program import get  # noqa: E402
from naipes.web.app import create_app, new_table  # noqa: E402
from naipes.web.browser import chromium  # noqa: E402
from naipes.web.server import serving  # noqa: E402
from naipes.web.table import Table  # noqa: E402

from helpers import RULESETS, write_rules  # noqa: E402

GAMES = {name: RULESETS / f"{name}.yaml" for name in ("fichas", "pocha", "escoba")}
POCHA = {"peak": "2", "random_seats": "false"}  # rounds of 1, 2 and 1 cards
WAIT = 20
EVIL = "evil.test"  # another site, whose name the browser resolves to this machine (DNS rebinding)


@pytest.fixture(scope="module")
def server():
    app = create_app(GAMES, pause=0)
    with serving(app) as url:
        yield app, url


@pytest.fixture(scope="module")
def driver():
    with chromium(1300, 900, flags=[f"--host-resolver-rules=MAP {EVIL} 127.0.0.1"]) as driver:
        yield driver


def wait(driver, condition, message="the page did not get there"):
    return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(lambda d: condition(d), message)


def shown(driver, table: Table, seat: int) -> dict:
    """The seat's state once the tab shows the server's latest (its serial is on the page)."""
    def current(d):
        state = table.state(seat)
        mark = f"{state['serial']}{'-over' if state['over'] else ''}" if state else None
        return state if d.find_element(By.TAG_NAME, "body").get_attribute("data-serial") == mark else None
    return wait(driver, current, f"tab of seat {seat} never showed the latest state")


def until(table: Table, condition) -> None:
    """Wait (on the game's thread's news) until `condition()` holds."""
    changed = threading.Event()
    table.watchers.append(changed.set)
    try:
        while not condition():
            assert changed.wait(WAIT), "the game stalled"
            changed.clear()
    finally:
        table.watchers.remove(changed.set)


def a_person_to_move(table: Table, people: tuple[int, ...] = (0,)) -> int | None:
    """The seat of the person to move, once one of `people` is (None when the game is over)."""
    until(table, lambda: table.over or (table.turn in people and table.state(table.turn)["your_turn"]))
    return None if table.over else table.turn


def play_first_option(table: Table, seat: int) -> None:
    state = table.state(seat)
    assert table.submit(seat, {"serial": state["serial"], "label": state["options"][0]["label"]}).result(WAIT) is None


def message(driver) -> str:
    return wait(driver, lambda d: d.find_element(By.ID, "message").text, "no message was shown")


def test_a_whole_chip_game_from_the_choose_game_screen(server, driver):
    app, url = server
    driver.get(url)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.game-tile[data-game="fichas"]'))[0].click()
    form = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".setup-form"))
    how_to_play = load_program(GAMES["fichas"]).doc
    assert driver.find_element(By.CSS_SELECTOR, "#setup .rules").text == how_to_play  # the rules, before choosing
    Select(form.find_element(By.NAME, "seat1")).select_by_value("minimax")
    form.find_element(By.NAME, "param-count").clear()
    form.find_element(By.NAME, "param-count").send_keys("9")
    form.find_element(By.NAME, "seed").send_keys("12")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, lambda d: "/table/" in d.current_url)
    table = app.state.tables.get(driver.current_url.split("/table/")[1].split("?")[0])
    assert table.seed == 12 and table.seat_specs == ["human", "minimax"] and table.program.param_values["count"] == 9
    assert f"token={table.tokens[0]}" in driver.current_url
    wait(driver, lambda d: d.find_element(By.ID, "title").text)
    assert "seed" not in driver.find_element(By.ID, "title").text  # a chosen deal is said to be, not told
    driver.find_element(By.ID, "legend-button").click()              # at the table: how to play, and the cards
    rules = wait(driver, lambda d: d.find_element(By.ID, "legend") if d.find_element(By.ID, "legend").is_displayed()
                 else None)
    assert "HOW TO PLAY" in rules.text.upper() and how_to_play.splitlines()[0] in rules.text
    driver.find_element(By.ID, "legend-button").click()

    moves = 0
    while True:
        a_person_to_move(table)
        state = shown(driver, table, 0)
        chips = driver.find_elements(By.CSS_SELECTOR, '#centre [data-zone="table"] .card.chip')
        assert sorted(c.get_attribute("data-card") for c in chips) == sorted(state["view"]["zones"]["table"])
        if state["over"]:
            break
        assert driver.find_element(By.ID, "status").text.startswith("Your turn")
        buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button.option.legal")
        assert sorted(b.get_attribute("data-label") for b in buttons) == sorted(o["label"] for o in state["options"])
        if moves % 2:  # a chip on the table offers its colour and its value
            next(c for c in chips if "legal" in c.get_attribute("class")).click()
            wait(driver, lambda d: d.find_element(By.ID, "menu").is_displayed())
            driver.find_elements(By.CSS_SELECTOR, "#menu button")[0].click()
        else:
            buttons[0].click()
        moves += 1
        wait(driver, lambda d, state=state: table.serial > state["serial"] or table.over)
    over = wait(driver, lambda d: d.find_element(By.ID, "over") if d.find_element(By.ID, "over").is_displayed()
                else None)
    winner = table.outcome["winners"][0]
    assert f"{winner} wins" in over.text
    assert "seed 12" in driver.find_element(By.ID, "title").text
    history = driver.find_element(By.ID, "history").text
    assert history.count("You:") == moves and "Game over. Winner: " + winner in history
    driver.set_script_timeout(WAIT)  # the log, downloaded as the dialog's link gets it, is the game's
    link = over.find_element(By.LINK_TEXT, "Download the log").get_attribute("href")
    logged = driver.execute_async_script("fetch(arguments[0]).then((r) => r.text()).then(arguments[1])", link)
    assert logged == table.log.read_text(encoding="utf-8") and '"type": "end"' in logged.splitlines()[-1]
    over.find_element(By.LINK_TEXT, "Replay").click()
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-step") == "0")
    driver.find_element(By.CSS_SELECTOR, "[data-go=last]").click()
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-step") == str(table.game.decisions))
    assert f"{winner}" in driver.find_element(By.ID, "history").text


def first_policy_game_with_a_refused_card() -> int:
    """A seed whose match, played by the test's policy (the first legal option), puts a forbidden card in a
    human hand."""
    program = load_program(GAMES["pocha"], POCHA)
    for seed in range(1, 40):
        table = Table(program, ["human", "human", "random", "random"], seed)
        table.start()
        try:
            while (seat := a_person_to_move(table, (0, 1))) is not None:
                if any(o["card"] for o in table.state(seat)["refused"]):
                    return seed
                serial = table.serial
                play_first_option(table, seat)
                until(table, lambda table=table, serial=serial: table.serial > serial or table.over)
        finally:
            table.close()
    raise AssertionError("no seed in 1..39 deals a forbidden card to a human")


def test_two_people_play_pocha_in_two_tabs_and_illegal_clicks_are_refused(server, driver):
    app, url = server
    seed = first_policy_game_with_a_refused_card()
    table = new_table(app, "pocha", POCHA, ["human", "human", "random", "random"], seed)
    driver.get(f"{url}{table.link(0)}")
    tabs = {0: driver.current_window_handle}
    invite = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#invites input[data-seat="1"]'))[0]
    link = invite.get_attribute("value")  # whoever made the table is shown P2's link, to send
    assert link == f"{url}{table.link(1)}"
    driver.switch_to.new_window("tab")
    driver.get(link)
    tabs[1] = driver.current_window_handle
    driver.switch_to.window(tabs[0])
    wait(driver, lambda d: not d.find_element(By.ID, "invites").is_displayed())  # the seat is taken now
    refused_card = out_of_turn = False
    try:
        while (seat := a_person_to_move(table, (0, 1))) is not None:
            other = 1 - seat
            if not out_of_turn:  # the other person clicks a card of theirs: not their turn
                driver.switch_to.window(tabs[other])
                shown(driver, table, other)
                driver.find_element(By.CSS_SELECTOR, "#my-zones .card[data-card]").click()
                assert message(driver) == f"it is not your turn: waiting for P{seat + 1} to move"
                out_of_turn = True
            driver.switch_to.window(tabs[seat])
            state = shown(driver, table, seat)
            me = state["view"]["players"][seat]
            hand = driver.find_elements(By.CSS_SELECTOR, '#my-zones [data-zone="hand"] .card[data-card]')
            assert sorted(c.get_attribute("data-card") for c in hand) == sorted(me["hand"])
            trick = driver.find_elements(By.CSS_SELECTOR, '#centre [data-zone="trick"] .card[data-card]')
            assert [c.get_attribute("data-card") for c in trick] == state["view"]["zones"]["trick"]
            others = driver.find_elements(By.CSS_SELECTOR, "#opponents .player")
            assert [o.get_attribute("data-player") for o in others] == [p["name"] for p in state["view"]["players"]
                                                                         if p["seat"] != seat]
            forbidden = [o for o in state["refused"] if o["card"]]
            if forbidden:
                refused = f'#my-zones .card.refused[data-card="{forbidden[0]["card"]}"]'
                driver.find_element(By.CSS_SELECTOR, refused).click()
                assert message(driver) == f"'{forbidden[0]['label']}' is refused: {forbidden[0]['reason']}"
                assert "the rule 'follow_suit" in forbidden[0]["reason"] and table.serial == state["serial"]
                refused_card = True
            option = state["options"][0]
            if option["card"]:
                driver.find_element(By.CSS_SELECTOR, f'#my-zones .card.legal[data-card="{option["card"]}"]').click()
            else:
                driver.find_element(By.CSS_SELECTOR, f'#actions button.legal[data-label="{option["label"]}"]').click()
            wait(driver, lambda d, state=state: table.serial > state["serial"] or table.over)
        table.join(WAIT)
        for seat in (0, 1):
            driver.switch_to.window(tabs[seat])
            final = shown(driver, table, seat)
            over = wait(driver, lambda d: d.find_element(By.ID, "over") if d.find_element(By.ID, "over").is_displayed()
                        else None)
            assert all(name in over.text for name in table.outcome["winners"])
            rows = driver.find_elements(By.CSS_SELECTOR, "#scores tr[data-player]")
            scores = {p["name"]: str(p["score"]) for p in final["view"]["players"]}
            assert {r.get_attribute("data-player"): r.find_elements(By.TAG_NAME, "td")[-1].text for r in rows} == scores
            sheet = [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
                     for row in over.find_elements(By.CSS_SELECTOR, ".sheet tr")]
            assert sheet[0] == ["hand", "P1", "P2", "P3", "P4"]
            assert [row[0] for row in sheet[1:]] == ["1", "2", "3", "total"]
            assert sheet[-1][1:] == [scores[name] for name in ("P1", "P2", "P3", "P4")]
            assert "Round 3 - 1 card each" in driver.find_element(By.ID, "history").text
    finally:
        driver.switch_to.window(tabs[1])
        driver.close()
        driver.switch_to.window(tabs[0])
    assert refused_card and out_of_turn


def test_a_logged_game_replays_step_by_step_in_any_seats_view(driver, tmp_path):
    from click.testing import CliRunner

    from naipes.tools.cli import main
    from naipes.tools.replay import EVERYTHING, Replay
    log = tmp_path / "tute.jsonl"
    played = CliRunner().invoke(main, ["play", "tute_cabrero", "--seed", "2", "--log", str(log),
                                       "--seat", "random", "--seat", "random", "--seat", "random"])
    assert played.exit_code == 0, played.output
    replay = Replay.load(log)

    def hand(selector):
        return sorted(c.get_attribute("data-card") for c in driver.find_elements(By.CSS_SELECTOR, selector))

    def at_step(number):
        wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-step") == str(number),
             f"the page never showed step {number}")

    with serving(create_app({}, replay=replay)) as url:
        driver.get(f"{url}replay?seat=1")
        at_step(0)
        driver.find_element(By.CSS_SELECTOR, "[data-go=forward]").click()
        driver.find_element(By.CSS_SELECTOR, "[data-go=forward]").click()
        at_step(2)
        assert hand("#my-zones .zone-hand .card[data-card]") == sorted(replay.view(2, 1)["players"][1]["hand"])
        assert not driver.find_elements(By.CSS_SELECTOR, "#opponents .card[data-card]")  # the others' are backs
        driver.find_element(By.CSS_SELECTOR, "[data-go=back]").click()
        at_step(1)
        assert "step=1" in driver.current_url
        Select(driver.find_element(By.ID, "replay-seat")).select_by_value("all")
        at_step(1)
        everything = replay.view(1, EVERYTHING)["players"]
        assert hand("#opponents .zone-hand .card[data-card]") == sorted(c for p in everything for c in p["hand"])
        driver.find_element(By.CSS_SELECTOR, "[data-go=last]").click()
        at_step(replay.steps)
        assert "Game over" in driver.find_element(By.ID, "status").text


ATTACK = """
const [target, socket, done] = arguments;
const results = {};
try {  // a "simple" request, which a browser sends across sites without asking first
  const answer = await fetch(target + "api/tables", {method: "POST", mode: "no-cors",
    headers: {"Content-Type": "text/plain"}, body: JSON.stringify({game: "fichas"})});
  results.simple = answer.type;
} catch (error) { results.simple = "failed"; }
try {
  await fetch(target + "api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify({game: "fichas"})});
  results.json = "sent";
} catch (error) { results.json = "failed"; }
results.socket = await new Promise((resolve) => {
  const ws = new WebSocket(socket);
  ws.onmessage = (event) => resolve("open: " + event.data.slice(0, 40));
  ws.onerror = () => resolve("refused");
});
done(results);
"""


def test_a_page_of_another_site_can_neither_make_tables_nor_sit(server, driver):
    """A page of another site, in the player's own browser: its requests to the table are refused (its
    WebSocket even with a seat's key), and a name of its own pointed at the server is not answered."""
    app, url = server
    table = new_table(app, "fichas", {}, ["human", "human"], None)
    before = [t.id for t in app.state.tables.all()]
    port = url.rsplit(":", 1)[1].strip("/")
    page = Starlette(routes=[Route("/", lambda request: HTMLResponse("<title>evil</title>"))])
    with serving(page) as evil_url:
        driver.get(evil_url.replace("127.0.0.1", EVIL))
        driver.set_script_timeout(WAIT)
        results = driver.execute_async_script(ATTACK, url, f"ws://127.0.0.1:{port}/ws/{table.id}?seat=0&token="
                                                           f"{table.tokens[0]}")
    assert results == {"simple": "failed", "json": "failed", "socket": "refused"}
    assert [t.id for t in app.state.tables.all()] == before and not table.seats()[0]["taken"]
    driver.get(f"http://{EVIL}:{port}/")  # DNS rebinding: the other site's name, this server's address
    assert "does not answer to the name" in driver.find_element(By.TAG_NAME, "body").text
    table.close()


def test_a_stopped_game_resumes_from_the_choose_game_screen(server, driver):
    app, url = server
    table = new_table(app, "pocha", POCHA, ["human", "random", "random", "random"], 5)
    while len((state := table.state(a_person_to_move(table)))["view"]["players"][0]["hand"]) != 2:
        play_first_option(table, 0)
        until(table, lambda state=state: table.serial > state["serial"])
    table.close()  # (as when the server stops)
    table.join(WAIT)
    driver.get(url)
    resume = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#saved li[data-log="{table.log.name}"] button'))
    resume[0].click()
    wait(driver, lambda d: "/table/" in d.current_url and table.id not in d.current_url)
    resumed = app.state.tables.get(driver.current_url.split("/table/")[1].split("?")[0])
    again = shown(driver, resumed, 0)
    assert again["view"] == state["view"] and resumed.log == table.log
    hand = driver.find_elements(By.CSS_SELECTOR, '#my-zones [data-zone="hand"] .card[data-card]')
    assert sorted(c.get_attribute("data-card") for c in hand) == sorted(state["view"]["players"][0]["hand"])
    resumed.close()


# ------------------------------------------------------- the screen and the keyboard
SIZES = {"laptop": (1366, 625, False), "phone": (390, 844, True)}  # a 1366x768 laptop's window, a phone

OFF_SCREEN = """
// the seat's hand, moves and message: those not wholly in the window (which must not scroll, nor zoom out)
const [W, H] = [window.innerWidth, window.innerHeight];
const out = (e) => { const r = e.getBoundingClientRect();
  return r.width > 0 && (r.top < 0 || r.left < 0 || r.bottom > H + 0.5 || r.right > W + 0.5); };
const nodes = [...document.querySelectorAll("#my-zones .card, #actions button, #message")];
return {size: [W, H], scrolls: document.scrollingElement.scrollHeight > H || document.scrollingElement.scrollWidth > W,
        off: nodes.filter(out).map((e) => e.dataset.card || e.dataset.label || e.id), shown: nodes.length};
"""


def sized(driver, size: str) -> None:
    width, height, mobile = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def to_move(table: Table, ready=lambda state: True) -> dict:
    """Play the human's first option (P1) until it is to move in a position `ready` accepts."""
    while True:
        seat = a_person_to_move(table)
        assert seat == 0, "the game ended first"
        state = table.state(0)
        if ready(state):
            return state
        play_first_option(table, 0)
        until(table, lambda state=state: table.serial > state["serial"])


def test_a_table_card_an_option_names_is_clicked_where_it_lies(server, driver):
    """Escoba's capture takes table cards one at a time (a part of the move): each legal one is highlighted on
    the table, and a click on it takes it."""
    app, url = server
    table = new_table(app, "escoba", {}, ["human", "random"], 2)
    state = to_move(table, lambda state: "capture" in {o["move"] for o in state["options"]})
    capture = next(o for o in state["options"] if o["move"] == "capture")
    assert table.submit(0, {"serial": state["serial"], "label": capture["label"]}).result(WAIT) is None
    driver.get(f"{url}{table.link(0)}")
    while (state := table.state(0))["options"] and state["options"][0]["move"] == "capture.taken":
        shown(driver, table, 0)
        begun = table.game.begun()[1]  # (the card played, the table cards taken so far)
        chosen = ", ".join([begun[0].name, *(c.name for c in begun[1])])
        assert driver.find_element(By.ID, "status").text.endswith(f"(chosen so far: {chosen})")
        offered = {o["card"] for o in state["options"]}
        legal = driver.find_elements(By.CSS_SELECTOR, '#centre [data-zone="table"] .card.legal')
        assert {card.get_attribute("data-card") for card in legal} == offered
        taken = legal[0].get_attribute("data-card")
        legal[0].click()
        until(table, lambda state=state: table.serial > state["serial"])
        assert table.game.begun() is None or taken in {c.name for c in table.game.begun()[1][1]}
    assert capture["card"] in {c.name for c in get(table.game.memory.players[0], "won")}, "the capture was made"
    table.close()


def fit_cases() -> list[tuple[str, dict, list[str] | None, object]]:
    """Every shipped game at its default number of players at P1's first turn (Tute's 13 cards among them), then a
    card Tute forbids, eight at Chinchón, Wizard's last round of 20 cards for three. The opponents are random: the
    layout is the test's subject, and the default AI searches about a second a move."""
    from naipes import load_program
    from naipes.language.shipped import shipped_rulesets
    cases = [(path.stem, {}, ["human"] + ["random"] * (load_program(path).players[2] - 1), lambda state: True)
             for path in shipped_rulesets()]
    return cases + [("tute_cabrero", {}, ["human", "random", "random"],
                     lambda state: any(o["card"] for o in state["refused"])),
                    ("chinchon", {}, ["human"] + ["strong"] * 7, lambda state: True),
                    ("wizard", {}, ["human", "random", "random"],
                     lambda state: len(state["view"]["players"][0]["hand"]) == 20 and "play" in state["moves"])]


def click_corner(driver, card) -> None:
    """Click a card where it shows when cards overlap: its top left corner."""
    ActionChains(driver).move_to_element_with_offset(card, -card.size["width"] // 2 + 8,
                                                     -card.size["height"] // 2 + 12).click().perform()


def in_order(driver, table: Table) -> None:
    """The hand shown in the order the terminal shows it too (naipes.agents.human.in_display_order)."""
    from naipes.agents.human import in_display_order
    view = table.game.view(0)
    if any(zone.name == "hand" and not zone.ordered for zone in table.game.program.zones) and "hand" in \
            view["players"][0]:
        hand = driver.find_elements(By.CSS_SELECTOR, '#my-zones [data-zone="hand"] .card[data-card]')
        assert [c.get_attribute("data-card") for c in hand] == \
            in_display_order(table.game.program, view)["players"][0]["hand"], table.game.program.name


def test_your_hand_moves_and_any_refusal_fit_the_window_in_every_shipped_game(driver):
    from naipes.language.shipped import shipped_rulesets
    app = create_app({path.stem: path for path in shipped_rulesets()}, pause=0)
    refusals = []
    with serving(app) as url:
        try:
            for game, params, seats, ready in fit_cases():
                table = new_table(app, game, params, seats, 7)
                state = to_move(table, ready)
                for size in SIZES:
                    sized(driver, size)
                    driver.get(f"{url}{table.link(0)}")
                    shown(driver, table, 0)
                    in_order(driver, table)
                    found = driver.execute_script(OFF_SCREEN)
                    assert found["size"] == list(SIZES[size][:2]) and not found["scrolls"], (game, size, found)
                    assert found["off"] == [] and found["shown"] >= len(state["view"]["players"][0].get("hand", [])), \
                        (game, size, found)
                    other = driver.find_elements(By.CSS_SELECTOR, "#my-zones .mine .card[data-card]:not(.legal)")
                    if other:  # a card you may not play now: its refusal is on screen too
                        click_corner(driver, other[-1])
                        wait(driver, lambda d: d.find_element(By.ID, "message").text)
                        found = driver.execute_script(OFF_SCREEN)
                        assert found["off"] == [] and not found["scrolls"], (game, size, "refused", found)
                        refusals.append((game, size))
                table.close()
        finally:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert {"tute_cabrero", "chinchon", "pocha", "wizard"} <= {game for game, _ in refusals}


LOW_CONTRAST = """
// every text on screen read at under 4.5:1 against what is behind it (WCAG AA): [text, ratio]. Behind a text
// are its ancestors' backgrounds, composited from the page down; a gradient counts as each of its colours.
const parse = (c) => { const v = c.match(/[\\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3]));
const lum = (rgb) => { const [r, g, b] = rgb.map((v) => { const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
function behind(node) {
  const chain = [];
  for (let n = node; n; n = n.parentElement) chain.unshift(n);
  let colours = [[255, 255, 255]];
  for (const n of chain) {
    const style = getComputedStyle(n);
    const fill = parse(style.backgroundColor);
    if (fill[3] > 0) colours = colours.map((c) => over(fill, c));
    const stops = (style.backgroundImage.match(/rgba?\\([^)]*\\)/g) || []).map(parse);
    if (stops.length) colours = stops.flatMap((stop) => colours.map((c) => over(stop, c)));
  }
  return colours;
}
const [W, H] = [window.innerWidth, window.innerHeight];
const low = [];
for (const node of document.querySelectorAll("body *")) {
  const text = [...node.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join("").trim();
  const r = node.getBoundingClientRect();
  if (!text || !r.width || r.bottom < 0 || r.top > H || r.right < 0 || r.left > W) continue;
  if (getComputedStyle(node).visibility !== "visible") continue;
  const colour = parse(getComputedStyle(node).color);
  const worst = Math.min(...behind(node).map((c) => ratio(over(colour, c), c)));
  if (worst < 4.5) low.push([text.slice(0, 40), Math.round(worst * 100) / 100]);
}
return low;
"""


def unnamed(driver, selector: str) -> list[str]:
    """The elements `selector` finds that the browser's accessibility tree leaves out or gives no name."""
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    found = driver.execute_cdp_cmd("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]
    tree = {node.get("backendDOMNodeId"): node
            for node in driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]}
    missing = []
    for node_id in found:
        described = driver.execute_cdp_cmd("DOM.describeNode", {"nodeId": node_id})["node"]
        ax = tree.get(described["backendNodeId"])
        if ax is None or ax.get("ignored") or not ax.get("name", {}).get("value"):
            attributes = dict(zip(described["attributes"][::2], described["attributes"][1::2]))
            missing.append(attributes.get("data-card") or attributes.get("data-zone") or str(attributes))
    return missing


def test_every_card_is_named_the_text_is_readable_and_the_keyboard_plays_a_whole_game(server, driver):
    app, url = server
    driver.get(url)  # the choose-game screen
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".game-tile"))
    assert driver.execute_script(LOW_CONTRAST) == []
    table = new_table(app, "pocha", POCHA, ["human", "random", "random", "random"], 3)
    to_move(table, lambda state: state["view"]["zones"]["trick"] and "play" in state["moves"])
    try:
        for size in SIZES:
            sized(driver, size)
            driver.get(f"{url}{table.link(0)}")
            shown(driver, table, 0)
            cards = driver.find_elements(By.CSS_SELECTOR, "[data-card]")
            assert len(cards) >= 3 and unnamed(driver, "[data-card]") == []  # your hand, the trick, the turn-up
            assert unnamed(driver, "[data-zone]") == []  # every pile and hand, the others' face down
            assert driver.execute_script(LOW_CONTRAST) == [], size
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    table.close()

    chips = new_table(app, "fichas", {"count": "6"}, ["human", "random"], 4)  # the whole game by keyboard
    driver.get(f"{url}{chips.link(0)}")
    keys = ActionChains(driver)
    while a_person_to_move(chips) is not None:
        state = shown(driver, chips, 0)
        assert driver.execute_script(LOW_CONTRAST) == []
        for _ in range(60):  # Tab to a legal move (your turn puts the focus on the first)
            focused = driver.switch_to.active_element
            if "legal" in (focused.get_attribute("class") or ""):
                break
            keys.send_keys(Keys.TAB).perform()
        keys.send_keys(Keys.ENTER).perform()  # a chip offers its colour and its value: a menu, with the focus
        wait(driver, lambda d, state=state: chips.serial > state["serial"] or chips.over
             or d.find_element(By.ID, "menu").is_displayed())
        if driver.find_element(By.ID, "menu").is_displayed():
            keys.send_keys(Keys.ENTER).perform()
        until(chips, lambda state=state: chips.serial > state["serial"] or chips.over)
    final = shown(driver, chips, 0)
    assert final["over"] and "wins" in driver.find_element(By.ID, "over").text
    assert driver.switch_to.active_element.text == "Play again"  # the end's dialog has the focus
    assert driver.execute_script(LOW_CONTRAST) == []


def test_a_person_asked_with_others_is_told_who_has_answered_not_what(driver, tmp_path):
    from test_together import SEALED  # three bids made at once
    app = create_app({"sealed": write_rules(tmp_path, SEALED, "sealed.yaml")}, pause=0)
    with serving(app) as url:
        table = new_table(app, "sealed", {}, ["human", "human", "random"], 3)
        assert a_person_to_move(table, (0, 1)) == 0
        play_first_option(table, 0)
        assert a_person_to_move(table, (1,)) == 1
        driver.get(f"{url}{table.link(1)}")
        shown(driver, table, 1)
        status = driver.find_element(By.ID, "status").text
        assert status.startswith("Your turn") and status.endswith("(already answered, not shown until all have: P1)")
        table.close()


def test_another_players_move_whose_public_form_is_empty_is_left_out_of_the_history(driver, tmp_path):
    # a capture's table cards taken one by one say nothing to the others (public: ''): the capture itself and how
    # it was made are told, never a blank "P2: " for each card taken
    from test_collect import CAPTURE
    part = "        label: \"f'take {t.name}'\"\n"
    rules = write_rules(tmp_path, CAPTURE.replace(part, part + "        public: \"''\"\n"), "captures.yaml")
    app = create_app({"captures": rules}, pause=0)
    with serving(app) as url:
        for seed in range(20):
            table = new_table(app, "captures", {}, ["human", "random"], seed)
            while a_person_to_move(table) is not None:
                state = table.state(0)
                play_first_option(table, 0)
                until(table, lambda table=table, state=state: table.serial > state["serial"] or table.over)
            if any(r.get("seat") == 1 and r.get("move") == "capture.taken" for r in table.records):
                break
            table.close()
        else:
            pytest.fail("the random seat never took a table card in 20 games")
        driver.get(f"{url}{table.link(0)}")
        shown(driver, table, 0)
        told = [li.get_attribute("textContent") for li in driver.find_elements(By.CSS_SELECTOR, "#history li.decision")]
        assert any(text.startswith("P2: capture with") for text in told)
        assert not [text for text in told if text.strip(" :") == "P2"]
        table.close()
