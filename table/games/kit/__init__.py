"""Pure helpers the games share: the action codec, ranked decks, a fast state copy, a checked replay, the
order of the pages after a resolution."""
