"""Jugar ahora: the pairing (pure), the queue's tickets in memory or in Redis, and the
matchmaker with its HTTP API."""
