"""The web table in a real browser: headless Chromium driven by Selenium.

A whole chip game started from the choose-game screen, and a Pocha match of
short rounds played by two people in two tabs: what each tab shows is
checked against the server's game, and illegal clicks (a card the obligations
forbid, a card played out of turn) are refused with their reason. Skipped,
with the reason, where Chromium, chromedriver or Selenium is missing.
"""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra (pip install -e '.[web]')")
pytestmark = pytest.mark.slow  # starts a browser
from naipes.web.browser import missing  # noqa: E402

if missing():
    pytest.skip(f"no browser to drive: {missing()}", allow_module_level=True)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.responses import HTMLResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from naipes import load_program  # noqa: E402
from naipes.web.app import create_app, new_table  # noqa: E402
from naipes.web.browser import chromium  # noqa: E402
from naipes.web.server import serving  # noqa: E402
from naipes.web.table import Table  # noqa: E402

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
GAMES = {name: RULESETS / f"{name}.yaml" for name in ("fichas", "pocha")}
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
    driver.switch_to.new_window("tab")
    driver.get(f"{url}{table.link(1)}")
    tabs[1] = driver.current_window_handle
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
