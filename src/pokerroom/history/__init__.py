"""Hand histories: PHH read/write/replay and PokerStars-style text."""
