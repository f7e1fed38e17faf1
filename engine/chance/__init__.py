"""Chance every game uses: binding rolls to future public draws, and deriving numbers from them."""
