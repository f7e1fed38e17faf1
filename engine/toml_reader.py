"""The TOML reader of the rules and maps: ``tomli`` where it is installed (the parser the standard library's
``tomllib`` was copied from, in a wheel compiled with mypyc: the Mediterranean Empires rules and map read in 2.2 ms
instead of 7.9, imported in 1.8 ms instead of 9 in a fresh process), else ``tomllib``. Both read TOML 1.0 to the
same dicts and raise ``TOMLDecodeError`` for a mistake; every loader imports ``toml`` from here in place of
``tomllib``, so a game reads its files as the others do."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # one module's signatures for mypy: tomli's are tomllib's
    import tomllib as toml
else:
    try:
        import tomli as toml
    except ImportError:
        import tomllib as toml

__all__ = ["toml"]
