"""The terminal clients: ``truco play`` and ``truco anotar`` (Textual), ``truco play --plain``.

``truco.tui.text`` and ``truco.tui.session`` are plain code (what is drawn, and the games);
``truco.tui.app`` and ``truco.tui.anotar`` are the Textual applications; ``truco.tui.plain`` is
the line-based game, which prints ``text``'s lines without Textual.
"""
