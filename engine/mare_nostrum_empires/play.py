"""One handler per order kind (``HANDLERS``): each checks the order against the phase and whose turn it is, then
plays it with the rule modules. A refusal changes nothing: every check comes before the first change."""
from __future__ import annotations

from collections.abc import Callable

from engine.events import Rejection
from engine.mare_nostrum_empires import (
    abilities, commerce, conquest, fortresses, legendary, movement, placement, production, purchase, tiles, titles,
)
from engine.mare_nostrum_empires import orders as o
from engine.mare_nostrum_empires.game import CLAIMS, COMMERCE, MILITARY, PRODUCTION, PURCHASE, Battle, Game
from engine.mare_nostrum_empires.rules_data import BUILDINGS, RulesData
from engine.mare_nostrum_empires.rules_version import FORTRESS_FALLS
from engine.mare_nostrum_empires.state import Screen

Say = Callable[..., None]


def _phase(game: Game, phase: str, what: str) -> None:
    if game.phase != phase:
        raise Rejection(f"{what} belongs to the {phase} phase; this is the {game.phase} phase")


def _my_turn(game: Game, seat: str) -> None:
    turns = game.turns
    if turns is None or turns.current is None:
        leader = turns.leader if turns else "the leader"
        raise Rejection(f"nobody plays yet: {leader} names who plays next ('next <empire>')")
    if turns.current != seat:
        raise Rejection(f"{turns.current} plays now, not {seat}")
    if game.battles:
        raise Rejection(f"the battle in {game.battles[0].place} waits for its dice: orders resume once it is fought")


def extra(rules: RulesData, game: Game, seat: str, order: o.Extra, say: Say) -> None:
    _phase(game, PRODUCTION, "the choice of a temple's extra")
    if order.province not in production.legendary_choices(rules, game.board, seat):
        raise Rejection(f"{seat} has no legendary city with a temple in {order.province}")
    game.extra_choices.setdefault(seat, {})[order.province] = order.choice
    say(f"The {seat}: the temple of {rules.provinces[order.province].legendary} adds a {order.choice}.")


def token(rules: RulesData, game: Game, seat: str, order: o.ChooseToken, say: Say) -> None:
    _phase(game, COMMERCE, "choosing a commerce token")
    c = game.commerce
    assert c is not None
    if seat != c.master:
        raise Rejection(f"the Trade master ({c.master}) chooses the commerce token, not {seat}")
    if c.count is not None:
        raise Rejection(f"the commerce token is chosen already: {c.count} tokens each")
    if legendary.dealing(game):
        raise Rejection("the legendary goods produced are being dealt face down: the commerce token waits for them")
    game.tokens, count = commerce.choose(rules.commerce, game.tokens, seat, order.token, order.face)
    c.count = count
    least = {e: abilities.smallest_offer(rules, game.board, e, count) for e in game.board.empires}
    c.taking_part = commerce.participants(game.board.screens, game.board.empires, count, least)
    out = [e for e in game.board.empires if e not in c.taking_part]
    say(f"The {seat}, Trade master, turn commerce token {order.token} to {count}: each player puts forward {count} "
        f"token{'s' if count != 1 else ''}. Taking part: {', '.join(c.taking_part) or 'nobody'}"
        + (f"; sitting out (too few tokens): {', '.join(out)}." if out else "."))


def take(rules: RulesData, game: Game, seat: str, order: o.Take, say: Say) -> None:
    _phase(game, COMMERCE, "taking a token")
    c = game.commerce
    if c is None or c.exchange is None:
        raise Rejection("the exchange opens once every offer is revealed")
    commerce.pick(c.exchange, seat, order.target, order.token)
    say(f"The {seat} take {order.token} from the {order.target}."
        + (f" The {c.exchange.chain.next} take next." if c.exchange.chain.next else " The pick chain is over."))


def give(rules: RulesData, game: Game, seat: str, order: o.Give, say: Say) -> None:
    _phase(game, COMMERCE, "the unequal exchange")
    c = game.commerce
    if c is None or c.exchange is None or seat != c.exchange.master:
        raise Rejection("only the player who opened the exchange gives the unequal exchange's token")
    short = commerce.wronged(c.exchange)
    commerce.give(c.exchange, order.token, game.board.screens[seat])
    if legendary.is_card(order.token):  # given face up
        legendary.show(game, order.token)
    say(f"The {seat} give {order.token} to the {short}: the exchange is even.")


def next_player(rules: RulesData, game: Game, seat: str, order: o.Next, say: Say) -> None:
    if game.phase not in (PURCHASE, MILITARY) or game.turns is None:
        raise Rejection(f"naming who plays next belongs to the Purchase and Military phases, not {game.phase}")
    turns = game.turns
    if seat != turns.leader:
        raise Rejection(f"{turns.leader} names who plays next, not {seat}")
    if turns.current is not None:
        raise Rejection(f"{turns.current} is still playing: they end with 'done'")
    if order.empire not in game.board.empires:
        raise Rejection(f"{order.empire} is not in this game: {', '.join(game.board.empires)}")
    if order.empire in turns.done:
        left = [e for e in game.board.empires if e not in turns.done]
        raise Rejection(f"{order.empire} has played this phase: name one of {', '.join(left)}")
    turns.current = order.empire
    say(f"The {seat} name the {order.empire} to play.")


def _pay(rules: RulesData, game: Game, seat: str, order: o.Buy) -> Screen:
    cost = abilities.price(rules, game.board, seat, order.item, purchase.price(rules, order.item, game.round))
    if not legendary.face_down(game):
        return purchase.pay(game.board.screens[seat], seat, cost, order.taxes, list(order.goods))
    return purchase.pay(game.board.screens[seat], seat, cost, order.taxes, list(order.goods),
                        lambda good: legendary.resource(game, good))


def buy(rules: RulesData, game: Game, seat: str, order: o.Buy, say: Say) -> None:
    _phase(game, PURCHASE, "buying")
    _my_turn(game, seat)
    board, item, where = game.board, order.item, order.place
    have = titles.counts(board, seat)
    if item in rules.tiles:
        if game.row is None:
            raise Rejection("the row of Heroes and Wonders is not dealt yet: it waits for its shuffle")
        if item not in game.row.face_up:
            tiles.buy(game.row, item)  # refuses with what is face up
        screen = _pay(rules, game, seat, order)
        tiles.buy(game.row, item)
        screen.tiles.append(item)
    elif item == "pyramids":
        holder = next((e for e, s in board.screens.items() if s.pyramids), None)
        if holder:
            raise Rejection(f"the {holder} have built the Pyramids: there is one tile")
        screen = _pay(rules, game, seat, order)
        screen.pyramids = True
    else:
        if where is None:
            raise Rejection(f"say where the {item} goes: 'buy {item} in <{'sea' if item == 'trireme' else 'province'}> "
                            f"with ...'")
        if item == "influence":
            placement.check_influence(rules, board, seat, where)
        elif item in ("legion", "trireme", "fortress"):
            placement.check_unit(rules, board, seat, item, where)
        else:
            placement.check_building(rules, board, seat, item, where)
            reserve = rules.reserve_limits.get(item)
            built = sum(item in p.built for p in board.provinces.values())
            if reserve is not None and built >= reserve:
                raise Rejection(f"all {reserve} {item} pieces of the reserve are on the board")
        if item in rules.empire_limits:
            placement.check_limit(rules, board, seat, item, have[item])
        screen = _pay(rules, game, seat, order)
        prov = board.provinces.get(where)
        if item == "influence" and prov is not None:
            prov.influence = seat
        elif item == "legion" and prov is not None:
            prov.legions[seat] = prov.legions.get(seat, 0) + 1
            conquest.enemy_lands(board, seat, where)  # a conqueror there is no longer one: the province is at war
        elif item == "trireme":
            board.triremes[where][seat] = board.triremes[where].get(seat, 0) + 1
        elif item == "fortress" and prov is not None:
            prov.fortress = seat
        elif item in BUILDINGS and prov is not None:
            prov.built.add(item)
    board.screens[seat] = screen
    if legendary.face_down(game):
        legendary.spend(game, list(order.goods))
    paid = "taxes" if order.taxes else ", ".join(order.goods)
    say(f"The {seat} buy {'the ' if item == 'pyramids' else ''}{item}{f' in {where}' if where else ''} "
        f"(paid with {paid}).")


def swap(rules: RulesData, game: Game, seat: str, order: o.Swap, say: Say) -> None:
    _phase(game, PURCHASE, "swapping a good with the reserve")
    _my_turn(game, seat)
    if not abilities.has(rules, game.board, seat, "swap_good"):
        raise Rejection(f"the {seat} hold no Hero or Wonder that swaps a good with the reserve")
    if order.good == order.for_good:
        raise Rejection(f"a swap takes a good of another resource than {order.good}")
    if game.swapped.get(seat) == game.round:
        raise Rejection(f"the {seat} have swapped a good this round: once a round")
    screen = game.board.screens[seat]
    if screen.goods.get(order.good, 0) < 1:
        raise Rejection(f"{seat} holds no {order.good} to swap", hidden_of=seat)
    screen.goods[order.good] -= 1
    if not screen.goods[order.good]:
        del screen.goods[order.good]
    screen.goods[order.for_good] = screen.goods.get(order.for_good, 0) + 1
    game.swapped[seat] = game.round
    # In public, as purchases are: the player whose turn it is shows its resources (the seed).
    say(f"The {seat} swap {order.good} for {order.for_good} from the reserve.")


def done(rules: RulesData, game: Game, seat: str, order: o.Done, say: Say) -> None:
    if game.phase not in (PURCHASE, MILITARY):
        raise Rejection(f"'done' ends a player's turn in the Purchase and Military phases, not in {game.phase}")
    _my_turn(game, seat)
    turns = game.turns
    assert turns is not None
    if game.phase == PURCHASE:
        before = game.board.screens[seat]
        keep = abilities.keep_taxes(rules, game.board, seat, purchase.KEEP_TAXES)
        game.board.screens[seat] = purchase.end_of_turn(before, keep)
        if legendary.face_down(game):
            legendary.spend(game, list(before.legendary))
        say(f"The {seat} end their purchases: their goods go back to the reserve, they keep "
            f"{game.board.screens[seat].taxes} tax{'es' if game.board.screens[seat].taxes != 1 else ''}.")
    else:
        say(f"The {seat} end their military turn.")
    turns.done.append(seat)
    turns.current = None
    turns.moved_legions = False
    turns.arrived = {}
    turns.long_march = False


def sail(rules: RulesData, game: Game, seat: str, order: o.Sail, say: Say) -> None:
    _phase(game, MILITARY, "moving a trireme")
    _my_turn(game, seat)
    turns = game.turns
    assert turns is not None
    if turns.moved_legions:
        raise Rejection("triremes move first: once a legion has moved this turn, the triremes stay")
    movement.check_trireme_move(rules, game.board, seat, order.sea, order.to,
                                abilities.trireme_range(rules, game.board, seat))
    if order.attack is not None and order.attack not in movement.sea_opponents(game.board, seat, order.to):
        raise Rejection(f"there is no {order.attack} trireme in {order.to} to fight: "
                        f"{', '.join(movement.sea_opponents(game.board, seat, order.to)) or 'no enemy fleet there'}")
    seas = game.board.triremes
    if seas[order.sea][seat] - turns.arrived.get(order.sea, 0) < 1:
        raise Rejection(f"a trireme moves one sea a turn: the {seat} triremes in {order.sea} have moved already")
    seas[order.sea][seat] -= 1
    turns.arrived[order.to] = turns.arrived.get(order.to, 0) + 1
    seas[order.to][seat] = seas[order.to].get(seat, 0) + 1
    say(f"The {seat} sail a trireme from {order.sea} to {order.to}.")
    if order.attack is not None:
        game.battles.append(Battle(order.to, seat, order.attack, seas[order.to][seat], seas[order.to][order.attack], True))
        say(f"The {seat} attack the {order.attack} fleet in {order.to}.")


def march(rules: RulesData, game: Game, seat: str, order: o.March, say: Say) -> None:
    _phase(game, MILITARY, "moving legions")
    _my_turn(game, seat)
    board = game.board
    assert game.turns is not None  # _my_turn has checked it
    reach = abilities.legion_range(rules, board, seat)
    how = movement.check_legion_move(rules, board, seat, order.province, order.to, reach)
    if how == "long march" and game.turns.long_march:
        raise Rejection(f"one legion moves up to {reach} provinces once a Military phase, and the {seat} have done "
                        f"so: {order.to} is not next to {order.province}")
    if how == "long march" and order.count != 1:
        raise Rejection(f"one legion moves up to {reach} provinces once a Military phase: march 1 {order.province} "
                        f"to {order.to}, not {order.count}")
    have = board.provinces[order.province].legions.get(seat, 0)
    if order.count > have:
        raise Rejection(f"the {seat} have {have} legion{'s' if have != 1 else ''} in {order.province}, not {order.count}")
    free = have - game.turns.arrived.get(order.province, 0)
    if order.count > free:
        raise Rejection(f"a legion moves once a turn: {free} of the {seat} legions in {order.province} may still move, "
                        f"not {order.count}")
    source, target = board.provinces[order.province], board.provinces[order.to]
    source.legions[seat] -= order.count
    if not source.legions[seat]:
        del source.legions[seat]
        if source.conqueror == seat:  # the conqueror leaves: control returns to the influence holder
            source.conqueror = None
            source.occupied = {b: e for b, e in source.occupied.items() if e != seat}
            source.converting = None
    target.legions[seat] = target.legions.get(seat, 0) + order.count
    game.turns.moved_legions = True
    game.turns.long_march = game.turns.long_march or how == "long march"
    game.turns.arrived[order.to] = game.turns.arrived.get(order.to, 0) + order.count
    say(f"The {seat} move {order.count} legion{'s' if order.count != 1 else ''} from {order.province} to {order.to}"
        f"{' along their trireme chain' if how == 'by sea' else ''}"
        f"{' (the long march of their tile, once this phase)' if how == 'long march' else ''}.")
    conquest.enemy_lands(board, seat, order.to)
    enemies = movement.battle_due(board, seat, order.to)
    if enemies:
        defender = enemies[0]
        game.battles.append(Battle(order.to, seat, defender, target.legions[seat], target.legions[defender], False,
                                   by_sea=how == "by sea"))
        say(f"Battle in {order.to}: the {seat} against the {defender}.")
    elif target.influence not in (None, seat) and target.conqueror is None:
        target.conqueror = seat
        target.at_war = False
        say(f"The {seat} enter {order.to} unopposed and are its conquerors.")


def pillage(rules: RulesData, game: Game, seat: str, order: o.Pillage, say: Say) -> None:
    _phase(game, MILITARY, "pillaging")
    _my_turn(game, seat)
    if order.building == fortresses.PIECE:
        if game.board.rules_version < FORTRESS_FALLS:
            raise Rejection(f"'fortress' is not a building: {', '.join(BUILDINGS)} (in this campaign a fortress "
                            f"never falls)")
        owner = fortresses.pillage(game.board, seat, order.province)
        say(f"The {seat} pillage the {owner}' fortress of {order.province}: it goes back to the {owner}.")
        return
    gain = conquest.pillage(rules, game.board, seat, order.province, order.building, order.take)
    screen = game.board.screens[seat]
    if gain == "tax":
        screen.taxes += 1
    elif gain == "legendary":
        game.legendary_rolls.append((seat, -1))
    elif gain is not None:
        screen.goods[gain] = screen.goods.get(gain, 0) + 1
    say(f"The {seat} pillage the {order.building} of {order.province}" + (f" and take a {gain} good." if gain and gain
        not in ("tax", "legendary") else f" and take a {gain}." if gain else "."))


def occupy(rules: RulesData, game: Game, seat: str, order: o.Occupy, say: Say) -> None:
    _phase(game, MILITARY, "occupying")
    _my_turn(game, seat)
    units = game.board.provinces[order.province].legions.get(seat, 0)
    conquest.occupy(game.board, seat, order.province, list(order.buildings), units)
    say(f"The {seat} occupy the {', '.join(order.buildings)} of {order.province}.")


def stand(rules: RulesData, game: Game, seat: str, order: o.Stand, say: Say) -> None:
    _phase(game, MILITARY, "standing on an influence marker")
    _my_turn(game, seat)
    conquest.stand_on_marker(game.board, seat, order.province)
    game.standing[order.province] = game.round
    say(f"The {seat} stand a legion on the influence marker of {order.province}.")


def convert(rules: RulesData, game: Game, seat: str, order: o.Convert, say: Say) -> None:
    _phase(game, MILITARY, "converting an influence marker")
    _my_turn(game, seat)
    if game.standing.get(order.province, game.round) >= game.round:
        raise Rejection(f"the marker of {order.province} is converted at the {seat}' next Military phase, not the "
                        f"one it was stood on")
    prov = game.board.provinces[order.province]
    former = prov.influence
    conquest.convert(rules, game.board, seat, order.province)
    game.standing.pop(order.province, None)
    say(f"The {seat} convert the influence marker of {order.province}: the province is now theirs.")
    if game.board.rules_version >= FORTRESS_FALLS and fortresses.fall(prov, former):
        say(f"The {former}' fortress of {order.province} falls: it goes back to the {former}.")


def name(rules: RulesData, game: Game, seat: str, order: o.Name, say: Say) -> None:
    _phase(game, CLAIMS, "naming a successor")
    tied = titles.needs_choice(rules, game.board).get(order.title)
    if tied is None:
        raise Rejection(f"there is no tie for the {rules.titles[order.title].name} title")
    previous = game.board.leaders[order.title]
    chooser = abilities.tie_chooser(rules, game.board, order.title)
    if seat != chooser:
        who = f"the previous {rules.titles[order.title].name}" if chooser == previous else "by their tile"
        raise Rejection(f"{chooser}, {who}, names the successor, not {seat}")
    if order.empire not in tied:
        raise Rejection(f"{order.empire} is not among the tied ({', '.join(tied)})")
    game.claims_choices[order.title] = order.empire
    say(f"The {seat} name the {order.empire} {rules.titles[order.title].name}.")


HANDLERS: dict[type, Callable[..., None]] = {
    o.Extra: extra, o.ChooseToken: token, o.Take: take, o.Give: give, o.Next: next_player, o.Buy: buy,
    o.Swap: swap, o.Done: done, o.Sail: sail, o.March: march, o.Pillage: pillage, o.Occupy: occupy, o.Stand: stand,
    o.Convert: convert, o.Name: name,
}
