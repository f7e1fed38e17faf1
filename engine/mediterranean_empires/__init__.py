"""Mediterranean Empires: Struggle for the Middle Sea, 1281-1350 (Strategy & Tactics 330): a two-player ruleset."""
