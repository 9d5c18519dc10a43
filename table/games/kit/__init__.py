"""Pure helpers the games share: the action codec, ranked decks, seat order, unique-bid resolution."""
