"""The snapshot key's tree digest (bot/store/fold_key.py) is the one it always was: every snapshot kept before the
walk changed from Path.rglob to os.walk is still recognised, and the same files count."""
from __future__ import annotations

import hashlib
from pathlib import Path

from bot.store import fold_key


def _by_rglob(folder: Path, pattern: str) -> str:
    """The digest as the first snapshot key made it."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob(pattern)):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _by_walk(folder: Path, suffix: str) -> str:
    digest = hashlib.sha256()
    fold_key._hash_tree(digest, folder, suffix)
    return digest.hexdigest()


def _tree(root: Path) -> Path:
    # Names that sort differently as strings and as paths ("a-b/x" against "a/x"), a folder named like a module,
    # a hidden file, bytecode to be left out, an empty folder and upper case.
    files = {"a.py": "1", "a/x.py": "2", "a-b/x.py": "3", "B.py": "4", "a/deep/er/z.py": "5", ".hidden.py": "6",
             "notes.txt": "7", "a/__pycache__/x.cpython-311.py": "8", "__pycache__/a.py": "9", "dir.py/inner.py": "10"}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (root / "empty").mkdir()
    return root


def test_the_walk_hashes_the_same_files_in_the_same_order_as_rglob_did(tmp_path: Path) -> None:
    tree = _tree(tmp_path / "tree")
    assert _by_walk(tree, ".py") == _by_rglob(tree, "*.py")
    assert _by_walk(tree, "") == _by_rglob(tree, "*")
    assert _by_walk(tree, ".py") != _by_walk(tree, "")  # notes.txt counts only in the second


def test_the_engine_and_data_digests_are_the_ones_rglob_gave() -> None:
    from bot.service.data_dir import DATA_DIR

    assert _by_walk(fold_key.ENGINE_DIR, ".py") == _by_rglob(fold_key.ENGINE_DIR, "*.py")
    assert _by_walk(DATA_DIR, "") == _by_rglob(DATA_DIR, "*")


def test_a_file_left_out_or_changed_changes_the_digest(tmp_path: Path) -> None:
    tree = _tree(tmp_path / "tree")
    before = _by_walk(tree, ".py")
    (tree / "a" / "__pycache__" / "x.cpython-311.py").write_text("changed", encoding="utf-8")
    assert _by_walk(tree, ".py") == before, "bytecode folders never count"
    (tree / "a" / "deep" / "er" / "z.py").write_text("changed", encoding="utf-8")
    assert _by_walk(tree, ".py") != before
