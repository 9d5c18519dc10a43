"""The table's shared screen: pages drawn from the public view, and the texts of every message."""
from table.screen.i18n import Translator, message_text, translate
from table.screen.render import Screen

__all__ = ["Screen", "Translator", "message_text", "translate"]
