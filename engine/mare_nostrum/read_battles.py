"""Reading the orders that fight: a land attack, a naval battle (against a nation's fleet or the pirates), an
amphibious attack."""
from __future__ import annotations

from collections.abc import Sequence

from engine.mare_nostrum.order_slots import Clauses, Vocabulary, finish, require, resolve, show, strip_words
from engine.mare_nostrum.order_words import Line, Tok, is_near
from engine.mare_nostrum.orders import Amphibious, Attack, NavalBattle, Order
from engine.mare_nostrum.read_builds import FLEET

PIRATES = "Pirates"
_ARMY = frozenset({"army", "armies", "legion", "legions", "troops", "forces", "force", "men", "soldiers", "host"})
_BATTLE = frozenset(
    {"battle", "attack", "assault", "engagement", "combat", "fight", "landing", "invasion", "operation", "strike",
     "raid"}
)
_PIRATE_WORDS = frozenset({"pirates", "pirate", "corsairs", "corsair"})


def read_land(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order | None:
    """ "land battle against Apulia from Campania"; "land" alone is just a word."""
    if not rest or rest[0].word not in _BATTLE:
        return None
    return read_attack(line, rest[1:], vocab)


def read_attack(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    clauses = Clauses(rest)
    target = clauses.take_lead() or clauses.take("on", "against", "into", "at", "to")
    base = _base_with_army(line, clauses)
    if target is None and base is not None:
        target = clauses.take("in")
    sea = clauses.take("through")
    if sea is not None:
        return _amphibious(line, clauses, target, base, sea, vocab)
    if base is None and target is not None and _names_fleet(target, vocab) and any(
        role == "in" and words for role, _marker, words in clauses.rest
    ):
        return _naval_from_attack(line, clauses, target, vocab)
    template = f"attack {show(line, target, vocab.provinces, vocab)} from {show(line, base, vocab.provinces, vocab)}"
    missing = [] if target else ["which province you attack"]
    missing += [] if base else ["where you attack from"]
    require(line, missing, template)
    finish(line, clauses, template)
    return Attack(resolve(line, target, vocab.provinces, vocab), resolve(line, base, vocab.provinces, vocab))


def _base_with_army(line: Line, clauses: Clauses) -> list[Tok] | None:
    """The base named by the army that attacks: "with the army from Campania", "with the army of Campania"."""
    # "with the army" adds nothing to "from Campania".
    clauses.rest = [c for c in clauses.rest if not (c[0] == "with" and c[2] and all(t.word in _ARMY for t in c[2]))]
    base = clauses.take("from")
    if base is not None:
        return base
    for i, (role, _marker, words) in enumerate(clauses.rest):
        if role == "with" and words and words[0].word in _ARMY:
            base = [t for t in words[1:] if t.word != "of"]
            if base:
                del clauses.rest[i]
                return base
    return None


def _names_fleet(target: list[Tok], vocab: Vocabulary) -> bool:
    """Whether the attacked thing is a fleet (a nation's, or the pirates') rather than a province."""
    if target[-1].word in FLEET or _is_pirates(target):
        return True
    text = " ".join(t.word for t in target)
    return vocab.nations.exact(text) is not None and vocab.provinces.exact(text) is None


def _naval_from_attack(line: Line, clauses: Clauses, enemy: list[Tok], vocab: Vocabulary) -> Order:
    """ "attack the Roman fleet in the Adriatic" is a naval battle."""
    sea = clauses.take("in")
    return _naval(line, clauses, enemy, sea, vocab)


def read_naval(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    rest = list(rest)
    if rest and (rest[0].word in _BATTLE or is_near(rest[0].word, _BATTLE)):
        rest = rest[1:]
    clauses = Clauses(rest)
    enemy = clauses.take_lead() or clauses.take("against", "on", "with", "to")
    sea = clauses.take("in", "at")
    return _naval(line, clauses, enemy, sea, vocab)


def read_sea(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order | None:
    """ "sea battle against the Romans in the Adriatic"; "sea" alone is just a word."""
    if not rest or rest[0].word not in _BATTLE:
        return None
    return read_naval(line, rest, vocab)


def _naval(line: Line, clauses: Clauses, enemy: list[Tok] | None, sea: list[Tok] | None,
           vocab: Vocabulary) -> Order:
    enemy = strip_words(enemy, FLEET, front=False)
    shown_enemy = _show_enemy(line, enemy, vocab)
    template = f"naval battle against {shown_enemy} in {show(line, sea, vocab.seas, vocab)}"
    missing = [] if enemy else ["against whom"]
    missing += [] if sea else ["in which sea"]
    require(line, missing, template)
    finish(line, clauses, template)
    return NavalBattle(_resolve_enemy(line, enemy, vocab), resolve(line, sea, vocab.seas, vocab))


def _is_pirates(toks: Sequence[Tok]) -> bool:
    return bool(toks) and all(t.word in _PIRATE_WORDS for t in toks)


def _show_enemy(line: Line, enemy: list[Tok] | None, vocab: Vocabulary) -> str:
    if enemy and _is_pirates(enemy):
        return PIRATES
    return show(line, enemy, vocab.nations, vocab, "<nation or pirates>")


def _resolve_enemy(line: Line, enemy: Sequence[Tok] | None, vocab: Vocabulary) -> str:
    return PIRATES if enemy and _is_pirates(enemy) else resolve(line, enemy, vocab.nations, vocab)


def read_amphibious(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    rest = list(rest)
    if rest and (rest[0].word in _BATTLE or is_near(rest[0].word, _BATTLE)):
        rest = rest[1:]
    clauses = Clauses(rest)
    target = clauses.take_lead() or clauses.take("on", "against", "into", "at", "to")
    base = clauses.take("from")
    sea = clauses.take("through")
    return _amphibious(line, clauses, target, base, sea, vocab)


def _amphibious(line: Line, clauses: Clauses, target: list[Tok] | None, base: list[Tok] | None,
                sea: list[Tok] | None, vocab: Vocabulary) -> Order:
    # "in" names whichever of the landing and the sea is still missing: "landing in Apulia ... via the
    # Adriatic" or "attack on Apulia ... in the Adriatic".
    if target is None:
        target = clauses.take("in")
    elif sea is None:
        sea = clauses.take("in")
    template = (f"amphibious attack on {show(line, target, vocab.provinces, vocab)} "
                f"from {show(line, base, vocab.provinces, vocab)} through {show(line, sea, vocab.seas, vocab)}")
    missing = [] if target else ["which province you attack"]
    missing += [] if base else ["where you attack from"]
    missing += [] if sea else ["through which sea"]
    require(line, missing, template)
    finish(line, clauses, template)
    return Amphibious(
        resolve(line, target, vocab.provinces, vocab),
        resolve(line, base, vocab.provinces, vocab),
        resolve(line, sea, vocab.seas, vocab),
    )
