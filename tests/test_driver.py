"""The one match driver (``bots/driver.py``) and what a bot is told (``base.Situation``)."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path
from random import Random

import truco
from truco import CHANCE, Rules, new_match
from truco.bots import make_bot
from truco.bots.base import Situation, reading_for
from truco.bots.driver import Driver, decide, situation
from truco.bots.rivals import Reading

BOTS_DIR = Path(truco.__file__).parent / "bots"


def _play(driver: Driver, seed: int) -> list[str]:
    """Drive a whole match with seeded deals and decisions; its actions, in order."""
    deals, decisions = Random(f"deal:{seed}"), Random(f"bot:{seed}")
    out: list[str] = []
    while (actor := driver.to_act()) is not None:
        if actor == CHANCE:
            driver.deal(deals)
        else:
            action, _ = driver.play(decisions)
            out.append(str(action))
    return out


def test_bots_hold_nothing_of_a_match() -> None:
    """Everything a bot knows of a match is told: after a whole one its attributes are what they
    were, and the same bot plays the next match as a fresh one would."""
    rules = Rules(target=15)
    bots = {0: make_bot("expert-fast"), 1: make_bot("ventajero")}
    before = [dict(vars(bot)) for bot in bots.values()]
    first = _play(Driver(new_match(rules), bots), 3)
    assert [vars(bot) for bot in bots.values()] == before
    fresh = {0: make_bot("expert-fast"), 1: make_bot("ventajero")}
    assert _play(Driver(new_match(rules), bots), 3) == _play(Driver(new_match(rules), fresh), 3)
    assert first == _play(Driver(new_match(rules), fresh), 3)


def test_the_seat_keeps_the_reading_its_bot_reads() -> None:
    driver = Driver(
        new_match(Rules(target=15)), {0: make_bot("expert-fast"), 1: make_bot("simple")}
    )
    assert set(driver.readings) == {0}  # simple reads nobody
    assert reading_for(make_bot("expert-blind")) is None
    counts = reading_for(make_bot("ventajero"))
    assert counts is not None and not counts.reads_types  # the exploiter keeps counts alone
    _play(driver, 5)
    assert driver.readings[0].types and driver.readings[0].seen  # read from hand to hand
    told = situation(driver.state, 0, (), driver.readings[0])
    assert told.reading is driver.readings[0]


def test_a_situation_pickles_for_a_worker() -> None:
    state = truco.deal(new_match(Rules(players=4)), Random(2)).state
    actor = truco.to_act(state)
    assert actor is not None and actor >= 0
    reading = Reading()
    told = situation(state, actor, ((actor ^ 2, "tres"),), reading)
    again = pickle.loads(pickle.dumps(told))
    assert isinstance(again, Situation) and again.view == told.view and again.heard == told.heard
    bot = make_bot("simple")
    assert decide(bot, again, Random(1)) == decide(bot, told, Random(1))


def test_senas_reach_a_person_partnered_with_a_bot() -> None:
    """At a table of four with a person in seat 0, the bot in seat 2 signs to her before her
    side decides: the step that reaches her decision carries the señas made."""
    rules = Rules(players=4)
    bots = {s: make_bot("simple") for s in (1, 2, 3)}
    driver = Driver(new_match(rules), bots)
    step = driver.deal(Random(7))
    reached: list[tuple[int, str, tuple[int, ...]]] = list(step.senas)
    rng = Random(7)
    while driver.to_act() not in (0, None, CHANCE):
        reached += driver.play(rng)[1].senas
    assert all(to == (0,) for sender, _, to in reached if sender == 2)
    assert all(
        driver.state.teams[s] == driver.state.teams[sender] for sender, _, t in reached for s in t
    )
    assert any(sender == 2 for sender, _, _ in reached)


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "truco.bots":
                found.update(f"truco.bots.{a.name}" for a in node.names)
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_no_import_circle_inside_the_bots() -> None:
    """Every import of every module of ``bots/`` (``TYPE_CHECKING`` ones too), read with
    ``ast``: no module reaches itself again."""
    modules = {f"truco.bots.{p.stem}": p for p in BOTS_DIR.glob("*.py") if p.stem != "__init__"}
    graph = {m: _imports(p) & set(modules) for m, p in modules.items()}

    def reaches(start: str) -> bool:
        todo, seen = list(graph[start]), set()
        while todo:
            m = todo.pop()
            if m == start:
                return True
            if m not in seen:
                seen.add(m)
                todo.extend(graph[m])
        return False

    assert [m for m in sorted(graph) if reaches(m)] == []
