"""The server's guards: random ids and tokens, token hashing, client frame checks, the rate
limit and the origin check.

>>> len(new_token()) >= 22 and new_token() != new_token()
True
>>> parse_frame('{"type": "ping"}')
{'type': 'ping'}
>>> parse_frame('{"type": "move", "id": "a", "seq": "1", "move": "draw"}').message
'seq must be a whole number'
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..errors import NotJSONError
from ..protocol import V2, VERSIONS

TOKEN_BYTES = 32
"""Seat tokens carry 256 random bits."""
TABLE_ID_BYTES = 18
"""Table ids carry 144 random bits (the id is the invitation)."""

FRAME_LIMIT = 4096
"""The largest client frame, in bytes; a larger one closes the connection (1009)."""
FRAMES_PER_SECOND = 20
"""More frames than this in a second are dropped and answered ``rate_limited``."""
DROPS_BEFORE_CLOSE = 20
"""A connection that has this many frames dropped in a second keeps on: it is closed (1008)."""

CLIENT_ID_LIMIT = 64
NAME_LIMIT = 24
TOKEN_LIMIT = 128
_ID_FORM = re.compile(r"[A-Za-z0-9_-]{1,64}")
_TOKEN_FORM = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_LIMIT}}}")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    return secrets.token_urlsafe(TABLE_ID_BYTES)


def valid_id(table_id: str) -> bool:
    """Whether ``table_id`` has the form of a table id (random URL-safe text)."""
    return _ID_FORM.fullmatch(table_id) is not None


def valid_token(token: object) -> bool:
    """Whether ``token`` has the form of a seat token (random URL-safe text)."""
    return isinstance(token, str) and _TOKEN_FORM.fullmatch(token) is not None


def token_hash(token: str) -> str:
    """What the database keeps of a token. The token is 256 random bits, so a fast hash is
    as strong as a slow one here: no guessing can go through the space."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class BadName(ValueError):
    """A player name that cannot be used."""


UNPRINTABLE = ("Cc", "Cf", "Co", "Cs", "Cn")
"""Unicode categories people's words may not hold: control characters, format characters
(the bidi overrides that turn text around among them), private use, surrogates, unassigned."""


def unprintable(ch: str) -> bool:
    return unicodedata.category(ch) in UNPRINTABLE


BLANKS = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0"
    "\U0001d159\U0001d173\U0001d174\U0001d175\U0001d176\U0001d177\U0001d178\U0001d179"
    "\U0001d17a")
"""Printable characters that show nothing: the Hangul fillers (U+115F, U+1160, U+3164,
U+FFA0), the blank braille pattern (U+2800), the combining grapheme joiner, Khmer's
inherent vowels and the musical format marks. In chat they are spaces; a name may not
hold them."""

MARKS_IN_A_ROW = 4
"""The most combining marks on one character (Unicode's UTS #39, 5.4: "more than 4
nonspacing marks" in a row is suspicious); more is Zalgo text, which cannot be read and
runs over the lines around it."""
WIDE_SIGNS = frozenset("\ufdfa\ufdfb\ufdfc\ufdfd\u2e3a\u2e3b\ua9c5\U0001242b")
"""Single characters drawn many letters wide (﷽ U+FDFD is a whole phrase): a chat line may
hold a few of them, a name none."""
WIDE_IN_CHAT = 3


def wide(ch: str) -> bool:
    return ch in WIDE_SIGNS or 0x12000 <= ord(ch) <= 0x1254F  # the cuneiform signs


def blank(ch: str) -> bool:
    return ch in BLANKS or unicodedata.category(ch) in ("Zs", "Zl", "Zp")


def printable_text(value: str) -> str:
    """``value`` without its :data:`UNPRINTABLE` characters, its :data:`BLANKS` taken as
    spaces, its spaces run together and trimmed, in Unicode's composed form (NFC) (chat
    lines: what cannot be shown is dropped rather than refused).

    >>> printable_text("  hi\u202e there\x07 ")
    'hi there'
    >>> printable_text("\u2800\u3164")
    ''
    """
    kept = "".join(" " if ch in BLANKS else ch for ch in value if not unprintable(ch))
    return unicodedata.normalize("NFC", " ".join(kept.split()))


def most_marks(text: str) -> int:
    """The most combining marks that follow one another in ``text`` (on one character)."""
    most = run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


def unreadable(text: str, *, wide_allowed: int) -> str | None:
    """Why ``text`` (cleaned) cannot be read, or None: Zalgo text (more than
    :data:`MARKS_IN_A_ROW` marks on one character) or more than ``wide_allowed`` of the
    very wide signs (:data:`WIDE_SIGNS`).

    >>> unreadable("Zalgo" + "\u0301" * 12, wide_allowed=3)[:40]
    'more than 4 accents or marks on one char'
    """
    if most_marks(text) > MARKS_IN_A_ROW:
        return (f"more than {MARKS_IN_A_ROW} accents or marks on one character cannot be "
                "read (they run over the lines around them)")
    signs = [ch for ch in text if wide(ch)]
    if len(signs) > wide_allowed:
        if not wide_allowed:
            return f"{signs[0]} (U+{ord(signs[0]):04X}) is drawn many letters wide"
        return (f"at most {wide_allowed} of the signs drawn many letters wide (such as "
                f"{signs[0]}) fit in one line")
    return None


def script_of(ch: str) -> str | None:
    """The writing system of a letter, from its Unicode name (``LATIN``, ``CYRILLIC``,
    ``HAN``…); None for anything but a letter."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    words = unicodedata.name(ch, "").split(" ")
    word = words[0]
    if word == "CJK":
        return "HAN"
    if word in ("KATAKANA-HIRAGANA", "HALFWIDTH", "FULLWIDTH") and len(words) > 1:
        return "KATAKANA" if word == "KATAKANA-HIRAGANA" else words[1]
    return word or None


MIXES = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
         frozenset({"LATIN", "HAN", "BOPOMOFO"}),
         frozenset({"LATIN", "HAN", "HANGUL"}))
"""The writing systems one name may mix (UTS #39's "highly restrictive" level): Latin
with Japanese, Chinese or Korean. Any other mix is refused, since it is how look-alike
names are made (a Cyrillic а in "Ann")."""


def mixed_scripts(name: str) -> tuple[str, str] | None:
    """Two writing systems ``name`` mixes that no real name does (see :data:`MIXES`)."""
    scripts = sorted({script for ch in unicodedata.normalize("NFKC", name)
                      if (script := script_of(ch)) is not None})
    if len(scripts) < 2 or any(set(scripts) <= mix for mix in MIXES):
        return None
    latin_first = sorted(scripts, key=lambda script: script != "LATIN")
    return latin_first[0], latin_first[1]


def clean_name(value: Any) -> str:
    """A person's name as given: text of 1 to 24 printable characters, trimmed, that can
    be read: with a letter or digit, nothing invisible, no pile of marks, no sign drawn
    many letters wide, and letters of one writing system (see :data:`MIXES`).

    >>> clean_name("  Ann  Lee ")
    'Ann Lee'
    >>> clean_name("\u3164")
    Traceback (most recent call last):
    ...
    rummy500.server.security.BadName: name must not hold invisible characters (U+3164)
    """
    if not isinstance(value, str):
        raise BadName("name must be text")
    name = unicodedata.normalize("NFC", " ".join(value.split()))
    if not name:
        raise BadName("name must not be empty")
    if len(name) > NAME_LIMIT:
        raise BadName(f"name must be at most {NAME_LIMIT} characters")
    if any(unprintable(ch) for ch in name):
        raise BadName("name must hold printable characters only")
    hidden = [ch for ch in name if blank(ch) and ch != " "]
    if hidden:
        raise BadName(f"name must not hold invisible characters (U+{ord(hidden[0]):04X})")
    if unicodedata.category(name[0]).startswith("M"):
        raise BadName("name must not start with an accent or mark: it has nothing to sit on")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise BadName("name must hold a letter or a digit")
    problem = unreadable(name, wide_allowed=0)
    if problem:
        raise BadName(f"name: {problem}")
    mixed = mixed_scripts(name)
    if mixed:
        raise BadName(f"name must not mix {mixed[0].title()} and {mixed[1].title()} letters: "
                      "names are made of look-alike letters that way")
    return name


_LOOK_ALIKES = str.maketrans({
    # Cyrillic and Greek letters drawn like Latin ones, and digits like letters
    "а": "a", "в": "b", "е": "e", "ѐ": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "l", "ї": "l", "ј": "j",
    "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y", "ӏ": "l", "ɡ": "g",
    "А": "a", "В": "b", "Е": "e", "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p",
    "С": "c", "Т": "t", "У": "y", "Х": "x", "Ѕ": "s", "І": "l", "Ј": "j", "Ԁ": "d",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w",
    "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "l", "Κ": "k", "Μ": "m", "Ν": "n",
    "Ο": "o", "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x",
    "0": "o", "1": "l", "i": "l", "I": "l", "|": "l", "!": "l", "ı": "l", "5": "s", "$": "s",
    "@": "a", "3": "e", "ø": "o", "ð": "d", "đ": "d", "ł": "l", "ß": "ss", "æ": "ae",
    "œ": "oe", "ŀ": "l",
})
_DIGRAPHS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def name_key(name: str) -> str:
    """What a name looks like, for telling names apart: two names with one key pass for
    each other (case, accents, spaces and punctuation, and look-alike letters and digits
    do not count). In the spirit of Unicode's skeletons (UTS #39), for the letters that
    matter here.

    >>> name_key("Ann") == name_key("ANN") == name_key("Аnn") == name_key("A.n n")
    True
    >>> name_key("Bill") == name_key("B1lI"), name_key("Ann") == name_key("Anne")
    (True, False)
    """
    text = unicodedata.normalize("NFKC", name).translate(_LOOK_ALIKES).casefold()
    text = unicodedata.normalize("NFD", text.translate(_LOOK_ALIKES))
    text = "".join(ch for ch in text if ch.isalnum() and unicodedata.category(ch)[0] != "M")
    for pair, one in _DIGRAPHS:
        text = text.replace(pair, one)
    return text


RESERVED_NAMES = ("You", "Seat", "Random", "Simple", "Expert", "Mcts", "Computer", "Bot",
                  "Stand-in", "Spectator", "Server", "System", "Admin", "Moderator")
"""Names the table gives, or that speak for it: each reader's own seat is "You", an empty
seat "Seat 3", a computer player "Expert" or "Expert 2" (``rummy500.bots`` names them),
and the stand-in; a person may not take them, nor one that looks like them, with or
without a number."""
_RESERVED_KEYS = frozenset(name_key(word) for word in RESERVED_NAMES)


def name_clash(name: str, others: Iterable[str]) -> str | None:
    """Why ``name`` (cleaned) would pass for someone else at a table where ``others`` are
    the other people's names, or None: a name the table gives (:data:`RESERVED_NAMES`),
    a name that starts with "You" as a word, or one that looks like another person's.

    >>> name_clash("Expert 2", [])
    '"Expert 2" is what the table calls someone else: choose another name'
    >>> name_clash("ann", ["Bo", "Ann"])
    'another player at this table is called Ann: choose another name'
    >>> name_clash("Annie", ["Ann"]) is None
    True
    """
    key = name_key(name)
    first = name_key(re.split(r"[\s\W_]+", name.strip(), maxsplit=1)[0] or name)
    if key.rstrip("0123456789lo") in _RESERVED_KEYS or key in _RESERVED_KEYS \
            or first == name_key("You"):
        return f'"{name}" is what the table calls someone else: choose another name'
    for other in others:
        if other and name_key(other) == key:
            return f"another player at this table is called {other}: choose another name"
    return None


@dataclass(frozen=True, slots=True)
class BadFrame:
    """A client frame that is not one of the protocol's: answered by an ``error`` frame."""

    code: str
    message: str


def _no_constants(text: str) -> Any:
    raise NotJSONError(f"{text} is not JSON")


def parse_frame(text: str) -> dict[str, Any] | BadFrame:
    """A client frame, checked field by field, or what is wrong with it."""
    try:
        frame = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        return BadFrame("bad_json", "a frame is one JSON object")
    if not isinstance(frame, dict):
        return BadFrame("bad_frame", "a frame is one JSON object")
    kind = frame.get("type")
    if kind == "ping":
        return {"type": "ping"}
    if kind == "hello":
        token = frame.get("token")
        if token is not None and not (isinstance(token, str) and 0 < len(token) <= TOKEN_LIMIT):
            return BadFrame("bad_frame", "token must be a seat token or null")
        version = frame.get("v", V2)
        if version not in VERSIONS or isinstance(version, bool):
            return BadFrame("bad_frame", f"v must be a protocol version this server speaks: "
                                         f"{' or '.join(map(str, VERSIONS))}")
        return {"type": "hello", "token": token, "v": version}
    if kind == "resync":
        return {"type": "resync"}
    if kind == "move":
        client_id = frame.get("id")
        if not isinstance(client_id, str) or not 0 < len(client_id) <= CLIENT_ID_LIMIT:
            return BadFrame("bad_frame", f"id must be text of 1 to {CLIENT_ID_LIMIT} characters")
        seq = frame.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 2**31:
            return BadFrame("bad_frame", "seq must be a whole number")
        move = frame.get("move")
        if not isinstance(move, str):
            return BadFrame("bad_frame", "move must be text in the move notation")
        return {"type": "move", "id": client_id, "seq": seq, "move": move}
    if kind in TALK_FRAMES:
        return _talk_frame(kind, frame)
    if isinstance(kind, str) and len(kind) <= 32:
        return BadFrame("bad_frame", f"unknown frame type {kind!r}: {FRAME_TYPES}")
    return BadFrame("bad_frame", f"a frame needs a type: {FRAME_TYPES}")


TALK_FRAMES = {"chat": "text", "react": "what", "continue": "deal", "undo": None,
               "leave": None}
"""The frames of talk and pacing, and the field each carries besides its ``id``."""
FRAME_TYPES = "hello, move, resync, ping, chat, react, continue, undo or leave"


def _talk_frame(kind: str, frame: dict[str, Any]) -> dict[str, Any] | BadFrame:
    client_id = frame.get("id", "")
    if kind != "continue" and client_id == "":
        return BadFrame("bad_frame", f"id must be text of 1 to {CLIENT_ID_LIMIT} characters")
    if not isinstance(client_id, str) or len(client_id) > CLIENT_ID_LIMIT:
        return BadFrame("bad_frame", f"id must be text of 1 to {CLIENT_ID_LIMIT} characters")
    checked: dict[str, Any] = {"type": kind, "id": client_id}
    field_name = TALK_FRAMES[kind]
    if field_name is None:
        return checked
    value = frame.get(field_name)
    if field_name == "deal":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 2**31:
            return BadFrame("bad_frame", "deal must be the number of the deal that ended")
    elif not isinstance(value, str):
        return BadFrame("bad_frame", f"{field_name} must be text")
    checked[field_name] = value
    return checked


class RateLimit:
    """At most ``per_second`` frames in each second of a connection's life."""

    def __init__(self, per_second: int = FRAMES_PER_SECOND,
                 drops_before_close: int = DROPS_BEFORE_CLOSE) -> None:
        self.per_second = per_second
        self.drops_before_close = drops_before_close
        self.window = 0.0
        self.count = 0
        self.dropped = 0

    def check(self, now: float | None = None) -> str:
        """``ok``, ``drop`` (answer rate_limited) or ``close`` (the client keeps on)."""
        now = time.monotonic() if now is None else now
        if now - self.window >= 1.0:
            self.window, self.count, self.dropped = now, 0, 0
        self.count += 1
        if self.count <= self.per_second:
            return "ok"
        self.dropped += 1
        return "close" if self.dropped > self.drops_before_close else "drop"


def origin_allowed(origin: str | None, host: str | None) -> bool:
    """A browser's WebSocket only from the server's own pages; no Origin: not a browser."""
    if origin is None:
        return True
    if not host:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


__all__ = ["BLANKS", "FRAMES_PER_SECOND", "FRAME_LIMIT", "MARKS_IN_A_ROW", "RESERVED_NAMES",
           "TOKEN_LIMIT", "UNPRINTABLE", "WIDE_SIGNS", "BadFrame", "BadName", "RateLimit",
           "clean_name", "name_clash", "name_key", "new_table_id", "new_token",
           "origin_allowed", "parse_frame", "printable_text", "token_hash", "unprintable",
           "unreadable", "valid_id", "valid_token"]
