"""The blueprint: its abstraction agrees between a state and the view observed from it, its file
keeps what was trained, and training lowers the exploitability of a tiny game."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from truco.bots.blueprint import store
from truco.bots.blueprint.abstraction import (
    choices,
    options_of,
    resolve,
    resolve_view,
    state_key,
    view_key,
)
from truco.bots.blueprint.cfr import Trainer
from truco.bots.blueprint.exploit import best_response, exploitability, play_against, sample
from truco.bots.blueprint.game import SETTINGS, Setting
from truco.bots.blueprint.train import export
from truco.bots.equity import equity_after
from truco.cli import main
from truco.engine import apply, to_act
from truco.view import observe


def test_a_views_key_is_the_key_of_the_state_it_was_observed_from() -> None:
    rng = Random(2)
    checked = 0
    for name in ("standard", "flor", "paulista"):
        setting = SETTINGS[name]
        for _ in range(60):
            state = setting.start(rng)
            while state.phase == 1:
                actor = to_act(state)
                assert actor is not None
                view = observe(state, actor)
                found = choices(state.legal)
                assert found == choices(view.legal)
                if len(found) > 1:
                    options = options_of(found)
                    assert state_key(state, actor, options) == view_key(view, options)
                    checked += 1
                pick = found[rng.randrange(len(found))]
                action = resolve(state, actor, pick)
                assert action == resolve_view(view, pick)
                assert action in state.legal
                state = apply(state, action).state
    assert checked > 500


def test_the_file_keeps_the_average_strategy_and_the_command(tmp_path: Path) -> None:
    trainer = Trainer(SETTINGS["standard"], seed=3)
    trainer.run(20)
    path = tmp_path / "bp.txt.gz"
    count = export(trainer, path, "truco entrenar standard --iterations 20", keep=1.0)
    blueprint = store.read(path)
    assert len(blueprint) == count > 0
    assert blueprint.meta["iterations"] == "20"
    assert blueprint.meta["command"] == "truco entrenar standard --iterations 20"
    for key, row in list(blueprint.table.items())[:200]:
        probs = blueprint.probs(key, len(row))
        exact = trainer.average(key, len(row))
        assert exact is not None and probs is not None
        assert all(abs(p - q) <= 1 / 255 + 1e-9 for p, q in zip(probs, exact, strict=True))


def test_a_checkpoint_resumes_where_it_stopped(tmp_path: Path) -> None:
    whole = Trainer(SETTINGS["paulista"], seed=5)
    whole.run(30)
    half = Trainer(SETTINGS["paulista"], seed=5)
    half.run(15)
    half.save(tmp_path / "ck")
    resumed = Trainer.load(tmp_path / "ck", SETTINGS["paulista"])
    resumed.run(15)
    assert resumed.iterations == 30
    assert resumed.strategy == whole.strategy


def test_training_lowers_the_exploitability_of_a_tiny_game() -> None:
    # The tiny game: Truco Paulista from four fixed deals (scores, manos and cards drawn once).
    starts = tuple(sample(SETTINGS["paulista"], 4, seed=11))
    tiny = Setting("paulista", SETTINGS["paulista"].rules, starts)
    trainer = Trainer(tiny, seed=1)

    def exploitability() -> float:
        return (
            sum(best_response(trainer.average, starts, s, equity_after) for s in (0, 1)) / 2 - 0.5
        )

    before = exploitability()  # nothing trained: every action alike
    trainer.run(300)
    after = exploitability()
    assert before > 0.0
    assert after < 0.6 * before


def test_the_exploiters_choices_win_what_the_best_response_says_on_its_own_deals() -> None:
    # Played back on the very deals it was fitted on, the table of choices is the best response.
    starts = sample(SETTINGS["paulista"], 3, seed=5)
    chosen: dict[str, tuple[int, float]] = {}
    uniform = lambda key, n: None  # noqa: E731
    fitted = best_response(uniform, starts, 0, equity_after, chosen)
    assert chosen
    assert abs(play_against(uniform, chosen, starts, 0, equity_after) - fitted) < 1e-9
    inside, held = exploitability(uniform, starts, sample(SETTINGS["paulista"], 3, seed=6))
    assert held is not None and held.deals == 3
    assert inside.equity > 0.0


def test_the_exploitability_command_measures_files_and_refuses_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["explotabilidad", "uniforme", "--blueprint", "paulista", "--deals", "2"]
    assert main([*args, "--held-out", "1", "--json"]) == 0
    row = json.loads(capsys.readouterr().out.splitlines()[0])
    assert row["iterations"] == 0 and row["deals"] == 2 and row["held_out_deals"] == 1
    assert row["equity_in_sample"] > 0.0
    bad = tmp_path / "roto.txt.gz"
    bad.write_text("no soy un blueprint")
    assert main(["explotabilidad", str(bad)]) == 2
    assert "not a blueprint file" in capsys.readouterr().err
    assert main(["explotabilidad", "uniforme", "--deals", "20001"]) == 2
    assert "--deals must be 1 to 20000" in capsys.readouterr().err
