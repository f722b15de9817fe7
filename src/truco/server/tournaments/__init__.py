"""Torneos: tournaments of arena or Swiss rounds, paired by score then rating (docs/players.md)."""
