"""REST: application commands, global and per guild, validated as Discord validates them."""
from __future__ import annotations

import re
from typing import Any

from bot.devdiscord.core import ServerCore
from bot.devdiscord.protocol import ApiError, RecordedRequest, Reply, form_error, unknown


class CommandsRest(ServerCore):
    """/applications/{id}[/guilds/{id}]/commands."""


    def _scope(self, params: dict[str, str]) -> dict[str, dict[str, Any]]:
        self._app(params)
        guild_id = params.get("guild_id")
        if guild_id is not None:
            self._guild(guild_id)
        return self.commands.setdefault(guild_id, {})

    def _command_from_body(self, body: Any, scope: dict[str, dict[str, Any]], guild_id: str | None,
                           index: str | None = None) -> dict[str, Any]:
        where = [index] if index is not None else []
        if not isinstance(body, dict):
            raise form_error(where, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        ctype = int(body.get("type", 1))
        name = str(body.get("name", ""))
        if ctype == 1:
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                raise form_error([*where, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            description = str(body.get("description", ""))
            if not 1 <= len(description) <= 100:
                raise form_error([*where, "description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            self._check_options(body.get("options") or [], [*where, "options"], depth=0)
        elif not 1 <= len(name) <= 32:
            raise form_error([*where, "name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
        key = f"{ctype}:{name}"
        previous = scope.get(key)
        command = {
            "id": previous["id"] if previous else self.world.next_id(),
            "application_id": self.app_id,
            "version": self.world.next_id(),
            "type": ctype,
            "name": name,
            "name_localizations": body.get("name_localizations"),
            "description": body.get("description", ""),
            "description_localizations": body.get("description_localizations"),
            "options": body.get("options") or [],
            "default_member_permissions": body.get("default_member_permissions"),
            "dm_permission": body.get("dm_permission", True),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types", [0]),
            "nsfw": bool(body.get("nsfw", False)),
        }
        if guild_id is not None:
            command["guild_id"] = guild_id
        return command

    def _check_options(self, options: list[dict[str, Any]], where: list[str], depth: int) -> None:
        if len(options) > 25:
            raise form_error(where, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        seen_optional = False
        for i, option in enumerate(options):
            here = [*where, str(i)]
            name = str(option.get("name", ""))
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                raise form_error([*here, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            if not 1 <= len(str(option.get("description", ""))) <= 100:
                raise form_error([*here, "description"], "BASE_TYPE_BAD_LENGTH",
                                 "Must be between 1 and 100 in length.")
            if option.get("type") in (1, 2):
                if depth >= 2 or (option.get("type") == 2 and depth >= 1):
                    raise form_error([*here, "type"], "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                                     "Sub-command and sub-command group option types are mutually exclusive")
                self._check_options(option.get("options") or [], [*here, "options"], depth + 1)
                continue
            if option.get("required"):
                if seen_optional:
                    raise form_error(where, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                     "Required options must be placed before non-required options")
            else:
                seen_optional = True
            if len(option.get("choices") or []) > 25:
                raise form_error([*here, "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")

    async def _list_commands(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=list(self._scope(params).values()))

    async def _put_commands(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        scope = self._scope(params)
        body = call.json or []
        if not isinstance(body, list):
            raise form_error([], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        if len([c for c in body if int(c.get("type", 1)) == 1]) > 100:
            raise form_error([], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        commands = [self._command_from_body(c, scope, params.get("guild_id"), str(i)) for i, c in enumerate(body)]
        names = [f"{c['type']}:{c['name']}" for c in commands]
        if len(set(names)) != len(names):
            raise ApiError(400, 50035, "Invalid Form Body",
                           {"_errors": [{"code": "APPLICATION_COMMANDS_DUPLICATE_NAME",
                                         "message": "Application command names must be unique"}]})
        scope.clear()
        scope.update({f"{c['type']}:{c['name']}": c for c in commands})
        return Reply(body=commands)

    async def _post_command(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        scope = self._scope(params)
        command = self._command_from_body(call.json, scope, params.get("guild_id"))
        key = f"{command['type']}:{command['name']}"
        status = 200 if key in scope else 201
        scope[key] = command
        return Reply(status, command)

    def _find_command(self, params: dict[str, str]) -> tuple[str, dict[str, Any]]:
        for key, command in self._scope(params).items():
            if command["id"] == params["command_id"]:
                return key, command
        raise unknown("application command", 10063)

    async def _get_command(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=self._find_command(params)[1])

    async def _patch_command(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        key, command = self._find_command(params)
        scope = self._scope(params)
        updated = self._command_from_body({**command, **(call.json or {})}, scope, params.get("guild_id"))
        del scope[key]
        scope[f"{updated['type']}:{updated['name']}"] = updated
        return Reply(body=updated)

    async def _delete_command(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        key, _ = self._find_command(params)
        del self._scope(params)[key]
        return Reply(204)

    async def _command_perms(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        self._scope(params)
        return Reply(body=[])

    def find_registered_command(self, name: str, guild_id: str | None, ctype: int = 1) -> dict[str, Any] | None:
        """Guild commands shadow global ones, as in the Discord client's command picker."""
        for scope in ([guild_id] if guild_id else []) + [None]:
            command = self.commands.get(scope, {}).get(f"{ctype}:{name}")
            if command is not None:
                return command
        return None
