"""What a game's bots module builds on: the physical world of a simulated table and seeded players acting in it."""
