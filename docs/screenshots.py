"""Screenshots of the web table, for the README: docs/img/GAME.png for each game, and the choose-game screen.

    .venv/bin/python docs/screenshots.py [--out docs/img] [GAME...]

Needs the web and e2e extras and Chromium with chromedriver (apt-get install
chromium chromium-driver). Each game is dealt from a fixed seed; the human at
P1 plays seeded random modest moves until a position worth showing (a trick on the
table, a full hand), and the browser is pointed at P1's seat.
"""
from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from naipes.language.shipped import shipped_rulesets
from naipes.web.app import create_app, new_table
from naipes.web.browser import chromium, missing
from naipes.web.server import serving
from naipes.web.table import Table

OUT = Path(__file__).resolve().parent / "img"
WIDTH, HEIGHT = 1400, 900


def trick_on_the_table(state: dict) -> bool:
    view = state["view"]
    me = view["players"][0]
    return "play" in state["moves"] and len(view["zones"]["trick"]) >= 2 and len(me["hand"]) >= 4


# game -> (seats, params, seed, the position to show)
SHOTS: dict[str, tuple[list[str], dict[str, str], int, Callable[[dict], bool]]] = {
    "fichas": (["human", "minimax"], {"count": "14", "colours": "5"}, 7,
               lambda s: len(s["view"]["zones"]["removed"]) >= 3),
    "pocha": (["human", "strong", "strong", "baseline"], {}, 21, trick_on_the_table),
    "tute_cabrero": (["human", "expert", "strong"], {}, 8, trick_on_the_table),
    "wizard": (["human", "strong", "seed", "strong"], {}, 12,
               lambda s: trick_on_the_table(s) and s["view"]["state"]["round_number"] >= 5),
    "chinchon": (["human", "strong"], {}, 5, lambda s: "discard" in s["moves"] and s["serial"] > 6),
    "brisca": (["human", "basic"], {}, 3, lambda s: "play" in s["moves"] and len(s["view"]["zones"]["trick"]) == 1
               and s["view"]["players"][1]["taken"] > 0),
    "hearts": (["human", "basic", "basic", "basic"], {}, 4, lambda s: trick_on_the_table(s)
               and s["view"]["state"]["hearts_broken"]),
    "escoba": (["human", "basic"], {}, 6, lambda s: "take" in s["moves"] and len(s["view"]["zones"]["table"]) >= 4
               and len(s["view"]["players"][1]["won"]) > 0),
    "truco": (["human", "basic"], {}, 3, lambda s: "envido" in s["moves"] and len(s["view"]["zones"]["trick"]) == 1),
    "texas_holdem": (["human", "basic", "basic", "basic"], {}, 5, lambda s: len(s["view"]["zones"]["board"]) == 3
                     and "bet" in s["moves"]),
    "mus": (["human", "basic", "basic", "basic"], {}, 4, lambda s: "answer" in s["moves"]
            or ("envido" in s["moves"] and s["view"]["state"]["lance"] >= 2)),
}


def advance(table: Table, seed: int, wanted: Callable[[dict], bool], limit: int = 400) -> None:
    """Play seeded random moves for P1 until it is to move in a position `wanted` accepts."""
    rng = random.Random(seed)
    changed = threading.Event()
    table.watchers.append(changed.set)
    for _ in range(limit):
        state = table.state(0)
        if state is not None and state["over"]:
            raise SystemExit(f"{table.program.name}: the game ended before the position to show")
        if state is not None and state["your_turn"]:
            if wanted(state):
                return
            modest = state["options"][:2]  # a low bid, a low card: a plausible player, not a wild one
            table.submit(0, {"serial": state["serial"], "label": rng.choice(modest)["label"]}).result(30)
            continue
        changed.wait(30)
        changed.clear()
    raise SystemExit(f"{table.program.name}: no position to show within {limit} moves")


def shoot(driver, url: str, path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    driver.get(url)
    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "status").text
                                    or d.find_elements(By.CSS_SELECTOR, ".game-tile"))
    time.sleep(0.5)  # fonts and layout settle
    driver.save_screenshot(str(path))
    print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["lobby", *SHOTS], help="games to shoot (and 'lobby')")
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the PNG files")
    args = parser.parse_args()
    problem = missing()
    if problem:
        sys.exit(f"cannot take screenshots: {problem}")
    args.out.mkdir(parents=True, exist_ok=True)
    app = create_app({p.stem: p for p in shipped_rulesets()}, pause=0)
    with serving(app) as url, chromium(WIDTH, HEIGHT) as driver:
        for game in args.games:
            if game == "lobby":
                from selenium.webdriver.common.by import By
                shoot(driver, url, args.out / "lobby.png")
                from selenium.webdriver.support.ui import WebDriverWait
                driver.find_element(By.CSS_SELECTOR, '.game-tile[data-game="pocha"]').click()
                WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".setup-form"))
                time.sleep(0.8)  # (the form scrolls into view)
                driver.save_screenshot(str(args.out / "lobby_setup.png"))
                print(f"wrote {args.out / 'lobby_setup.png'}")
                continue
            if game not in SHOTS:
                sys.exit(f"no screenshot recipe for '{game}': choose among {', '.join(SHOTS)}, lobby")
            seats, params, seed, wanted = SHOTS[game]
            table = new_table(app, game, params, seats, seed)
            advance(table, seed, wanted)
            shoot(driver, f"{url}{table.link(0)}", args.out / f"{game}.png")
            table.close()


if __name__ == "__main__":
    main()
