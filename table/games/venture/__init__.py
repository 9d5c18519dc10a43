"""Venture (Entreprise): a sealed-bid capture game with the Pairs deck for 3 to 8 players."""
