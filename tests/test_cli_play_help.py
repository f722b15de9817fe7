"""``truco play --help`` says how to play the site's usual table, two teams of two (issue 17:
``001_*`` describes the game as "Two teams of two")."""

from __future__ import annotations

import argparse

from truco.cli import build_parser


def _play_help() -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return " ".join(sub.choices["play"].format_help().split())


def test_play_help_says_how_to_get_two_teams_of_two() -> None:
    text = _play_help()
    assert "truco play --players 4" in text
    assert "two teams of two" in text
