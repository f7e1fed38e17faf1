"""Trading in the Mediterranean (seed 003): the rules as pure functions over the data in data/rulesets/trading-mediterranean.toml."""
