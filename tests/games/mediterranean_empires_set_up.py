"""A set-up of the players' own (3.1-3.2), unlike the documented one: every unit and King placed by a line, Player A's
first. Shared by the set-up's rule tests and the seven-turn game played offline on the lottery."""
from __future__ import annotations

OWN_SET_UP: dict[str, tuple[str, ...]] = {
    "Player A": (
        "place 2 field armies of France in Provence County",
        "place a field army of France in Vienne",
        "place a field army of France in Montpellier",
        "place a field army of France in County of Toulouse",
        "place 2 levies of France in Albi",
        "place a levy of France in Auvergne",
        "place a levy of France in Vienne",
        "place a levy of France in Montpellier",
        "place 2 fleets of France in Gulf of Lion",
        "place 2 fleets of France in Ligurian Sea",
        "place the King of France in Vienne",
        "place 2 field armies of Anjou in Kingdom of Naples",
        "place a field army of Anjou in Duchy of Apulia",
        "place a levy of Anjou in Abruzzi",
        "place a levy of Anjou in Calabria",
        "place a levy of Anjou in Malta",
        "place 2 fleets of Anjou in South Tyrrhenian Sea",
        "place the King of Anjou in Duchy of Apulia",
    ),
    "Player B": (
        "place 2 field armies of Aragon in Rosselló",
        "place a field army of Aragon in Catalan counties",
        "place a field army of Aragon in Kingdom of Valencia",
        "place 2 mercenaries of Aragon in Catalan counties",
        "place 2 levies of Aragon in Kingdom of Majorca",
        "place a levy of Aragon in Upper Aragon",
        "place a levy of Aragon in Urgell",
        "place a levy of Aragon in Lower Aragon",
        "place a levy of Aragon in Kingdom of Murcia",
        "place 2 raiders of Aragon in Kingdom of Murcia",
        "place a raider of Aragon in Kingdom of Valencia",
        "place a raider of Aragon in Upper Aragon",
        "place 3 fleets of Aragon in Balearic Sea",
        "place a fleet of Aragon in Gulf of Lion",
        "place the King of Aragon in Rosselló",
    ),
}
