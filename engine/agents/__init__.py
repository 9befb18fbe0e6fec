"""The players: random and exhaustive search, ISMCTS, strategy files, humans, Python bots."""
