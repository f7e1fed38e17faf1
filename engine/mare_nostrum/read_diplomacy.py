"""Reading the orders of diplomacy and politics: a peace treaty, an alliance with an invader force, a grain
distribution."""
from __future__ import annotations

from collections.abc import Sequence

from engine.mare_nostrum.order_slots import Clauses, Vocabulary, finish, require, resolve, show, strip_words
from engine.mare_nostrum.order_words import Line, Reject, Tok, classify
from engine.mare_nostrum.orders import Alliance, GrainDistribution, Order, PeaceTreaty

_TREATY = frozenset({"treaty", "agreement", "deal", "pact", "offer", "proposal", "talks"})
_ALLIANCE = frozenset({"alliance", "ally"})
_GRAIN = frozenset({"grain", "corn", "bread", "wheat"})
_DISTRIBUTION = frozenset({"distribution", "distributions", "dole", "handout", "distribute"})
_PEOPLE = frozenset({"people", "plebs", "plebeians", "citizens", "poor", "populace", "masses", "mob"})


def read_peace(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    clauses = Clauses(strip_words(list(rest), _TREATY) or [])
    nation = clauses.take_lead() or clauses.take("with", "to")
    template = f"peace treaty with {show(line, nation, vocab.nations, vocab)}"
    require(line, [] if nation else ["with which nation"], template)
    finish(line, clauses, template)
    return PeaceTreaty(resolve(line, nation, vocab.nations, vocab))


def read_offer(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order | None:
    """ "offer peace to the Gauls", "propose an alliance to the Samnites against Apulia"; else just talk."""
    if not rest:
        return None
    if rest[0].word == "peace" or rest[0].word in _TREATY - {"offer"}:
        return read_peace(line, strip_words(list(rest), _TREATY | {"peace"}) or [], vocab)
    if rest[0].word in _ALLIANCE:
        return read_ally(line, rest[1:], vocab)
    return None


def read_ally(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    clauses = Clauses(strip_words(list(rest), _TREATY) or [], extra={"attack": "against"})
    invader = clauses.take_lead() or clauses.take("with", "to")
    province = clauses.take("against", "on", "into", "in")
    template = (f"ally with {show(line, invader, vocab.invaders, vocab)} "
                f"against {show(line, province, vocab.provinces, vocab)}")
    missing = [] if invader else ["with which invader force"]
    missing += [] if province else ["which province the allied army attacks"]
    require(line, missing, template)
    finish(line, clauses, template)
    return Alliance(resolve(line, invader, vocab.invaders, vocab), resolve(line, province, vocab.provinces, vocab))


def read_grain(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    """ "grain distribution", "distribute grain", "distribution of grain to the people"."""
    words = [t.word for t in rest]
    head = classify(line.toks[0].word)
    if head is None or head.keyword != "grain":
        if words[:1] == ["of"]:
            words = words[1:]
        if not words or words[0] not in _GRAIN:
            raise Reject(f"'{line.quote}': you can distribute grain (write: grain distribution)")
        words = words[1:]
    elif words and words[0] in _DISTRIBUTION:
        words = words[1:]
    if words and words[0] in ("to", "for", "among") and all(w in _PEOPLE for w in words[1:]):
        words = []
    if words:
        raise Reject(f"'{line.quote}': grain distribution takes no province or target (write: grain distribution)")
    return GrainDistribution()
