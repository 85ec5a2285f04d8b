"""The rules of UNO: cards, rule sets, the game, scoring. Pure Python, no I/O."""
