"""The terminal client (Textual): ``truco play`` and ``truco anotar``.

``truco.tui.text`` and ``truco.tui.session`` are plain code (what is drawn, and the games);
``truco.tui.app`` and ``truco.tui.anotar`` are the Textual applications.
"""
