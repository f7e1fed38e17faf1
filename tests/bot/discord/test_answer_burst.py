"""Answers to a burst of posts in one channel share messages (bot/discord/outbox.py): Discord's limit of 5 messages
per 5 s per channel would otherwise hold the sixth answer 5 s. A lone post is still answered by a reply to it."""
from __future__ import annotations

import asyncio
from pathlib import Path

from bot.discord.outbox import pack
from tests.bot.discord.test_discord_bot import SEATS, Table, run, set_up_campaign, table

POSTS = "/channels/{channel_id}/messages"


def test_a_burst_in_one_channel_is_answered_in_fewer_messages_every_answer_attributed(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        channel = t.fake.channel("mare-nostrum")
        before = {m["id"] for m in t.fake.messages_in("mare-nostrum")}
        # The first answer waits on a rate limit, as it would under Discord's: the others become ready meanwhile.
        t.fake.rate_limit_next("POST", f"/channels/{channel.id}/messages", retry_after=0.5)
        sent = await asyncio.gather(*(t.fake.user_says("mare-nostrum", user, "pass") for user in SEATS.values()))
        ids = {post["id"]: post for post in sent}

        def answered() -> list[dict] | None:
            mine = [m for m in t.fake.messages_in("mare-nostrum") if m["id"] not in before
                    and m["author"]["id"] == str(t.fake.bot_user.id)]
            text = "\n".join(m["content"] for m in mine)
            return mine if all(post_id in text or any(m.get("message_reference", {}).get("message_id") == post_id
                                                      for m in mine) for post_id in ids) else None

        messages = await t.fake.wait_until(answered, 15, "every post answered")
        answers = [m for m in messages if m.get("message_reference") or "/channels/" in m["content"]]
        assert len(answers) < len(sent), [m["content"] for m in answers]
        shared = next(m for m in answers if not m.get("message_reference"))
        blocks = shared["content"].split("\n\n")
        assert len(blocks) >= 2
        for block in blocks:
            head, *lines = block.split("\n")
            post_id = head.rsplit("/", 1)[1]
            author = ids[post_id]["author"]["id"]
            # Whose post: its author (unpinged) and a link to the post; then the answer's lines as alone.
            assert head.startswith(f"<@{author}>, ") and f"/channels/{t.dev.guild.id}/{channel.id}/{post_id}" in head
            assert lines and lines[0].startswith(("✓ line 1 “pass”", "✗ line 1 “pass”")), block
            if lines[0].startswith("✗"):
                assert len(lines[0].split(": ", 1)[1]) > 10, block  # the refusal names its reason
        assert any("\n✗ line 1" in block for block in blocks), blocks  # only the seat to play may pass
        # No mention is added: the shared message pings nobody.
        shared_request = next(r for r in t.fake.requests_to("POST", POSTS)
                              if (r.json or {}).get("content") == shared["content"])
        mentions = shared_request.json.get("allowed_mentions")
        assert mentions is not None and not mentions.get("parse") and not mentions.get("users") \
            and not mentions.get("roles") and not mentions.get("replied_user"), mentions
        assert shared["mentions"] == [] and shared["mention_roles"] == []

    run(lambda: table(tmp_path, scenario))


def test_a_lone_post_is_answered_by_a_reply_to_it(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        sent = await t.fake.user_says("mare-nostrum", "bob", "pass")
        answer = await t.fake.wait_for_message(
            "mare-nostrum", lambda m: m.get("message_reference", {}).get("message_id") == sent["id"], timeout=10)
        assert answer["content"].startswith("✗ line 1 “pass”") or answer["content"].startswith("✓ line 1 “pass”")
        assert "/channels/" not in answer["content"]  # no attribution line: the reply itself says whose post
        assert answer["mentions"] == []

    run(lambda: table(tmp_path, scenario))


def test_a_shared_answer_over_the_limit_is_split_between_answers_and_loses_nothing() -> None:
    blocks = [f"<@{i}>, https://discord.com/channels/1/2/{i}\n" + "\n".join(f"✓ line {n} “x”: ok" for n in range(40))
              for i in range(6)]
    chunks = pack(blocks)
    assert len(chunks) > 1 and all(len(c) <= 2000 for c in chunks)
    assert "\n\n".join(chunks) == "\n\n".join(blocks)
    assert all(c.startswith("<@") for c in chunks)  # cut between answers, never inside one that fits
    huge = "<@9>, link\n" + "\n".join("✗ line 1 “y”: " + "z" * 90 for _ in range(40))
    split = pack([huge])
    assert len(split) > 1 and "\n".join(split) == huge
