"""Where a game in progress is kept, so that ``rummy500 play --resume`` continues it.

The game is a game record of NOTATION.md with one more key, ``table``: the seats,
names, seed and the state of the game's random source, so that the deals still to
come are shuffled as they would have been. The record holds every pack order, so
the save does not show it: ``game.json`` holds the record compressed and encoded
(``sealed``), out of plain sight, and an HMAC-SHA256 of it under a key of this
folder (``save.key``, random, readable by its owner only). A resume refuses a save
whose check fails (edited by hand, or written with another key) and never writes
over it: it is put aside under a new name, and the refusal says where. This keeps
a person from reading the other hands by accident and from changing the deck
unnoticed; it is not encryption (the key lies beside the save).

Every write goes to a new file that is flushed to disk (``fsync``) and then renamed
over the old one, so a crash leaves the old save or the new one, never half of one.
One program at a time keeps a folder: it holds a lock (``lock``) while it runs, and
a second one is refused (:class:`~rummy500.errors.SaveInUseError`).

A finished game is written as a plain record, ``last-game.json`` (``rummy500
replay`` reads it): once the game is over nothing in it is secret.

The folder is ``--save-dir``, else ``$RUMMY500_DATA_DIR``, else
``$XDG_DATA_HOME/rummy500``, else ``~/.local/share/rummy500``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
import sys
import tempfile
import time
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from .. import safejson
from ..errors import BadInputError, SaveError, SaveInUseError

DATA_ENV = "RUMMY500_DATA_DIR"
CURRENT = "game.json"
LAST = "last-game.json"
KEY = "save.key"
LOCK = "lock"

FORMAT = "rummy500 saved game"
VERSION = 2
"""The save's format: 2 is sealed (0.1 wrote the record in plain sight, unchecked)."""

NOTE = ("The game in progress of rummy500 play. Its cards are sealed: hidden from sight and "
        "checked on resume (edited, it is refused). rummy500 play --resume continues it.")


def data_dir(explicit: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The folder of saved games (see the module's text for the order of choices)."""
    env = os.environ if environ is None else environ
    if explicit is not None:
        return explicit
    if env.get(DATA_ENV):
        return Path(env[DATA_ENV])
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rummy500"


# -- sealing --------------------------------------------------------------------------------------


def _mac(key: bytes, sealed: str) -> str:
    message = f"{FORMAT} {VERSION}\n{sealed}".encode("ascii")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def seal(data: Mapping[str, Any], key: bytes) -> dict[str, Any]:
    """``data`` as a save: compressed and encoded, with its HMAC under ``key``."""
    text = json.dumps(data, separators=(",", ":")).encode("utf-8")
    sealed = base64.b64encode(zlib.compress(text, 9)).decode("ascii")
    return {"format": FORMAT, "version": VERSION, "note": NOTE, "sealed": sealed,
            "mac": _mac(key, sealed)}


def unseal(save: Any, key: bytes) -> dict[str, Any]:
    """The data of a save written by :func:`seal` with ``key``; :class:`SaveError` if the
    save is not one, or does not pass its integrity check."""
    if not isinstance(save, dict) or save.get("format") != FORMAT:
        if isinstance(save, dict) and "rounds" in save:
            raise SaveError("the save is a plain record without an integrity check (written by "
                            "rummy500 0.1, or by hand), so it cannot be resumed")
        raise SaveError("this file is not a saved game of rummy500 play")
    if save.get("version") != VERSION:
        raise SaveError(f"the save has format version {save.get('version')!r}; this rummy500 "
                        f"reads version {VERSION}")
    sealed, mac = save.get("sealed"), save.get("mac")
    if not isinstance(sealed, str) or not isinstance(mac, str):
        raise SaveError("the save has no sealed game or no integrity check")
    try:
        expected = _mac(key, sealed)
    except UnicodeEncodeError:
        raise SaveError("the sealed game is damaged") from None
    if not hmac.compare_digest(expected, mac):
        raise SaveError("the save fails its integrity check: it was changed outside rummy500 "
                        "play, or written with another key than this folder's")
    try:
        packed = base64.b64decode(sealed, validate=True)
        inflate = zlib.decompressobj()
        text = inflate.decompress(packed, safejson.MAX_BYTES + 1)
    except (binascii.Error, zlib.error) as error:
        raise SaveError(f"the sealed game is damaged: {error}") from None
    if len(text) > safejson.MAX_BYTES or inflate.unconsumed_tail:
        raise SaveError("the sealed game is too large to be a game")
    try:
        return safejson.loads_object(text, what="the saved game",
                                     not_object="the sealed game is not a game record")
    except BadInputError as error:
        raise SaveError(str(error)) from None


# -- the folder -----------------------------------------------------------------------------------


class SaveStore:
    """The saved games of one folder: the one in progress and the last finished one.

    The folder's lock is taken by :meth:`open` (or the first read or write) and
    held until :meth:`close`.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.current = directory / CURRENT
        self.last = directory / LAST
        self.key_file = directory / KEY
        self.lock_file = directory / LOCK
        self._lock: IO[bytes] | None = None
        self._key: bytes | None = None

    def open(self) -> None:
        """Make the folder, take its lock and its key. :class:`SaveInUseError` if another
        program holds the lock; :class:`OSError` if the folder cannot be kept."""
        if self._lock is not None:
            return
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle = open(self.lock_file, "a+b")  # noqa: SIM115 - held open until close()
        if not _try_lock(handle):
            handle.close()
            raise SaveInUseError(f"the game in {self.directory} is open in another rummy500 "
                                 "play: finish it there first (or use --save-dir)")
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n".encode())
        handle.flush()
        self._lock = handle
        self._key = self._read_key()

    def close(self) -> None:
        """Let go of the folder's lock."""
        if self._lock is not None:
            self._lock.close()  # closing the file releases the lock
            self._lock = None

    @property
    def is_open(self) -> bool:
        return self._lock is not None

    def exists(self) -> bool:
        return self.current.is_file()

    def read(self) -> dict[str, Any]:
        """The saved game in progress (the record with its ``table``); :class:`SaveError` if
        there is none, or it cannot be read, or it fails its integrity check."""
        if not self.exists():
            raise SaveError(f"there is no game in progress to resume in {self.directory}")
        self.open()
        assert self._key is not None
        try:
            save = safejson.read(self.current, what="the saved game")
        except BadInputError as error:
            raise SaveError(str(error)) from None
        return unseal(save, self._key)

    def write(self, data: Mapping[str, Any]) -> None:
        """Keep ``data`` as the game in progress, sealed."""
        self.open()
        assert self._key is not None
        self._write(self.current, seal(data, self._key))

    def finish(self, data: Mapping[str, Any]) -> None:
        """Keep a finished game as the last game (a plain record); none is in progress."""
        self.open()
        self._write(self.last, data)
        self.current.unlink(missing_ok=True)

    def put_aside(self) -> Path:
        """Move the save in progress out of the way, under a new name; where it went."""
        self.open()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for number in range(1, 1000):
            suffix = "" if number == 1 else f"-{number}"
            target = self.directory / f"game-unreadable-{stamp}{suffix}.json"
            if not target.exists():
                break
        os.replace(self.current, target)
        _sync_folder(self.directory)
        return target

    def _read_key(self) -> bytes:
        try:
            descriptor = os.open(self.key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            if self.key_file.stat().st_mode & 0o077:
                os.chmod(self.key_file, 0o600)
            text = self.key_file.read_text(encoding="ascii", errors="replace").strip()
            try:
                key = bytes.fromhex(text)
            except ValueError:
                key = b""
            if len(key) < 16:
                raise SaveError(f"the key file {self.key_file} is damaged: delete it (a save "
                                "written with it can then no longer be resumed)") from None
            return key
        key = secrets.token_bytes(32)
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(key.hex() + "\n")
            file.flush()
            os.fsync(file.fileno())
        return key

    def _write(self, path: Path, data: Mapping[str, Any]) -> None:
        """Write ``data`` to a new file, flush it to disk, rename it over ``path``."""
        descriptor, partial = tempfile.mkstemp(dir=self.directory, prefix=path.name + ".",
                                               suffix=".partial")
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                file.write(json.dumps(data) + "\n")
                file.flush()
                os.fsync(file.fileno())
            os.replace(partial, path)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
        _sync_folder(self.directory)


def _try_lock(handle: IO[bytes]) -> bool:
    """Take the lock of an open file without waiting; False if another holds it."""
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _sync_folder(directory: Path) -> None:
    """Flush a folder's entries (a rename) to disk, where the system allows it."""
    if sys.platform == "win32":
        return
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


__all__ = ["CURRENT", "DATA_ENV", "LAST", "SaveStore", "data_dir", "seal", "unseal"]
