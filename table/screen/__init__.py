"""The table's shared screen: the chrome, the game pages it hands a canvas, and the texts of every message."""
from table.screen.i18n import Translator, message_text, translate
from table.screen.screen import Screen

__all__ = ["Screen", "Translator", "message_text", "translate"]
