"""What people write, cleaned: names (refused in words when they cannot be used: unreadable,
invisible, made of look-alike letters, or passing for someone else at the table) and chat
lines (what cannot be shown dropped).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

NAME_LIMIT = 24
"""The most characters of a name."""


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
    rummy500.server.cleaning.BadName: name must not hold invisible characters (U+3164)
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


__all__ = ["BLANKS", "MARKS_IN_A_ROW", "NAME_LIMIT", "RESERVED_NAMES", "UNPRINTABLE",
           "WIDE_IN_CHAT", "WIDE_SIGNS", "BadName", "blank", "clean_name", "mixed_scripts",
           "name_clash",
           "name_key", "printable_text", "unprintable", "unreadable", "wide"]
