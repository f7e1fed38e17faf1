"""Phase 2, Commerce: the Trade master's token, the secret offers, the pick chain and the unequal exchange.

The Trade master turns one of the three commerce tokens to a face: that many tokens each player puts forward. A
player with fewer sits out, one with enough must take part. Offers are chosen behind the screen and shown all at
once (the shell seals them with the tabletop pieces and reveals them together); then the pick chain of
``engine.tabletop.chains``: the Trade master takes one token from an opponent's offer, the player taken from
takes next, one round trip at most between two players. A token face used waits until all three tokens have been
used, unless the title changes hands: the new Trade master chooses among all three again."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.events import Rejection
from engine.mare_nostrum_empires import legendary
from engine.mare_nostrum_empires.state import Screen
from engine.names import counted
from engine.tabletop import chains


@dataclass
class Tokens:
    """The commerce tokens between rounds: which have been used since all three were last available."""

    used: list[str] = field(default_factory=list)
    master: str | None = None  # the Trade master who used them


def _still_used(all_tokens: tuple[str, ...], tokens: Tokens, master: str) -> list[str]:
    if tokens.master != master or len(tokens.used) >= len(all_tokens):
        return []
    return list(tokens.used)


def available(all_tokens: tuple[str, ...], tokens: Tokens, master: str) -> list[str]:
    used = _still_used(all_tokens, tokens, master)
    return [t for t in all_tokens if t not in used]


def choose(faces: dict[str, tuple[int, int]], tokens: Tokens, master: str, token: str, face: int) -> tuple[Tokens, int]:
    """The Trade master turns ``token`` to ``face`` (its number): the tokens after, and how many to put forward."""
    used = _still_used(tuple(faces), tokens, master)
    free = [t for t in faces if t not in used]
    if token not in faces:
        raise Rejection(f"there is no commerce token '{token}': the tokens are {', '.join(faces)}")
    if token not in free:
        raise Rejection(f"commerce token {token} has been used: until all three have been, choose {', '.join(free)}")
    if face not in faces[token]:
        raise Rejection(f"commerce token {token} shows {faces[token][0]} or {faces[token][1]}, not {face}")
    return Tokens([*used, token], master), face


def participants(screens: dict[str, Screen], seats: tuple[str, ...], count: int,
                 least: dict[str, int] | None = None) -> list[str]:
    """Who must take part: every player with at least ``count`` tokens, or the fewer ``least`` lets a player put
    forward (a tile's ability); the others sit out."""
    least = least or {}
    return [s for s in seats if screens[s].token_count() >= least.get(s, count)]


def token_list(screen: Screen) -> Counter[str]:
    """A screen's tokens as names: a resource for a good, "tax" for a tax, "legendary <resource>" for a legendary good."""
    out: Counter[str] = Counter(screen.goods)
    if screen.taxes:
        out["tax"] = screen.taxes
    for good in screen.legendary:  # a resource (rules version 1) or a face-down card's id
        out[good if legendary.is_card(good) else f"legendary {good}"] += 1
    return out


def check_offer(screen: Screen, seat: str, offer: list[str], count: int, least: int | None = None) -> None:
    """``least``: the fewest tokens ``seat`` may put forward, when a tile lets it offer fewer than ``count``."""
    if least is not None and least < count and not least <= len(offer) <= count:
        raise Rejection(f"{seat} puts forward {counted(len(offer), 'token')}: the commerce "
                        f"token shows {count}, and {seat} may put forward {least} to {count}")
    if (least is None or least >= count) and len(offer) != count:
        raise Rejection(f"{seat} puts forward {counted(len(offer), 'token')}, not the "
                        f"{count} the commerce token shows")
    have = token_list(screen)
    for name, n in Counter(offer).items():
        if have[name] < n:
            raise Rejection(f"{seat} puts forward {n} × {name} but holds {have[name]}", hidden_of=seat)


@dataclass
class Exchange:
    master: str
    offered: dict[str, list[str]]  # seat -> what it put forward
    offers: dict[str, list[str]]  # seat -> tokens still on its board
    taken: dict[str, list[str]]  # seat -> tokens it has taken
    chain: chains.PickChain
    given: tuple[str, str, str] | None = None  # (master, wronged player, token) of the unequal exchange

    @property
    def over(self) -> bool:
        return self.chain.next is None


def open_exchange(master: str, offers: dict[str, list[str]]) -> Exchange:
    """The offers revealed together; the Trade master picks first (a master who sits out: no exchange)."""
    seats = list(offers)
    chain = chains.start(seats, master) if master in offers and len(seats) > 1 else chains.PickChain(tuple(seats), None)
    return _settle_if_stuck(Exchange(master, {s: list(o) for s, o in offers.items()},
                                     {s: list(o) for s, o in offers.items()}, {s: [] for s in seats}, chain))


def targets(ex: Exchange, seat: str) -> list[str]:
    return [s for s in ex.chain.targets(seat) if ex.offers[s]]


def pick(ex: Exchange, seat: str, target: str, token: str) -> Exchange:
    if ex.chain.next is not None and seat == ex.chain.next and target in ex.offers and not ex.offers[target]:
        raise Rejection(f"{target} has nothing left on offer: take from {', '.join(targets(ex, seat)) or 'nobody'}")
    if target in ex.offers and ex.offers[target] and token not in ex.offers[target]:
        raise Rejection(f"{target} does not offer '{token}': it offers {', '.join(sorted(ex.offers[target]))}")
    chains.pick(ex.chain, seat, target)
    ex.offers[target].remove(token)
    ex.taken[seat].append(token)
    return _settle_if_stuck(ex)


def _settle_if_stuck(ex: Exchange) -> Exchange:
    """The chain also ends when the player to pick has nobody left with a token on offer to take from."""
    if ex.chain.next is not None and not targets(ex, ex.chain.next):
        ex.chain.next = None
    return ex


def wronged(ex: Exchange) -> str | None:
    """The player left one token short while the Trade master has one too many (the unequal exchange)."""
    if not ex.over or ex.given is not None or _balance(ex, ex.master) <= 0:
        return None
    short = [s for s in ex.offers if _balance(ex, s) < 0]
    return short[0] if len(short) == 1 else None


def _balance(ex: Exchange, seat: str) -> int:
    """Tokens taken minus tokens taken from it."""
    return len(ex.taken[seat]) - (len(ex.offered[seat]) - len(ex.offers[seat]))


def give(ex: Exchange, token: str, master_screen: Screen) -> Exchange:
    """The unequal exchange: the Trade master takes all he took behind his screen and gives one token of his
    choice, face up, to the player left short."""
    short = wronged(ex)
    if short is None:
        raise Rejection("nobody is owed a token: the exchange is even")
    if token_list(master_screen)[token] + ex.taken[ex.master].count(token) < 1:
        raise Rejection(f"{ex.master} has no '{token}' to give to {short}", hidden_of=ex.master)
    ex.given = (ex.master, short, token)
    return ex


def results(ex: Exchange) -> dict[str, Counter[str]]:
    """Each player's change of tokens once the exchange is over: what it took, minus what was taken from it (what
    stayed on its board goes back behind its screen), with the unequal exchange's token moved."""
    if not ex.over:
        raise Rejection(f"the exchange is not over: {ex.chain.next} picks next")
    if wronged(ex) is not None:
        raise Rejection(f"{ex.master} has one token too many and owes {wronged(ex)} one: give it first")
    out: dict[str, Counter[str]] = {}
    for seat in ex.offers:
        change: Counter[str] = Counter(ex.taken[seat])
        change.subtract(_lost(ex, seat))
        out[seat] = change
    if ex.given is not None:
        master, short, token = ex.given
        out[master][token] -= 1
        out[short][token] += 1
    return out


def _lost(ex: Exchange, seat: str) -> Counter[str]:
    return Counter(ex.offered[seat]) - Counter(ex.offers[seat])
