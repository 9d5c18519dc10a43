"""The rules engines, one module per game, by name."""
from table.games import feira_torio

GAMES = {feira_torio.NAME: feira_torio}
