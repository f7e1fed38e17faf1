"""Mare Nostrum: Empires, the board game of seed 001 (ruleset id ``mare-nostrum-empires``)."""
