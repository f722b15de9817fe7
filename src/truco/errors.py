"""The one small hierarchy of errors that the core raises. All are ``ValueError``s."""


class TrucoError(ValueError):
    """Base of every error the truco core raises."""


class NotationError(TrucoError):
    """Text that cannot be read: a bad card, verb, action line or hand-history file."""


class IllegalActionError(TrucoError):
    """A well-formed action that the rules do not allow in this state; the message says why."""


class RulesError(TrucoError):
    """Rules options that do not make a valid game (an unknown option or a value out of range)."""
