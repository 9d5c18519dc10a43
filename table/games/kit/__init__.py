"""Pure helpers the games share: the action codec, ranked decks, a fast state copy, a checked replay."""
