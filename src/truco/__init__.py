"""Argentine truco: an exact rules engine, hand histories, bots and online play.

The rules core (cards, rules, actions, events, state, engine, envido, tricks, view, notation)
is pure: no I/O, no clocks, no global random state.
"""

__version__ = "0.1.0"
