"""The trading phase on the tabletop: the window's length (live or forum), a trade of sealed cards, warehousing
(the bot's fold alone can refuse a MAY NOT WAREHOUSE card, telling its holder only), the cards spent revealed and
resolved alike in both folds, and the findings from the public log at the end."""
from __future__ import annotations

import pytest

from engine.events import Event, Rejection
from engine.tabletop import trades, windows
from engine.trading_mediterranean import resolution, trading
from engine.trading_mediterranean.rules_data import default_rules
from tests.engine.trading_mediterranean.tm_driver import SEATS, Driver, Fold

RULES = default_rules()
OPENED = Event(99, "trading.opened", "legatus", {}, at="2026-11-01T12:01:00+00:00")


def produced() -> Driver:
    d = Driver("waldorf-3")
    d.produce()
    return d


def test_the_window_lasts_four_minutes_live_or_hours_on_a_forum() -> None:
    assert trading.open_trading(RULES, SEATS, OPENED, trading.LIVE).closes_at == "2026-11-01T12:05:00+00:00"
    assert trading.open_trading(RULES, SEATS, OPENED, trading.FORUM, 6).closes_at == "2026-11-01T18:01:00+00:00"
    with pytest.raises(Rejection, match="a forum trading window lasts 1 to 336 hours, not 0"):
        trading.open_trading(RULES, SEATS, OPENED, trading.FORUM, 0)
    with pytest.raises(Rejection, match="the trading phase is 'live' \\(a group online together\\) or 'forum', not 'mail'"):
        trading.open_trading(RULES, SEATS, OPENED, "mail")


def test_a_trade_moves_sealed_cards_and_shows_only_faces() -> None:
    d = produced()
    for fold in (d.bot, d.export):
        market = trades.Market()
        give = trades.bundle_from({"cards": ["salt.2"]})
        get = trades.bundle_from({"faces": {"grain": 1}})
        trades.offer(market, 40, "Geoff", "Mark", give, get, SEATS)
        trades.accept(market, 1, "Mark", fold.table.holdings, ["grain.3"])
    assert [h.id for h in d.bot.table.holdings["Mark"].cards][-1] == "salt.2"
    mine, seen = d.bot.table.holdings["Mark"].find("salt.2"), d.export.table.holdings["Mark"].find("salt.2")
    assert mine is not None and seen is not None
    assert (mine.card, seen.card, seen.face) == ("salt depression", None, "salt")
    assert d.bot.table.public() == d.export.table.public()


def test_warehousing_limits_and_the_card_only_its_holder_knows() -> None:
    d = produced()
    store_bot, store_export = trading.Warehouses(), trading.Warehouses()
    w_bot = trading.open_trading(RULES, SEATS, OPENED, trading.LIVE)
    w_export = trading.open_trading(RULES, SEATS, OPENED, trading.LIVE)
    geoff_bot, geoff_export = d.bot.civs[1], d.export.civs[1]
    with pytest.raises(Rejection) as refused:
        trading.choose(RULES, d.bot.table, w_bot, store_bot, geoff_bot, ["salt.2", "ore.2"])
    assert refused.value.reason == "salt.2 may not be warehoused: its bottom says MAY NOT WAREHOUSE"
    assert refused.value.hidden_of == "Geoff"
    # The export's fold cannot know the bottom: the bot's fold is the gate, and the findings check it at the end.
    trading.choose(RULES, d.export.table, w_export, store_export, geoff_export, ["salt.2", "ore.2"])
    with pytest.raises(Rejection, match="Geoff may warehouse 3 card\\(s\\), not 4"):
        trading.choose(RULES, d.bot.table, w_bot, store_bot, geoff_bot, ["ore.2", "wool.2", "grain.2", "timber.2"])
    with pytest.raises(Rejection, match="Geoff holds no card civic.1: its cards are salt.2, timber.2"):
        trading.choose(RULES, d.bot.table, w_bot, store_bot, geoff_bot, ["civic.1"])
    with pytest.raises(Rejection, match="a card is warehoused once: ore.2 named twice"):
        trading.choose(RULES, d.bot.table, w_bot, store_bot, geoff_bot, ["ore.2", "ore.2"])
    assert trading.choose(RULES, d.bot.table, w_bot, store_bot, geoff_bot, ["ore.2", "luxury.1"]) == \
        "Geoff warehouses ore.2, luxury.1"
    assert store_bot.stored == {"Geoff": ["ore.2", "luxury.1"]}


def test_a_closed_window_takes_no_warehouse_choice() -> None:
    d = produced()
    window = trading.open_trading(RULES, SEATS, OPENED, trading.LIVE)
    for seat in SEATS:
        assert window.closed == ""
        windows.done(window, seat)
    with pytest.raises(Rejection, match="the trading window is closed \\(all done\\)"):
        trading.choose(RULES, d.bot.table, window, trading.Warehouses(), d.bot.civs[0], [])


def spend_and_resolve(d: Driver, stored: dict[str, list[str]]) -> dict[str, dict[str, list[str]]]:
    spent: dict[str, dict[str, list]] = {"bot": {}, "export": {}}
    stores = {}
    for name, fold in (("bot", d.bot), ("export", d.export)):
        store = trading.Warehouses(dict(stored))
        stores[name] = store
        spent[name] = {seat: trading.spend(fold.table, store, seat) for seat in SEATS}
    d.serve()  # the bot publishes every spent card
    out: dict[str, dict[str, list[str]]] = {}
    for name, fold in (("bot", d.bot), ("export", d.export)):
        out[name] = {}
        for civ in fold.civs:
            cards = trading.discard_spent(fold.table, stores[name], civ.seat, spent[name][civ.seat])
            resolution.resolve(RULES, civ, cards)
            out[name][civ.seat] = cards
    return out


def test_spent_cards_are_revealed_and_resolve_alike_in_both_folds() -> None:
    d = produced()
    out = spend_and_resolve(d, {"Waldorf": ["civic.1", "civic.3"], "Geoff": ["ore.2"]})
    assert out["bot"] == out["export"]
    assert out["export"]["Waldorf"] == ["salt mars", "timber mars", "wool venus", "grain venus", "ore venus",
                                        "art barbarians", "art democracy"]
    waldorf = d.export.civs[0]
    # five basic singles $5, two art $5; mars 2 against venus 3; democracy 1; a barbarian
    assert (waldorf.money, waldorf.safety, waldorf.religion.level, waldorf.government.level) == (5 + 5, -1, 1, 1)
    assert [(c.seat, c.money, c.vp) for c in d.bot.civs] == [(c.seat, c.money, c.vp) for c in d.export.civs]
    assert [h.id for h in d.export.table.holdings["Waldorf"].cards] == ["civic.1", "civic.3"]
    assert all(h.card is None for h in d.export.table.holdings["Waldorf"].cards)  # warehoused: still sealed
    assert d.export.table.decks["civic"].discard == ["art barbarians", "art democracy"]
    assert d.bot.table.public() == d.export.table.public()


def test_the_findings_name_a_warehoused_card_that_may_not_be_warehoused() -> None:
    store = trading.Warehouses(history=[("Geoff", ("salt.2", "ore.2"))], spent={"salt.2": "salt depression",
                                                                                "ore.2": "ore dictatorship"})
    fold = Fold([])
    assert trading.findings(RULES, fold.table, store) == ["Geoff warehoused salt.2 (salt depression), which may not be warehoused"]
    store.history = [("Geoff", ("ore.2",))]
    assert trading.findings(RULES, fold.table, store) == []
