"""What each seat sees: the public view (screens as counts), a seat's private view (its own tokens and the
orders it may give now), the prompts, the summary and the status card."""
from __future__ import annotations

from typing import Any

from engine.mare_nostrum_empires import abilities, commerce, defaults, legendary, production, titles
from engine.mare_nostrum_empires.game import CLAIMS, COMMERCE, MILITARY, OVER, PHASE_NAMES, PRODUCTION, PURCHASE, Game
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.names import counted
from engine.ruleset import IN_TURN, SEALED, Prompt


def prompts(rules: RulesData, game: Game) -> list[Prompt]:
    board = game.board
    if game.phase == OVER or game.battles or legendary.dealing(game):
        return []
    if game.phase == PRODUCTION:
        return [Prompt(e, IN_TURN, "what the temple of your legendary city adds ('extra <province> tax' or "
                                   "'extra <province> legendary')", (), defaults.extra(sorted(waiting)[0]))
                for e in board.empires
                if (waiting := set(production.legendary_choices(rules, board, e)) - set(game.extra_choices.get(e, {})))]
    if game.phase == COMMERCE and game.commerce is not None:
        c = game.commerce
        if c.count is None:
            free = commerce.available(tuple(rules.commerce), game.tokens, c.master)
            faces = ", ".join(f"{t} ({rules.commerce[t][0]} or {rules.commerce[t][1]})" for t in free)
            return [Prompt(c.master, IN_TURN, f"the commerce token and its face: {faces} ('token II 3')",
                           tuple(f"token {t} {f}" for t in free for f in rules.commerce[t]),
                           defaults.token(rules, free))]
        missing = [s for s in c.taking_part if s not in c.offers]
        if missing:
            return [Prompt(s, SEALED, f"your offer of {c.count} tokens, sealed until all are in ('offer wine, "
                                      f"tax')", (), f"offer {defaults.OFFER}") for s in missing]
        ex = c.exchange
        if ex is not None and ex.chain.next is not None:
            who = ex.chain.next
            return [Prompt(who, IN_TURN, f"take one token from {', '.join(commerce.targets(ex, who))} "
                                         f"('take <token> from <empire>')", (), defaults.take(ex, who))]
        if ex is not None and commerce.wronged(ex) is not None:
            return [Prompt(ex.master, IN_TURN, f"give one token to {commerce.wronged(ex)} ('give <token>')", (),
                           defaults.give(ex))]
        return []
    if game.phase in (PURCHASE, MILITARY) and game.turns is not None:
        turns = game.turns
        if turns.current is None:
            left = [e for e in board.empires if e not in turns.done]
            return [Prompt(turns.leader, IN_TURN, f"who plays next: {', '.join(left)} ('next <empire>')",
                           tuple(f"next {e}" for e in left), defaults.next_player(left))]
        what = ("your purchases ('buy legion in Latium with taxes'), then 'done'" if game.phase == PURCHASE else
                "your moves (triremes first: 'sail <sea> to <sea>', then 'march <province> to <province>'), "
                "then 'done'")
        return [Prompt(turns.current, IN_TURN, what, ("done",), "done")]
    if game.phase == CLAIMS:
        ties = titles.needs_choice(rules, board)
        return [Prompt(chooser, IN_TURN, f"the new {rules.titles[t].name} among {', '.join(tied)} "
                                         f"('name <empire> {t}')", tuple(f"name {e} {t}" for e in tied),
                       defaults.name(t, chooser, tied))
                for t, tied in ties.items() if t not in game.claims_choices
                for chooser in [abilities.tie_chooser(rules, board, t)]]
    return []


def public_view(rules: RulesData, game: Game, waiting: list[str]) -> dict[str, Any]:
    board = game.board
    c = game.commerce
    return {
        "ruleset": game.ruleset, "gm": game.gm, "round": game.round, "phase": game.phase,
        "players": dict(game.players), "leaders": dict(board.leaders),
        "levels": {t: {e: titles.marker(n, rules.track_top) for e, n in lv.items()} for t, lv in board.levels.items()},
        "screens": {e: {"tokens": s.token_count(), "legendary": len(s.legendary), "tiles": list(s.tiles),
                        "pyramids": s.pyramids,
                        # Face down, each legendary good is named by its card: how anyone orders for the seat.
                        **({"legendary_cards": [legendary.label(game, t) for t in s.legendary]}
                           if legendary.face_down(game) else {})} for e, s in board.screens.items()},
        "provinces": {n: {"influence": p.influence, "built": sorted(p.built), "legions": dict(p.legions),
                          "fortress": p.fortress, "occupied": dict(p.occupied), "at_war": p.at_war,
                          "conqueror": p.conqueror} for n, p in board.provinces.items()
                      if p.influence or p.built or p.legions or p.fortress},
        "triremes": {s: dict(t) for s, t in board.triremes.items() if any(t.values())},
        "commerce": None if c is None else {
            "master": c.master, "count": c.count, "taking_part": list(c.taking_part),
            "offers": {s: o.public() for s, o in c.offers.items()},
            "picks": c.exchange.chain.public()["picks"] if c.exchange else []},
        "tokens_used": list(game.tokens.used),
        "turn": None if game.turns is None else {"leader": game.turns.leader, "current": game.turns.current,
                                                  "done": list(game.turns.done)},
        "row": game.row.public() if game.row else None,
        "battles": [b.place for b in game.battles], "winners": [list(w) for w in game.winners],
        "chance": game.book.to_dict(), "waiting": waiting,
        # The table's hidden decks (the row's; the legendary goods' from version 3): seals, digests, the deck key.
        **({"row_deck": game.table.public()} if game.table is not None else {}),
    }


def private_view(rules: RulesData, game: Game, seat: str, choices: list[str]) -> dict[str, Any]:
    screen = game.board.screens[seat]
    c = game.commerce
    offer = c.offers.get(seat) if c else None
    cards = {t: legendary.resource(game, t) for t in screen.legendary if legendary.is_card(t)}
    return {"seat": seat, "goods": dict(screen.goods), "taxes": screen.taxes,
            "legendary": [cards.get(t) or t for t in screen.legendary], **({"legendary_cards": cards} if cards else {}),
            "tiles": list(screen.tiles), "offer": offer.known if offer else None, "choices": choices[:25]}


def headline(rules: RulesData, game: Game) -> str:
    if game.phase == OVER:
        return "Game over: " + "; ".join(f"the {e} {why}" for e, why in game.winners)
    return f"Round {game.round}, {PHASE_NAMES[game.phase]}"


def status(rules: RulesData, game: Game, waiting: list[str]) -> str:
    board = game.board
    lines = [f"{rules.title}: {headline(rules, game)}"]
    lines.append("Titles: " + ", ".join(f"{rules.titles[t].name} {e}" for t, e in board.leaders.items()))
    for empire in board.empires:
        s = board.screens[empire]
        held = titles.counts(board, empire)
        levels = "/".join(titles.marker(board.levels[t][empire], rules.track_top) for t in rules.titles)
        lines.append(f"{empire} ({game.players.get(empire) or 'nobody'}): {counted(held['influence'], 'province')}, "
                     f"{counted(held['legion'], 'legion')}, {counted(held['trireme'], 'trireme')}; "
                     f"{counted(s.token_count(), 'token')}; tiles "
                     f"{', '.join(s.tiles)}{', Pyramids' if s.pyramids else ''}; levels {levels}")
    if game.row:
        shown = ", ".join(t for t in game.row.face_up if t) or "no tile face up"
        lines.append(f"Row: {shown} (+{len(game.row.face_down)} face down)")
    lines.append(f"Waiting for: {', '.join(waiting) or 'nothing'}")
    return "\n".join(lines)
