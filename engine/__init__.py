"""The pure core of Legatus: rulesets, maps, orders and the fold over the event log.

Nothing in this package touches Discord, a database, the clock, the network or a random generator.
"""
