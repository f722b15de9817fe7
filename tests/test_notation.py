"""Unit tests of the notation: action tokens, reading, writing, replaying, the CLI (the card
tokens are in test_cards)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from truco import notation
from truco.actions import DISCARD, PLAY, SIMPLE, TAPADA, Action, Verb
from truco.cards import Card
from truco.errors import IllegalActionError, NotationError, TrucoError
from truco.notation import HandHistory, dumps, loads, parse_action_line, replay, replay_text
from truco.rules import Rules

ALL_ACTIONS = (*PLAY, *TAPADA, *DISCARD, *SIMPLE.values())

# Mano (seat 0) 1e 4c 5o: 5 envido points; pie 7o 6c 12b: 7.
GOOD = """\
players = 2
target = 30
flor = false
score = [0, 0]
mano = 0
hands = ["1e 4c 5o", "7o 6c 12b"]
actions = [
  "0 envido",
  "1 quiero",
  "0 play 1e",
  "1 play 7o",
  "0 truco",
  "1 no-quiero",
]
"""


def with_lines(**changes: str) -> str:
    """GOOD with some top-level lines replaced (key -> whole new line, or '' to drop it)."""
    out = []
    for line in GOOD.splitlines():
        key = line.split(" = ")[0] if " = " in line else None
        if key in changes:
            if changes[key]:
                out.append(changes[key])
            if key == "actions":  # drop the rest of the array too
                out.append("__SKIP__")
        else:
            out.append(line)
    if "__SKIP__" in out:
        out = out[: out.index("__SKIP__")]
    return "\n".join(out) + "\n"


# --- action tokens ----------------------------------------------------------------------------


def test_every_action_round_trips() -> None:
    assert len(ALL_ACTIONS) == len(set(ALL_ACTIONS)) == 120 + len(Verb) - 3
    for action in ALL_ACTIONS:
        text = str(action)
        assert Action.parse(text) is action
        assert Action.parse(text.upper()) is action
        assert Action(action.verb, action.card) is action
        for seat in (0, 5):
            line = notation.format_action(seat, action)
            assert line == f"{seat} {text}"
            assert parse_action_line(line, players=6) == (seat, action)


def test_action_text() -> None:
    assert str(Action.parse("play 1e")) == "play 1e"
    assert str(Action.parse("tapada 12c")) == "tapada 12c"
    assert str(Action.parse(" real-envido ")) == "real-envido"
    assert Action.parse("play 1e") is PLAY[Card.parse("1e")]


@pytest.mark.parametrize("verb", ["play", "tapada"])
def test_unseen_card_token(verb: str) -> None:
    seat, action = parse_action_line(f"1 {verb} ??", players=2)
    assert seat == 1
    assert action.verb is Verb(verb) and action.card is None
    assert str(action) == f"{verb} ??"
    assert parse_action_line(notation.format_action(seat, action), players=2) == (seat, action)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("shout", "unknown verb 'shout'"),
        ("play", "play takes one card"),
        ("play 1e 2e", "play takes one card"),
        ("tapada", "tapada takes one card"),
        ("play 8e", "unknown card '8e'"),
        ("truco 1e", "truco takes no argument"),
        ("quiero now", "quiero takes no argument"),
    ],
)
def test_bad_action_tokens(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Action.parse(text)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("play 1e", "SEAT VERB"),
        ("0", "SEAT VERB"),
        ("x play 1e", "SEAT VERB"),
        ("-1 play 1e", "SEAT VERB"),
        ("2 play 1e", "seat 2"),
        ("0 shout", "unknown verb"),
    ],
)
def test_bad_action_lines(line: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_action_line(line, players=2)


# --- writing and reading ----------------------------------------------------------------------

ODD_RULES = Rules(
    players=4,
    target=15,
    flor=True,
    falta="doble",
    tapada="always",
    envido_until="first_card",
    envido_primero="before_own_card",
    mazo_envido_penalty=True,
    match_end="end_of_hand",
    flor_value=5,
    contraflor_resto_decline_after_contraflor=9,
)


def test_dumps_loads_round_trip_with_options() -> None:
    c = Card.parse
    history = HandHistory(
        rules=ODD_RULES,
        score=(3, 11),
        mano=3,
        hands=(
            (c("5c"), c("1e"), c("2e")),
            (c("12e"), c("3b"), c("4b")),
            (c("6c"), c("7c"), c("10c")),
            (c("4c"), c("11e"), c("10e")),
        ),
        actions=(
            (3, Action.parse("play 4c")),
            (0, Action.parse("tapada 5c")),
            (1, Action.parse("truco")),
            (2, Action.parse("mazo")),
        ),
    )
    text = dumps(history)
    for line in (
        "players = 4",
        "target = 15",
        "flor = true",
        'falta = "doble"',
        'tapada = "always"',
        'envido_until = "first_card"',
        'envido_primero = "before_own_card"',
        "mazo_envido_penalty = true",
        'match_end = "end_of_hand"',
        "flor_value = 5",
        "contraflor_resto_decline_after_contraflor = 9",
        "score = [3, 11]",
        "mano = 3",
        '  "0 tapada 5c",',
    ):
        assert line in text.splitlines()
    again = loads(text)
    assert again == history
    assert again.rules == ODD_RULES
    assert dumps(again) == text


def test_defaults_are_not_written_and_are_read_back() -> None:
    history = loads('hands = ["1e 4c 5o", "7o 6c 12b"]')
    assert history.rules == Rules()
    assert history.score == (0, 0) and history.mano == 0 and history.actions == ()
    text = dumps(history)
    assert "falta" not in text and "tapada" not in text
    assert loads(text) == history


def test_unseen_cards_round_trip_but_do_not_replay() -> None:
    text = """\
players = 2
hands = ["1e 4c 5o", "?? ?? ??"]
actions = ["0 play 1e", "1 tapada ??"]
"""
    history = loads(text)
    assert history.hands[1] == (None, None, None)
    assert history.actions[1][1].card is None
    assert loads(dumps(history)) == history
    with pytest.raises(NotationError, match="unseen"):
        replay(history)


def test_action_lines_are_remembered() -> None:
    history = loads(GOOD)
    assert history.lines == (8, 9, 10, 11, 12, 13)


def test_a_replayed_hand_written_again_is_the_same() -> None:
    result = replay_text(GOOD)
    assert result.finished
    assert result.points == (1, 2) and result.score == (1, 2) and result.winner is None
    written = notation.from_state(result.state)
    assert written == loads(GOOD)
    assert loads(dumps(written)) == written


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hands = [", "not valid TOML"),
        ('hands = ["1e 4c 5o", "7o 6c 12b"]\nhands = []', "not valid TOML"),
        (with_lines(flor="colour = 3"), r"unknown key\(s\): colour"),
        (GOOD + "\n[extra]\nx = 1\n", r"unknown key\(s\): extra"),
        (with_lines(hands='hands = ["1e 4c 8o", "7o 6c 12b"]'), "unknown card '8o'"),
        (with_lines(hands='hands = ["1e 4c xx", "7o 6c 12b"]'), "unknown card 'xx'"),
        (with_lines(hands='hands = ["1e 4c 5o", "7o 1e 12b"]'), "1e is dealt twice"),
        (with_lines(hands='hands = ["1e 4c 5o", "7o 7O 12b"]'), "7o is dealt twice"),
        (with_lines(hands='hands = ["1e 4c", "7o 6c 12b"]'), r"hands\[0\] has 2 cards"),
        (with_lines(hands='hands = ["1e 4c 5o", "7o 6c 12b 3e"]'), r"hands\[1\] has 4 cards"),
        (with_lines(hands='hands = ["1e 4c 5o"]'), "hands must list the cards of each of the 2"),
        (with_lines(hands='hands = ["1e 4c 5o", "7o 6c 12b", "3e 2e 1b"]'), "each of the 2"),
        (with_lines(hands=""), "hands must list"),
        (with_lines(hands='hands = "1e 4c 5o"'), "hands must list"),
        (with_lines(hands='hands = ["1e 4c 5o", 7]'), r"hands\[1\] must be a string"),
        (with_lines(actions='actions = ["0 shout"]'), "unknown verb 'shout'"),
        (with_lines(actions='actions = ["0 play 8e"]'), "unknown card '8e'"),
        (with_lines(actions='actions = ["2 play 1e"]'), "seat 2"),
        (with_lines(actions='actions = ["zero play 1e"]'), "SEAT VERB"),
        (with_lines(actions='actions = ["0 truco 1e"]'), "truco takes no argument"),
        (with_lines(actions='actions = "0 play 1e"'), "actions must be a list of strings"),
        (with_lines(actions="actions = [1, 2]"), "actions must be a list of strings"),
        (with_lines(score="score = [1]"), "score must be a list of 2 whole numbers"),
        (with_lines(score="score = [1, 2, 3]"), "score must be"),
        (with_lines(score="score = [-1, 0]"), "score must be"),
        (with_lines(score='score = ["1", 0]'), "score must be"),
        (with_lines(score="score = [true, 0]"), "score must be"),
        (with_lines(score="score = 3"), "score must be"),
        (with_lines(mano="mano = 2"), "mano must be a seat from 0 to 1, not 2"),
        (with_lines(mano="mano = -1"), "mano must be a seat from 0 to 1"),
        (with_lines(mano='mano = "0"'), "mano must be a seat"),
        (with_lines(players="players = 3"), "bad rules: players must be one of"),
        (with_lines(target="target = 33"), "bad rules: target must be one of"),
        (with_lines(flor='flor = "yes"'), "bad rules: flor must be true or false"),
        (with_lines(flor='falta = "half"'), "bad rules: falta must be one of"),
    ],
)
def test_malformed_histories_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as raised:
        loads(text)
    assert not isinstance(raised.value, IllegalActionError)
    assert isinstance(raised.value, TrucoError) and isinstance(raised.value, ValueError)


def test_a_bad_action_line_names_its_number_and_line() -> None:
    text = GOOD.replace('"1 play 7o"', '"1 shout 7o"')
    with pytest.raises(NotationError, match=r"action 4 \('1 shout 7o', line 11\)"):
        loads(text)


def test_a_score_at_the_target_cannot_be_replayed() -> None:
    with pytest.raises(NotationError, match="already over"):
        replay_text(with_lines(score="score = [30, 2]"))


# --- illegal actions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "line", "number", "reason"),
    [
        ('"0 retruco"', 12, 5, "cannot 'retruco'"),  # nobody accepted a truco yet
        ('"0 play 7o"', 12, 5, "does not hold 7o"),
        ('"1 truco"', 12, 5, "it is seat 0's turn"),
        ('"0 envido"', 12, 5, "envido"),  # the envido was already played
    ],
)
def test_illegal_action_names_the_action_and_its_line(
    bad: str, line: int, number: int, reason: str
) -> None:
    text = GOOD.replace('"0 truco"', bad)
    with pytest.raises(IllegalActionError) as raised:
        replay_text(text)
    message = str(raised.value)
    assert f"action {number} ('{bad.strip(chr(34))}', line {line})" in message
    assert reason in message


def test_an_action_after_the_hand_ended_is_illegal() -> None:
    text = GOOD.replace('"1 no-quiero",', '"1 no-quiero",\n  "0 play 4c",')
    with pytest.raises(IllegalActionError, match=r"action 7 \('0 play 4c', line 14\).*over"):
        replay_text(text)


def test_a_quiero_with_nothing_to_answer_is_illegal() -> None:
    text = with_lines(actions='actions = [\n  "0 play 1e",\n  "1 quiero",\n]')
    with pytest.raises(IllegalActionError, match=r"'1 quiero', line 9.*no call to answer"):
        replay_text(text)


# --- the command line -------------------------------------------------------------------------


def _truco_command() -> list[str]:
    script = Path(sys.executable).with_name("truco")
    if script.exists():
        return [str(script)]
    found = shutil.which("truco")
    return [found] if found else [sys.executable, "-m", "truco"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_truco_command(), *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_cli_replay_json(tmp_path: Path) -> None:
    path = tmp_path / "hand.toml"
    path.write_text(GOOD, encoding="utf-8")
    result = _run("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    assert data["points"] == [1, 2]
    assert data["score"] == [1, 2]
    assert data["winner"] is None


def test_cli_replay_json_with_a_winner(tmp_path: Path) -> None:
    path = tmp_path / "hand.toml"
    text = with_lines(score="score = [10, 29]", actions='actions = ["0 envido", "1 quiero"]')
    path.write_text(text, encoding="utf-8")
    result = _run("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    # The pie's envido (7 against 5) takes the match at once: the rest is never played.
    assert (data["points"], data["score"], data["winner"]) == ([0, 2], [10, 31], 1)


def test_python_dash_m_truco_replay(tmp_path: Path) -> None:
    path = tmp_path / "hand.toml"
    path.write_text(GOOD, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "truco", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "score: [1, 2]" in result.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hands = [", "not valid TOML"),
        (with_lines(hands='hands = ["1e 4c 5o", "7o 1e 12b"]'), "1e is dealt twice"),
        (GOOD.replace('"0 truco"', '"0 retruco"'), "'0 retruco', line 12"),
    ],
)
def test_cli_replay_bad_file_exits_2(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    result = _run("replay", str(path), "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert str(path) in result.stderr


def test_cli_replay_missing_file_exits_2(tmp_path: Path) -> None:
    result = _run("replay", str(tmp_path / "nope.toml"), "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "cannot read" in result.stderr


def _played_match_text(seed: int) -> tuple[str, tuple[int, ...]]:
    """A whole random match written as the server exports it: one [[hands]] table per hand."""
    import random

    from truco.engine import CHANCE, apply, deal, legal_actions, to_act
    from truco.rules import Rules
    from truco.state import DEAL, OVER, new_match

    rng = random.Random(seed)
    state = new_match(Rules(target=15))
    parts = []
    while state.phase != OVER:
        if to_act(state) == CHANCE:
            state = deal(state, rng).state
        else:
            legal = legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))]).state
        if state.phase in (DEAL, OVER):
            parts.append("[[hands]]\n" + notation.dumps(notation.from_state(state)))
    return "\n".join(parts), state.score


def test_a_match_file_replays_hand_by_hand() -> None:
    text, final = _played_match_text(5)
    histories = notation.loads_match(text)
    assert len(histories) == text.count("[[hands]]") > 1
    results = notation.replay_match(histories)
    assert results[-1].score == final
    assert results[-1].winner is not None
    with pytest.raises(NotationError, match="match file"):
        notation.loads(text)


def test_a_match_file_whose_hands_do_not_follow_is_refused() -> None:
    text, _ = _played_match_text(6)
    histories = notation.loads_match(text)
    with pytest.raises(NotationError, match="hand 2 starts at score"):
        notation.replay_match((histories[0], histories[0], *histories[2:]))


def test_truco_replay_json_of_a_match_file(tmp_path: Path) -> None:
    text, final = _played_match_text(7)
    path = tmp_path / "match.toml"
    path.write_text(text)
    out = subprocess.run(
        [sys.executable, "-m", "truco", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(out.stdout)
    assert report["score"] == list(final)
    assert len(report["hands"]) == text.count("[[hands]]")
