"""Setting up and staffing a campaign: /campaign create (Discord only), assign, settings, reveal."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.service.shell_commands.model import Command, CommandError, DiscordFace, Option, ShellCommand, done, quoted
from engine.chance import registry as chance_sources
from engine.events import Rejection
from engine.ruleset import Argument, CommandSpec
from engine.rulesets import DEFAULT as DEFAULT_RULESET

if TYPE_CHECKING:
    from bot.service.post_reading import PostReading, _Posting
    from bot.service.replies import LineAnswer

# The sources a new campaign's rolls may be bound to, as /campaign create offers them.
# The sources a campaign may choose, as the registry lists them (engine/chance/registry.py).
RANDOMNESS = tuple(chance_sources.offered_names())
SETTINGS = ("player_hours", "remind_hours_before", "on_timeout", "timezone")


def _assign(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    args = command.args
    if len(args) != 2:
        raise CommandError(f"usage: {command.usage}")
    seat = reading._resolve(posting, "seat", args[0])  # the boundary's vocabulary of seats, whatever a game calls them
    # The payload keeps the key "nation": every log since the first holds it, and each game reads it (a game may
    # read "seat" too); the shell's word for it is "seat" everywhere else.
    return done(line_no, command, f"{args[1]} plays the {seat}",
                reading._append(posting, "player.assigned", {"nation": seat, "player": args[1]}, posting.gm_actor))


def _settings(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    """Deadlines and timeouts of the campaign: shown to anyone, changed by the GM (the check is here, not in the
    dispatch, since only a change needs it)."""
    from bot.store.schedule_tables import save_settings, settings_for

    assert posting.campaign.id is not None
    changes: dict[str, Any] = {}
    for arg in command.args:
        key, sep, value = arg.partition("=")
        if not sep:
            raise CommandError(f"'{arg}': write key=value; {command.usage}")
        if key in ("player_hours", "remind_hours_before"):
            from bot.service.deadlines import parse_hours

            try:  # finite, and within a year: inf or 1e308 would overflow every deadline made from it
                changes[key] = parse_hours(value, key, minimum=0, inclusive=key == "remind_hours_before")
            except ValueError as exc:
                raise CommandError(f"{exc}; {command.usage}") from None
        else:
            changes[key] = value
    if changes:
        reading._require_gm(posting, command)
        try:  # in the post's own transaction (it holds the write lock): saved with the post, or not at all
            save_settings(reading.engine, posting.campaign.id, session=posting.session, **changes)
        except (ValueError, LookupError) as exc:
            raise CommandError(f"{exc}; {command.usage}") from None
    current = settings_for(posting.session, posting.campaign.id)
    shown = (f"time zone {current.timezone}, {current.player_hours:g}h per player, reminder "
             f"{current.remind_hours_before:g}h before, on timeout: {current.on_timeout}")
    return done(line_no, command, ("settings saved: " if changes else "settings: ") + shown)


def _reveal(reading: PostReading, posting: _Posting, line_no: int, command: Command) -> LineAnswer:
    """Publish the campaign's commit-reveal seed in the log (seed.revealed); the engine checks it against the
    commitment and binds no roll to it any more."""
    from bot.store import campaign_secret

    assert posting.campaign.id is not None
    row = posting.session.get(campaign_secret.CampaignSecretRow, posting.campaign.id)
    if row is None:
        source = chance_sources.get(reading._randomness(posting))
        words = source.values_words if source is not None else "public values"
        raise Rejection(f"this campaign's rolls come from {words}: it has no seed to reveal")
    seed = campaign_secret.seed_of(posting.session, posting.campaign.id)
    if seed is None:
        raise Rejection("the seed is made from the server key, which is not set here "
                        f"({campaign_secret.KEY_ENV} or {campaign_secret.KEY_FILE_ENV}): nothing revealed")
    messages = reading._append(posting, "seed.revealed", {"seed": seed}, posting.gm_actor)
    row.revealed_at = reading.clock.now()
    posting.session.add(row)
    return done(line_no, command, "reveal the commit-reveal seed", messages)


def _settings_line(values: Mapping[str, Any]) -> str:
    text = " ".join(f"{k}={values[k]}" for k in SETTINGS if values[k] is not None)
    return f"/campaign settings {text}".strip()


COMMANDS = (
    ShellCommand(
        CommandSpec("campaign create", "Start a campaign in this channel or forum",
                    (Argument("name"), Argument("gm_role", "role"), Argument("ruleset", "ruleset", optional=True))),
        discord=DiscordFace(
            "campaign create", "Start a campaign in this channel or forum",
            (Option("name", description="A name for the campaign"),
             Option("gm_role", "role", "Members of this role run the campaign"),
             Option("ruleset", "ruleset", f"The game (default: {DEFAULT_RULESET})", optional=True),
             Option("clock", "choice", "live: rolls bind to future draws (real campaigns)", optional=True,
                    choices=(("live", "live"), ("historical", "historical"))),
             Option("randomness", "choice", "Rolls beyond order of play and events: lottery, or a seed revealed at "
                    "the end", optional=True, choices=tuple((r, r) for r in RANDOMNESS)),
             Option("options", description="The game's campaign options (optional rules, a scenario), separated by "
                    "commas", optional=True)),
            action="campaign create"),
    ),
    ShellCommand(
        CommandSpec("campaign assign", "Give a seat (a nation, a side) to a player, or substitute one",
                    (Argument("seat", "seat"), Argument("player")), gm_only=True),
        _assign, "/campaign assign <seat> <player>",
        DiscordFace("campaign assign", "Give a seat (a nation, a side) to a player, or substitute one",
                    (Option("seat", "seat"), Option("player", "member")),
                    line=lambda v: f"/campaign assign {quoted(str(v['seat']))} {v['player']}"),
    ),
    ShellCommand(
        CommandSpec("campaign settings", "Deadlines: hours per player, reminder, timeout rule, time zone",
                    tuple(Argument(k, optional=True) for k in SETTINGS)),
        _settings,
        "/campaign settings [timezone=Europe/Rome] [player_hours=48] [remind_hours_before=12] [on_timeout=pass|wait]",
        DiscordFace("campaign settings", "Deadlines: hours per player, reminder, timeout rule, time zone",
                    (Option("player_hours", "number", optional=True),
                     Option("remind_hours_before", "number", optional=True),
                     Option("on_timeout", "choice", optional=True,
                            choices=(("the player passes", "pass"), ("wait for the GM", "wait"))),
                     Option("timezone", optional=True)),
                    line=_settings_line),
    ),
    ShellCommand(
        CommandSpec("campaign reveal", "GM: publish the commit-reveal seed (no roll can be made after it)",
                    gm_only=True),
        _reveal, discord=DiscordFace("campaign reveal",
                                     "GM: publish the commit-reveal seed (no roll can be made after it)"),
    ),
)
