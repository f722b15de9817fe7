"""The pairing of "Jugar ahora" (``truco.server.queue.matchmaking``), by its properties."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from truco.server.queue.matchmaking import MODES, Curve, Match, Waiting, balanced, pair, seat_order

NOW = 1000.0

curves = st.builds(
    Curve,
    base=st.floats(0, 10),
    per_second=st.floats(0, 3),
    most=st.floats(0, 40),
)
ratings = st.floats(-10, 60, allow_nan=False).map(lambda r: round(r, 1))


@st.composite
def queues(draw: st.DrawFn) -> list[Waiting]:
    n = draw(st.integers(0, 40))
    tickets = draw(
        st.lists(
            st.text("0123456789abcdef", min_size=4, max_size=4), min_size=n, max_size=n, unique=True
        )
    )
    return [
        Waiting(t, draw(ratings), NOW - draw(st.floats(0, 120).map(lambda s: round(s, 1))))
        for t in tickets
    ]


def within(m: Match, by: dict[str, Waiting], curve: Curve) -> bool:
    anchor = by[m.anchor]
    gap = curve.gap(NOW - anchor.since)
    return all(abs(by[t].rating - anchor.rating) <= gap for t in m.seats)


@given(st.sampled_from(sorted(MODES)), queues(), curves)
def test_nobody_is_matched_twice_and_windows_hold(
    mode: str, waiting: list[Waiting], curve: Curve
) -> None:
    by = {w.ticket: w for w in waiting}
    matches = pair(mode, waiting, NOW, curve)
    seated = [t for m in matches for t in m.seats]
    assert len(seated) == len(set(seated))
    assert set(seated) <= set(by)
    for m in matches:
        assert m.mode == mode and len(m.seats) == MODES[mode]
        assert m.anchor in m.seats
        assert within(m, by, curve), m


@given(st.sampled_from(sorted(MODES)), queues(), curves)
def test_nobody_waits_who_could_play(mode: str, waiting: list[Waiting], curve: Curve) -> None:
    """Every player left waiting has too few others left free within her own window."""
    matches = pair(mode, waiting, NOW, curve)
    seated = {t for m in matches for t in m.seats}
    left = [w for w in waiting if w.ticket not in seated]
    for w in left:
        gap = curve.gap(NOW - w.since)
        near = [o for o in left if o is not w and abs(o.rating - w.rating) <= gap]
        assert len(near) < MODES[mode] - 1, (w, near)


@given(st.sampled_from(sorted(MODES)), queues(), curves)
def test_the_longest_waiter_who_can_play_plays(
    mode: str, waiting: list[Waiting], curve: Curve
) -> None:
    """The oldest player with enough company within her window at the start is seated."""
    matches = pair(mode, waiting, NOW, curve)
    seated = {t for m in matches for t in m.seats}
    for w in sorted(waiting, key=lambda w: (w.since, w.ticket)):
        gap = curve.gap(NOW - w.since)
        near = [o for o in waiting if o is not w and abs(o.rating - w.rating) <= gap]
        if len(near) >= MODES[mode] - 1:
            assert w.ticket in seated
            break


def test_one_constant_rating_pairs_everyone_by_age() -> None:
    waiting = [Waiting(f"t{i}", 0.0, NOW - i) for i in range(5)]
    matches = pair("1v1", waiting, NOW, Curve())
    assert [set(m.seats) for m in matches] == [{"t4", "t3"}, {"t2", "t1"}]
    assert [m.anchor for m in matches] == ["t4", "t2"]


def test_the_window_widens_with_the_wait() -> None:
    curve = Curve(base=3, per_second=0.5, most=25)
    fresh = [Waiting("a", 10.0, NOW), Waiting("b", 20.0, NOW)]
    assert pair("1v1", fresh, NOW, curve) == []
    # After 14 s the gap is 3 + 7 = 10: they meet.
    later = [Waiting("a", 10.0, NOW - 14), Waiting("b", 20.0, NOW)]
    assert [m.seats for m in pair("1v1", later, NOW, curve)] == [("a", "b")]
    assert curve.gap(0) == 3 and curve.gap(14) == 10 and curve.gap(1000) == 25
    assert curve.gap(-5) == 3


def test_the_nearest_rating_is_chosen() -> None:
    waiting = [Waiting("old", 10.0, NOW - 60), Waiting("far", 20.0, NOW), Waiting("near", 12, NOW)]
    (m,) = pair("1v1", waiting, NOW, Curve())
    assert set(m.seats) == {"old", "near"}


@given(st.lists(ratings, min_size=2, max_size=6).filter(lambda r: len(r) in (4, 6)))
def test_teams_are_balanced(values: list[float]) -> None:
    members = [Waiting(f"t{i}", r, NOW) for i, r in enumerate(values)]
    team0, team1 = balanced(members)
    assert len(team0) == len(team1) == len(values) // 2
    assert {w.ticket for w in team0} | {w.ticket for w in team1} == {w.ticket for w in members}
    diff = abs(sum(w.rating for w in team0) - sum(w.rating for w in team1))
    # No swap of one player for another makes the teams closer...
    s0, s1 = sum(w.rating for w in team0), sum(w.rating for w in team1)
    for a, b in itertools.product(team0, team1):
        assert abs((s0 - a.rating + b.rating) - (s1 - b.rating + a.rating)) >= diff - 1e-9
    # ...and they are at least as close as a snake draft (best, worst-and-next, ...).
    by = sorted(members, key=lambda w: -w.rating)
    pattern = [0, 1, 1, 0, 0, 1][: len(by)]
    snake = [sum(w.rating for w, p in zip(by, pattern, strict=True) if p == k) for k in (0, 1)]
    assert diff <= abs(snake[0] - snake[1]) + 1e-9


@given(st.lists(ratings, min_size=4, max_size=6).filter(lambda r: len(r) in (4, 6)))
def test_teams_sit_in_alternate_seats(values: list[float]) -> None:
    members = [Waiting(f"t{i}", r, NOW) for i, r in enumerate(values)]
    seats = seat_order(members)
    team0, team1 = balanced(sorted(members, key=lambda w: w.ticket))
    assert set(seats[0::2]) == {w.ticket for w in team0}
    assert set(seats[1::2]) == {w.ticket for w in team1}
