"""How the Pairs cards look: the data-driven ranked faces (a colour per rank, the big rank, its pips)."""
from table.screen.faces import RankFaces as Faces

__all__ = ["Faces"]
