"""Discord's limits on a message's components (buttons, select menus), refused as Discord refuses them (50035).

A lenient fake let a bot send what Discord refuses: six action rows, six buttons in a row, a custom_id of 101
characters, a label of 81, two buttons with one custom_id, a button outside a row. The bot then works here and
fails on Discord. Messages with the newer component layout (flag IS_COMPONENTS_V2) are not checked: the bot sends
none, and their rules differ.
"""
from __future__ import annotations

from typing import Any

from bot.devdiscord.protocol import ApiError, form_error

IS_COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON = 1, 2
LINK, PREMIUM = 5, 6  # button styles that carry a url or a SKU, not a custom_id
MAX_ROWS = 5
MAX_IN_ROW = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_PLACEHOLDER = 150


def _too_long(path: list[str], limit: int) -> ApiError:
    return form_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def check_components(components: list[dict[str, Any]], prefix: tuple[str, ...], flags: int = 0) -> None:
    if flags & IS_COMPONENTS_V2:
        return
    if len(components) > MAX_ROWS:
        raise _too_long([*prefix, "components"], MAX_ROWS)
    seen: set[str] = set()
    for i, row in enumerate(components):
        where = [*prefix, "components", str(i)]
        if int(row.get("type") or 0) != ACTION_ROW:
            raise form_error([*where, "type"], "UNION_TYPE_CHOICES", f'Value of field "type" must be one of ({ACTION_ROW},).')
        children = list(row.get("components") or [])
        if not children:
            raise form_error([*where, "components"], "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        if len(children) > MAX_IN_ROW:
            raise _too_long([*where, "components"], MAX_IN_ROW)
        kinds = {int(c.get("type") or 0) for c in children}
        if kinds - {BUTTON} and len(children) > 1:  # a select menu takes its row alone
            raise form_error([*where, "components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                             "The specified component exceeds the maximum width")
        for j, child in enumerate(children):
            _check_child(child, [*where, "components", str(j)], seen)


def _check_child(child: dict[str, Any], where: list[str], seen: set[str]) -> None:
    kind = int(child.get("type") or 0)
    if kind == ACTION_ROW:
        raise form_error([*where, "type"], "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (2, 3, 4, 5, 6, 7, 8).")
    custom_id = child.get("custom_id")
    link = kind == BUTTON and int(child.get("style") or 0) in (LINK, PREMIUM)
    if not link:
        if not custom_id:
            raise form_error([*where, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
        if len(str(custom_id)) > MAX_CUSTOM_ID:
            raise _too_long([*where, "custom_id"], MAX_CUSTOM_ID)
        if str(custom_id) in seen:
            raise form_error([*where, "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED",
                             "Component custom id cannot be duplicated")
        seen.add(str(custom_id))
    if kind == BUTTON and len(str(child.get("label") or "")) > MAX_LABEL:
        raise _too_long([*where, "label"], MAX_LABEL)
    if len(str(child.get("placeholder") or "")) > MAX_PLACEHOLDER:
        raise _too_long([*where, "placeholder"], MAX_PLACEHOLDER)
