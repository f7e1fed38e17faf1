"""Every waiting step of Mare Nostrum: Empires moves on by its deadline: a 3-player game through the service where
nobody answers (but for three picks that leave the Trade master owing a token) and each prompt's time runs out,
the scheduler posting what ``timeout_line`` gives (the prompt's default, by the GM for the seat), as
bot/schedule/scheduler/deadline_jobs.py does at the deadline. The readings are engine/mare_nostrum_empires/defaults.py."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.schedule.scheduler import timeout_line
from tests.games.mare_nostrum_empires_players import PLAYERS, ok, private, say, table

# Round 1's picks played by hand: the Carthaginians take from the Romans, the Romans back, the Carthaginians from
# the Greeks; the Greeks, left one short with nobody to take from, are owed a token (the unequal exchange).
BY_HAND = ["cat> take tax from Romans", "ann> take tax from Carthaginians", "cat> take tax from Greeks"]


def test_a_game_left_to_its_deadlines_plays_every_step_by_its_default(tmp_path: Path) -> None:
    with table(tmp_path / "mne.db") as t:
        service = t.service
        assert service.create_campaign("mne", "mare-nostrum-empires", "gm", PLAYERS).changed
        posted: list[str] = []
        answers: list[str] = []
        by_hand = list(BY_HAND)
        while len(posted) < 100:
            ruleset, state = service.folded("mne")
            if state.round == 3:
                break
            prompts = ruleset.prompts(state)
            if not prompts:  # a roll waits for its beacon
                t.clock.advance(timedelta(seconds=30))
                say(t.console, "ann> /status")
                continue
            if prompts[0].what.startswith("take") and by_hand:
                ok(t.console, by_hand.pop(0))
                continue
            line = timeout_line(service, "mne", prompts[0].seat)
            assert line is not None, f"the {prompts[0].seat} wait for the GM: {prompts[0]}"
            reply = service.post("gm", line, "mne")
            assert reply.ok, reply.render()
            posted.append(line.removeprefix("/order "))
            answers.append(reply.render())
            if line.endswith("offer default"):  # sealed: its tokens reach the seat's private view alone
                assert "offer default" not in service.export()
        turns = ['"Greeks" next Romans', '"Romans" done', '"Greeks" next Greeks', '"Greeks" done',
                 '"Greeks" next Carthaginians', '"Carthaginians" done',
                 '"Romans" next Romans', '"Romans" done', '"Romans" next Greeks', '"Greeks" done',
                 '"Romans" next Carthaginians', '"Carthaginians" done']
        claims = ['"Carthaginians" name Carthaginians commerce', '"Greeks" name Greeks politics',
                  '"Romans" name Romans military']
        offers = ['"Romans" offer default', '"Greeks" offer default', '"Carthaginians" offer default']
        assert posted == [
            '"Carthaginians" token I 1', *offers, '"Carthaginians" give tax', *turns, *claims,
            '"Carthaginians" token II 2', *offers,
            '"Carthaginians" take tax from Romans', '"Romans" take tax from Greeks', '"Greeks" take tax from Romans',
            '"Romans" take tax from Carthaginians', '"Carthaginians" take tax from Greeks',
            '"Greeks" take tax from Carthaginians', *turns, *claims]
        assert private(t.console, "ann")["offer"] is None
        ruleset, state = service.folded("mne")
        assert (state.round, state.phase) == (3, "commerce")
        gave = answers[posted.index('"Carthaginians" give tax')]
        assert "The Carthaginians give tax to the Greeks: the exchange is even." in gave, gave
