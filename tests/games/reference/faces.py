"""High Card plays with the Pairs deck: the toolkit's ranked faces."""
from table.screen.faces import RankFaces as Faces

__all__ = ["Faces"]
