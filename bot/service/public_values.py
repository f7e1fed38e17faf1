"""Public values a campaign waits for, recorded by the service: which future ones an event may bind rolls to, and
recording those now at hand (stored lottery draws, commit-reveal numbers, verified drand beacons, sealed contents
now due). ``Legatus`` takes these methods from ``PublicValues``; the engine decides what is needed
(``ruleset.needs``), this module only fetches and appends it.
"""
from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, timedelta
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.schedule.clock import draw_moment, scheduled_draws_after
from bot.service.hidden_refusals import public_reason
from engine import commit_reveal
from engine.chance import registry as chance_sources
from engine.chance.sources import commit_reveal as commit_reveal_source
from engine.chance.sources import drand as drand_source
from engine.chance.sources import lottery as lottery_source
from engine.events import Event, Rejection
from engine.log import step
from engine.lotto import missing_wheels
from engine.ruleset import NEED_REVEAL, NEED_SEAL, Need
from engine.secrets import REVEALED, SEALED
from engine.secrets import digest as seal_digest

if TYPE_CHECKING:
    from bot.service.post_reading import _Posting

BOT = "legatus"  # who the bot's own events are recorded as
# How many coming draws each event offers for binding rolls: enough slots for a long turn of GM rolls.
OFFERED_DRAWS = 12
# A drand roll binds to a round at least this far ahead: its binding is answered and stored before the round exists.
DRAND_MARGIN_SECONDS = 10.0


class PublicValues:
    """Mixed into ``Legatus``, whose ``clock``, ``beacons`` and ``_event`` these methods use."""

    clock: Any
    beacons: Any
    _draws: dict[str, tuple[Any, str]]  # complete stored draws by day, committed: see ``_complete_draw``
    salt: Any
    # PostReading's: the event of ``kind`` a post makes, stamped with the public values it may bind rolls to.
    _event: Callable[[_Posting, str, dict[str, Any], str], Event]

    def _offered_draws(self, posting: _Posting) -> list[str]:
        """The future public values an event may bind rolls to: coming lottery draws after the one the game stands
        at (``Summary.draw``), and, for a drand campaign, the first round safely in the future."""
        offered: list[str] = []
        created = posting.folded.effective[0].data if posting.folded.effective else {}
        source = chance_sources.get(self._randomness(posting))
        if source is not None and source.rounds_offered(created):
            from engine.chance.drand import bind_round
            from engine.chance.pinned_chain import campaign_chain

            # The pinned chain's round times, not those the log names: an edited genesis would bind past rounds.
            chain = campaign_chain(created).chain
            offered.append(f"{drand_source.PREFIX}{bind_round(self.clock.now().timestamp(), chain, margin=DRAND_MARGIN_SECONDS)}")
        floor = posting.summary().draw
        if not floor:
            if source is None or not source.lottery:
                return offered
            # A game with no draw of its own yet (only its dice use the lottery): live, the draws to come; on a
            # historical clock, the stored draws from the first one on.
            first = posting.store.first_draw_day_on_or_after(date.min)
            floor = (first - timedelta(days=1)).isoformat() if first is not None and posting.campaign.clock != "live" \
                else date.min.isoformat()
        if posting.campaign.clock == "live":
            moment = self.clock.now()
            return offered + [d.isoformat() for d in scheduled_draws_after(moment, OFFERED_DRAWS) if d.isoformat() > floor]
        # Read once per transaction and floor: every event of the posts applied together offers the same dates.
        known = posting.batch.draw_dates.get(floor)
        if known is None:
            known = posting.batch.draw_dates[floor] = posting.store.draw_dates_after(
                date.fromisoformat(floor), OFFERED_DRAWS)
        stored = list(known)
        if len(stored) < OFFERED_DRAWS:
            # Past the end of the stored draws, a roll waits for the next draws by the schedule.
            last = stored[-1] if stored else date.fromisoformat(floor)
            stored += scheduled_draws_after(draw_moment(last), OFFERED_DRAWS - len(stored))
        return offered + [d.isoformat() for d in stored]

    def _randomness(self, posting: _Posting) -> str:
        first = posting.folded.effective[0] if posting.folded.effective else None
        return str(first.data.get("randomness") or chance_sources.DEFAULT) if first is not None else chance_sources.DEFAULT

    def _record_draws(self, posting: _Posting) -> list[str]:
        """Record the public values the game waits for (``ruleset.needs``): stored lottery draws, commit-reveal
        numbers, drand beacons already produced, sealed contents now due; until it waits for nothing it can be
        given (a value may bind another roll, e.g. a GM die rolled again)."""
        messages: list[str] = []
        while True:
            before = len(posting.new_events)
            messages += self._record_lottery(posting)
            messages += self._record_random(posting)
            messages += self._record_beacons(posting)
            messages += self._reveal_secrets(posting)
            messages += self._seal_secrets(posting)
            if len(posting.new_events) == before:
                return messages

    def _record_fact(self, posting: _Posting, kind: str, data: dict[str, Any],
                     secret: dict[str, Any] | None = None) -> tuple[str, ...] | Rejection:
        """Apply a public value the bot records (a draw, a beacon, seed numbers, a reveal, a seal of its own): its
        announcements, or the game's refusal, which the caller turns into a word for the GM (a fact refused never
        stops the post). ``secret``: the sealed content ({"content", "salt"}) the private store keeps."""
        event = self._event(posting, kind, data, BOT)
        if secret is not None:
            event = replace(event, secret=secret)
        try:
            posting.folded, new = step(posting.ruleset, posting.folded, event)
        except Rejection as exc:
            return exc
        posting.new_events.append(event)
        return new

    def _needs(self, posting: _Posting, source: str) -> list[Need]:
        return [n for n in posting.ruleset.needs(posting.folded.state) if n.source == source]

    def _record_random(self, posting: _Posting) -> list[str]:
        """Derive each pending commit-reveal label's values from the campaign's seed, in one random.recorded event."""
        needs = self._needs(posting, commit_reveal_source.NAME)
        if not needs:
            return []
        created = posting.folded.effective[0].data if posting.folded.effective else {}
        if commit_reveal.rule_of(created) != commit_reveal.RULE_SEED:
            return self._record_round_numbers(posting, needs)
        assert posting.campaign.id is not None
        seed = posting.store.seed_of(posting.campaign.id)
        if seed is None:
            from bot.store.campaign_secret import KEY_ENV

            return [f"{len(needs)} commit-reveal roll(s) wait for a number, but the campaign's seed cannot be made "
                    f"here (no seed stored, or no server key: {KEY_ENV}). The GM must look into it."]
        key = commit_reveal.key(seed)
        numbers: dict[str, Any] = {}
        for need in needs:
            # A label mixed with a drand round is asked for only once that round is recorded (need.mix).
            mixed = commit_reveal.mixed_key(key, need.mix) if need.mix else key
            values = commit_reveal.uniform(mixed, need.key, need.count, need.lo, need.hi)
            numbers[need.key] = values[0] if need.count == 1 else values
        new = self._record_fact(posting, "random.recorded", {"numbers": numbers})
        if isinstance(new, Rejection):
            return [f"The commit-reveal numbers could not be recorded: {public_reason(new)}. The GM must look into it."]
        shown = ", ".join(f"{label} = {n}" for label, n in numbers.items())
        return [f"Commit-reveal number{'s' if len(numbers) > 1 else ''} drawn from the seed: {shown}.", *new]

    def _record_round_numbers(self, posting: _Posting, needs: list[Need]) -> list[str]:
        """Rule 2: each label's values from its round's randomness alone (asked for only once it is recorded), so
        the seed is not needed and the game checks every value as it takes it."""
        numbers: dict[str, Any] = {}
        for need in needs:
            values = commit_reveal.round_values(need.key, need.count, need.lo, need.hi, need.mix)
            numbers[need.key] = values[0] if need.count == 1 else values
        new = self._record_fact(posting, "random.recorded", {"numbers": numbers})
        if isinstance(new, Rejection):
            return [f"The numbers of the drand rounds could not be recorded: {new.reason}. The GM must look into it."]
        shown = ", ".join(f"{label} = {n}" for label, n in numbers.items())
        return [f"Number{'s' if len(numbers) > 1 else ''} drawn from {'their' if len(numbers) > 1 else 'its'} drand "
                f"round: {shown}.", *new]

    def _record_beacons(self, posting: _Posting) -> list[str]:
        """Record each drand round the game waits for whose beacon is at hand (fetched and verified by
        ``beacons``); a round not produced yet waits for the scheduler's fetch."""
        messages: list[str] = []
        needs = self._needs(posting, drand_source.NAME)
        if not needs:
            return messages
        from engine.chance.pinned_chain import campaign_chain

        source = self._beacon_source()
        pinned = campaign_chain(posting.folded.effective[0].data)
        refused = source.refusal(pinned)
        if refused:
            return [refused]
        for need in needs:
            beacon = source(int(need.key), pinned)
            if beacon is None:
                continue
            data = {"round": beacon.round, "signature": beacon.signature, "randomness": beacon.randomness}
            new = self._record_fact(posting, "beacon.recorded", data)
            if isinstance(new, Rejection):
                messages.append(f"The drand beacon of round {need.key} could not be used: {public_reason(new)}.")
                continue
            messages.append(f"drand round {beacon.round} recorded (randomness {beacon.randomness[:16]}…).")
            messages.extend(new)
        return messages

    def _beacon_source(self) -> Any:
        if self.beacons is None:
            from bot.drand.beacons import from_env

            self.beacons = from_env()
        return self.beacons

    def _reveal_secrets(self, posting: _Posting) -> list[str]:
        """Publish each sealed content the game says is due, from the private store, in a secret.revealed event."""
        messages: list[str] = []
        assert posting.campaign.id is not None
        for need in self._needs(posting, NEED_REVEAL):
            # Sealed earlier (the private store), or by this very post (not written yet).
            kept = posting.store.sealed(posting.campaign.id, int(need.key)) or next(
                (e.secret for e in posting.new_events if e.seq == int(need.key) and e.secret), None)
            if kept is None:
                messages.append(f"the sealed content of event #{need.key} is due but this database does not hold it. The GM must look into it.")
                continue
            data = {"seq": int(need.key), "content": kept["content"], "salt": kept["salt"]}
            new = self._record_fact(posting, REVEALED, data)
            if isinstance(new, Rejection):
                messages.append(f"The sealed content of event #{need.key} could not be revealed: {public_reason(new)}.")
                continue
            messages.extend(new)
        return messages

    def _complete_draw(self, posting: _Posting, day: str) -> tuple[Any, str] | None:
        """The stored draw of ``day`` with its source, if it has every wheel. A complete draw never changes (an
        import keeps the stored numbers, no wheel can be added), so it is kept for the process's life, once
        committed (``_Batch.found_draws``: a draw typed by a GM in a post that is then rolled back is not);
        a missing or incomplete one is read again by the next transaction."""
        known = self._draws.get(day) or posting.batch.found_draws.get(day)
        if known is not None:
            return known
        if day in posting.batch.no_draw:
            return None
        draw = posting.store.draw(date.fromisoformat(day))
        if draw is None or missing_wheels(draw):
            posting.batch.no_draw.add(day)
            return None
        found = posting.batch.found_draws[day] = (draw, posting.store.draw_source(draw.date))
        return found

    def _seal_secrets(self, posting: _Posting) -> list[str]:
        """Seal each content of the bot's own the game says is due (a stratagem marker drawn): the public log gets a
        ``secret.sealed`` event with its digest and public part, the private store its content and a fresh salt."""
        messages: list[str] = []
        for need in self._needs(posting, NEED_SEAL):
            spec = json.loads(need.content)
            content = spec["content"]
            salt = self.salt()
            data = {"key": need.key, **spec.get("public", {}), "sealed": seal_digest(content, salt)}
            new = self._record_fact(posting, SEALED, data, {"content": content, "salt": salt})
            if isinstance(new, Rejection):
                messages.append(f"The bot could not seal '{need.key}': {public_reason(new)}. The GM must look into it.")
                continue
            messages.extend(new)
        return messages

    def _record_lottery(self, posting: _Posting) -> list[str]:
        messages: list[str] = []
        recorded: set[str] = set()
        while True:
            pending = [n.key for n in self._needs(posting, lottery_source.NAME) if n.key not in recorded]
            if not pending:
                return messages
            day = pending[0]
            recorded.add(day)
            found = self._complete_draw(posting, day)
            if found is None:
                continue
            draw, source = found
            # The source goes into the log too: verify lists every GM-typed, imported or single-source draw.
            data = {**draw.to_dict(), "source": source}
            new = self._record_fact(posting, "draw.recorded", data)
            if isinstance(new, Rejection):
                messages.append(f"The draw of {day} could not be used: {public_reason(new)}. The GM must look into it.")
                continue
            messages.append(f"Lottery draw of {day} recorded.")
            messages.extend(new)
