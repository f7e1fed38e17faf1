"""The fake refuses the components Discord refuses (bot/devdiscord/components.py), with Discord's 50035 and the
field it points at; what Discord accepts still goes through."""
from __future__ import annotations

from typing import Any

import pytest

from tests.bot.devdiscord.test_strictness import fake_and_bot, run


def _button(custom_id: str, label: str = "go") -> dict[str, Any]:
    return {"type": 2, "style": 2, "custom_id": custom_id, "label": label}


def _row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


SELECT = {"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]}
CASES = {
    "six rows": ([_row(_button(f"b{i}")) for i in range(6)], ["components"], "BASE_TYPE_MAX_LENGTH"),
    "six buttons in a row": ([_row(*(_button(f"b{i}") for i in range(6)))], ["components", "0", "components"],
                             "BASE_TYPE_MAX_LENGTH"),
    "custom_id of 101": ([_row(_button("x" * 101))], ["components", "0", "components", "0", "custom_id"],
                         "BASE_TYPE_MAX_LENGTH"),
    "label of 81": ([_row(_button("b", "y" * 81))], ["components", "0", "components", "0", "label"],
                    "BASE_TYPE_MAX_LENGTH"),
    "duplicate custom_ids": ([_row(_button("same")), _row(_button("same"))],
                             ["components", "1", "components", "0", "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED"),
    "a button outside a row": ([_button("alone")], ["components", "0", "type"], "UNION_TYPE_CHOICES"),
    "a select beside a button": ([_row(SELECT, _button("b"))], ["components", "0", "components"],
                                 "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
}


def _code(errors: dict[str, Any], path: list[str]) -> str:
    for key in path:
        errors = errors[key]
    return str(errors["_errors"][0]["code"])


@pytest.mark.parametrize("case", list(CASES))
def test_components_discord_refuses_are_refused(case: str) -> None:
    components, path, code = CASES[case]

    async def scenario() -> None:
        async with fake_and_bot(host="127.0.0.1", port=0) as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            status, body, _ = await bot.post(channel, {"content": "buttons", "components": components})
            assert (status, body["code"], _code(body["errors"], path)) == (400, 50035, code), body
            assert fake.world.channel_messages(channel) == []

    run(scenario)


def test_the_most_discord_accepts_goes_through() -> None:
    async def scenario() -> None:
        async with fake_and_bot(host="127.0.0.1", port=0) as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            rows = [_row(*(_button(f"b{r}-{i}" + "x" * 90, "y" * 80) for i in range(5))) for r in range(4)]
            rows.append(_row(SELECT))
            link = {"type": 2, "style": 5, "url": "https://example.org", "label": "read"}  # no custom_id: a link
            rows[0]["components"][4] = link
            status, body, _ = await bot.post(channel, {"content": "buttons", "components": rows})
            assert status == 200, body
            assert len(fake.world.channel_messages(channel)) == 1

    run(scenario)


@pytest.mark.parametrize("name, status", [("n" * 100, 204), ("n" * 101, 400), ("", 400)], ids=["100", "101", "empty"])
def test_autocomplete_choice_names_are_1_to_100_characters(name: str, status: int) -> None:
    from bot.devdiscord.protocol import INTERACTION_AUTOCOMPLETE

    async def scenario() -> None:
        async with fake_and_bot(host="127.0.0.1", port=0) as (fake, dev, bot):
            record = await fake.server.create_interaction(
                INTERACTION_AUTOCOMPLETE, guild_id=dev.guild.id, channel_id=dev.channels["mare-nostrum"].id,
                user_id=dev.users["alice"].id, data={"name": "ping", "options": []}, command_name="ping")
            answer = {"type": 8, "data": {"choices": [{"name": name, "value": "v"}]}}
            got, body, _ = await bot.call("POST", f"/interactions/{record.id}/{record.token}/callback", answer)
            assert got == status, body
            if status == 400:
                assert (body["code"], _code(body["errors"], ["data", "choices", "0", "name"])) == (
                    50035, "BASE_TYPE_BAD_LENGTH")
                assert record.choices is None

    run(scenario)
