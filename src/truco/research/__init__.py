"""Truco for researchers: the engine as an OpenSpiel game and a PettingZoo environment.

``research.match`` is the game itself (explicit chance, actions by number, what each seat knows
from ``observe``), with no library of its own; ``research.encode`` lays a seat's knowledge out
as fixed-size tensors; ``research.openspiel`` registers the game with OpenSpiel and
``truco.envs`` wraps it for PettingZoo and Gymnasium. Those two need the optional extra
(``pip install truco[research]``). docs/research.md has the numbering, the layout and examples.
"""
