"""The round's sequence: after every event the game moves on as far as what is known allows (a phase with
nothing left to ask ends, a roll whose value is known is used), since any event may unblock it.

Round 1 starts at Commerce (set-up is its Production). Each phase starts its own piece: the Trade master's
exchange, the Political or Military leader naming players, the Claims; the four victories are checked after every
event, and the first event after which one is met ends the game."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from engine.chance import book as chance
from engine.events import Event, Rejection
from engine.mare_nostrum_empires import (
    abilities, combat, commerce, fortresses, hidden_row, legendary, production, tiles, titles, victory,
)
from engine.mare_nostrum_empires.game import (
    CLAIMS, COMMERCE, MILITARY, OVER, PHASE_NAMES, PRODUCTION, PURCHASE, Battle, Commerce, Game, Turns,
)
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.rules_version import FORTRESS_FALLS
from engine.mare_nostrum_empires.state import Screen
from engine.names import counted
from engine.tabletop import shuffle

Say = Callable[..., None]
ROW_LABEL = "heroes-and-wonders-row"


def values_of(game: Game, binding_id: int | None) -> list[int] | None:
    return next((b.values for b in game.book.bindings if b.id == binding_id), None)


def _ask(game: Game, event: Event, label: str, lo: int, hi: int, count: int, purpose: str, meaning: str,
         say: Say) -> int | None:
    try:
        binding = chance.ask(game.book, event, label, lo, hi, count, purpose=purpose, meaning=meaning)
    except Rejection as exc:
        say(f"The roll for {purpose} waits to be bound: {exc.reason}.")
        return None
    say(f"The roll for {purpose} is bound to {chance.describe(binding)}.")
    chance.settle(game.book, event)  # a value recorded before (or a fixed one) is known at once
    return binding.id


def _row(rules: RulesData, game: Game, event: Event, say: Say) -> None:
    if game.table is not None:
        hidden_row.advance(rules, game, event, say)
        return
    if game.row is not None:
        return
    if game.row_roll is None:
        lo, hi, count = shuffle.roll_shape(game.book.source)
        game.row_roll = _ask(game, event, ROW_LABEL, lo, hi, count, "the order of the Heroes and Wonders row",
                             "the row's order: Fisher-Yates keyed by these values (engine/tabletop/shuffle.py)", say)
    values = values_of(game, game.row_roll)
    if values is not None:
        key = shuffle.shuffle_key(ROW_LABEL, values, None)
        game.row = tiles.deal(rules, shuffle.permute(tiles.row_tiles(rules), key, ROW_LABEL))
        say(f"The row of Heroes and Wonders is dealt: face up {', '.join(t for t in game.row.face_up if t)}.")


def _legendary(rules: RulesData, game: Game, event: Event, say: Say) -> None:
    if legendary.face_down(game):  # each owed good is dealt from the hidden deck (legendary.py)
        for empire, _ in game.legendary_rolls:
            for line in legendary.owe(game, empire, event):
                say(line)
        game.legendary_rolls = []
        for line in legendary.advance(game, event):
            say(line)
        return
    kept = []
    for empire, roll in game.legendary_rolls:
        if roll < 0:
            bound = _ask(game, event, f"legendary-{empire}-round-{game.round}", 1, len(rules.resources), 1,
                         f"a legendary good of the {empire}", "the resource, by its place in the resources list", say)
            roll = -1 if bound is None else bound
        values = values_of(game, roll) if roll >= 0 else None
        if values is None:
            kept.append((empire, roll))
            continue
        good = rules.resources[values[0] - 1]
        game.board.screens[empire].legendary.append(good)
        say(f"The {empire} draw a legendary good: {good}.")
    game.legendary_rolls = kept


def _battle(rules: RulesData, game: Game, event: Event, battle: Battle, say: Say) -> bool:
    """Fights ``battle`` if its dice are known; False while they are not."""
    if battle.roll is None:
        battle.extra_dice = abilities.extra_dice(rules, game.board, battle.defender, battle.at_sea, True)
        dice = battle.attackers + battle.defenders + battle.extra_dice
        colour = "blue" if battle.at_sea else "white"
        bound = _ask(game, event, f"battle-{game.round}-{battle.place}", 1, combat.FACES, dice,
                     f"the battle in {battle.place}", f"{dice} {colour} dice: the {battle.attacker}' "
                     f"{battle.attackers} first, then the {battle.defender}' {battle.defenders + battle.extra_dice}",
                     say)
        if bound is None:
            return False
        battle.roll = bound
    values = values_of(game, battle.roll)
    if values is None:
        return False
    prov = None if battle.at_sea else game.board.provinces[battle.place]
    cut = battle.attackers
    att = abilities.side(rules, game.board, battle.attacker, battle.place, battle.attackers, values[:cut], True,
                         battle.by_sea)
    dfn = abilities.side(rules, game.board, battle.defender, battle.place, battle.defenders, values[cut:], False)
    result = combat.throw(att.units, combat.hits(att.dice, points=att.points), att.cancels, dfn.units,
                          combat.hits(dfn.dice, points=dfn.points), dfn.cancels, battle.at_sea)
    units = game.board.triremes[battle.place] if prov is None else prov.legions
    for side, lost in ((battle.attacker, result.attacker_losses), (battle.defender, result.defender_losses)):
        units[side] -= lost
        if not units[side]:
            del units[side]
    say(f"Battle in {battle.place}: the {battle.attacker} throw {att.dice}{_why(att)}, the {battle.defender} "
        f"{dfn.dice}{_why(dfn)}; the {battle.attacker} lose {result.attacker_losses}, the {battle.defender} "
        f"{result.defender_losses}.")
    if prov is not None:
        if result.outcome == "conquest":
            prov.conqueror, prov.at_war = battle.attacker, False
            say(f"The {battle.attacker} conquer {battle.place}.")
            if game.board.rules_version >= FORTRESS_FALLS and fortresses.fall(prov, battle.defender):
                say(f"The {battle.defender}' fortress of {battle.place} falls with its last legion: it goes back to "
                    f"the {battle.defender}.")
        elif result.outcome == "tie":
            prov.at_war = True
            say(f"{battle.place} is at war.")
    elif result.outcome == "tie":
        say(f"Nothing more happens in {battle.place}.")
    return True


def _why(side: abilities.Side) -> str:
    return f" ({'; '.join(side.why)})" if side.why else ""


def _apply_exchange(game: Game, results: dict[str, Counter[str]]) -> None:
    for seat, change in results.items():
        screen: Screen = game.board.screens[seat]
        for token, n in change.items():
            if token == "tax":
                screen.taxes += n
            elif legendary.is_card(token):
                for _ in range(n):
                    screen.legendary.append(token)
                for _ in range(-n):
                    screen.legendary.remove(token)
            elif token.startswith("legendary "):
                good = token.removeprefix("legendary ")
                for _ in range(n):
                    screen.legendary.append(good)
                for _ in range(-n):
                    screen.legendary.remove(good)
            else:
                screen.goods[token] = screen.goods.get(token, 0) + n
                if not screen.goods[token]:
                    del screen.goods[token]


def start_phase(rules: RulesData, game: Game, phase: str, say: Say) -> None:
    game.phase = phase
    board = game.board
    if phase == COMMERCE:
        game.commerce = Commerce(board.leaders["commerce"])
        say(f"Round {game.round}, Commerce: the {game.commerce.master}, Trade master, choose a commerce token "
            f"({', '.join(commerce.available(tuple(rules.commerce), game.tokens, game.commerce.master))}).")
    elif phase in (PURCHASE, MILITARY):
        leader = board.leaders["politics" if phase == PURCHASE else "military"]
        game.turns = Turns(leader)
        say(f"Round {game.round}, {PHASE_NAMES[phase]}: the {leader} name who plays first.")
    elif phase == CLAIMS:
        game.claims_choices = {}
        say(f"Round {game.round}, Claims.")


def _commerce(rules: RulesData, game: Game, say: Say) -> bool:
    """True when the Commerce phase is over."""
    c = game.commerce
    assert c is not None
    if c.count is None:
        return False
    if len(c.taking_part) < 2:
        say("Fewer than two players take part: there is no exchange this round.")
        return True
    if len(c.offers) < len(c.taking_part) or any(o.revealed is None for o in c.offers.values()):
        return False
    if legendary.face_down(game) and legendary.unshown(game, [t for o in c.offers.values() for t in o.revealed or []]):
        return False  # the legendary goods put forward are shown before anyone picks
    if c.exchange is None:
        starter = c.master if c.master in c.taking_part else next(
            e for e in (*game.board.empires, *game.board.empires)[game.board.empires.index(c.master) + 1:]
            if e in c.taking_part)
        c.exchange = commerce.open_exchange(starter, {s: list(c.offers[s].revealed or []) for s in c.taking_part})
        shown = "; ".join(f"{s}: {', '.join(legendary.label(game, t) for t in c.offers[s].revealed or [])}"
                          for s in c.taking_part)
        after = "Nobody can take from anybody." if c.exchange.over else f"The {starter} take first."
        say(f"The offers are revealed: {shown}. {after}")
    ex = c.exchange
    if not ex.over or commerce.wronged(ex) is not None:
        return False
    _apply_exchange(game, commerce.results(ex))
    say("The exchange is over: the tokens go behind the screens.")
    return True


def progress(rules: RulesData, game: Game, event: Event, say: Say) -> None:
    while game.phase != OVER:
        _row(rules, game, event, say)
        _legendary(rules, game, event, say)
        if game.battles:
            if not _battle(rules, game, event, game.battles[0], say):
                break
            game.battles.pop(0)
            continue
        game.board.levels = titles.levels(rules, game.board)
        won = victory.winners(rules, game.board)
        if won:
            game.winners = won
            game.phase = OVER
            if game.table is not None:  # the deck key, and every legendary good still sealed
                hidden_row.end(game)
            say("The game is over: " + "; ".join(f"the {e} {why}" for e, why in won) + ".")
            break
        if not _step(rules, game, say):
            break


def _step(rules: RulesData, game: Game, say: Say) -> bool:
    """Ends the current phase if nothing is left to ask in it; True if it moved on."""
    board = game.board
    if game.phase == PRODUCTION:
        waiting = [e for e in board.empires
                   if set(production.legendary_choices(rules, board, e)) - set(game.extra_choices.get(e, {}))]
        if waiting:
            return False
        for empire in board.empires:
            made = production.collect(rules, board, empire, game.extra_choices.get(empire))
            screen = board.screens[empire]
            for good, n in made.goods.items():
                screen.goods[good] = screen.goods.get(good, 0) + n
            screen.taxes += made.taxes
            game.legendary_rolls.extend((empire, -1) for _ in range(made.legendary))
            say(f"Production: the {empire} collect " + (", ".join(f"{n} {g}" for g, n in made.goods.items()) or
                "no goods") + f", {counted(made.taxes, 'tax', 'taxes')}"
                + (f" and {counted(made.legendary, 'legendary good')}." if made.legendary
                   else "."))
        game.extra_choices = {}
        start_phase(rules, game, COMMERCE, say)
        return True
    if game.phase == COMMERCE:
        if not _commerce(rules, game, say):
            return False
        game.commerce = None
        start_phase(rules, game, PURCHASE, say)
        return True
    if game.phase in (PURCHASE, MILITARY):
        turns = game.turns
        assert turns is not None
        if turns.current is not None or len(turns.done) < len(board.empires):
            return False
        if game.phase == PURCHASE and game.table is not None:
            hidden_row.refill(game)
        elif game.phase == PURCHASE:
            turned = tiles.refill(game.row) if game.row else []
            if turned:
                say(f"The row turns up: {', '.join(turned)}.")
        game.turns = None
        start_phase(rules, game, MILITARY if game.phase == PURCHASE else CLAIMS, say)
        return True
    if game.phase == CLAIMS:
        ties = titles.needs_choice(rules, board)
        if any(t not in game.claims_choices for t in ties):
            return False
        leaders = titles.claim(rules, board, game.claims_choices)
        changed = [f"{rules.titles[t].name}: {e}" for t, e in leaders.items() if board.leaders[t] != e]
        board.leaders = leaders
        line = f"Round {game.round} claims: " + ", ".join(f"{rules.titles[t].name} {e}" for t, e in leaders.items())
        game.history.append(line)
        say(line + (f" (new: {'; '.join(changed)})." if changed else "."))
        if victory.winners(rules, board):
            return True  # the three titles: the loop's check ends the game in this round
        board.round += 1
        start_phase(rules, game, PRODUCTION, say)
        return True
    return False
