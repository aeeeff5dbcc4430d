"""How a table is set up: the rules, which seats are people and which computer players, names.

Front-end neutral (no Textual here): the terminal game, its command line and its
tests build a :class:`TableSettings`, and a saved game stores one.

>>> settings = default_settings()
>>> settings.players, settings.seats[0]
(2, 'person')
>>> settings.seat_names()[0]
'You'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import rules
from ..bots import BOT_NAMES, check_budget
from ..errors import BadInputError
from ..errors import SettingsError as SettingsError
from ..rules import PRESETS, Rules, RulesError, make_rules

PERSON = "person"
"""The seat kind of a person at the screen; every other seat names a computer player."""

PERSON_WORDS = frozenset({"person", "human", "me", "you", "people"})
"""What the command line accepts for a person's seat."""

BOT_PREFERENCE = ("expert", "simple", "random")
"""The default computer player: the strongest of these that is registered."""

NAME_LENGTH = 12


def default_bot() -> str:
    """The strongest registered computer player (``expert`` once it exists)."""
    for name in BOT_PREFERENCE:
        if name in BOT_NAMES:
            return name
    return BOT_NAMES[0]


def bot_title(name: str) -> str:
    return name[:1].upper() + name[1:]


def bot_seat_names(kinds: Sequence[str | None]) -> list[str | None]:
    """The name of each computer player's seat (``kinds``: a bot name, or None for a
    person): ``Expert``, or ``Expert 1``, ``Expert 2``… when the same bot sits twice."""
    names: list[str | None] = []
    for seat, kind in enumerate(kinds):
        if kind is None:
            names.append(None)
        elif kinds.count(kind) == 1:
            names.append(bot_title(kind))
        else:
            names.append(f"{bot_title(kind)} {kinds[:seat].count(kind) + 1}")
    return names


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A game's set-up: preset and options, one entry per seat (``person`` or a bot name)."""

    preset: str = "classic"
    options: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[str, ...] = field(default_factory=lambda: (PERSON, default_bot()))
    names: tuple[str, ...] = ()
    """Names chosen for the seats (missing or empty ones get a default)."""
    seed: int | None = None
    budget: float = 1.0
    """Thinking time of the computer players, in seconds a move."""

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def people(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.seats) if kind == PERSON]

    def rules(self) -> Rules:
        """The rules, or :class:`SettingsError` saying what is wrong with them."""
        try:
            return make_rules(self.preset, **dict(self.options))
        except RulesError as error:
            raise SettingsError(str(error)) from None

    def check(self) -> Rules:
        """Refuse a set-up that cannot be played, saying why; give its rules."""
        rules = self.rules()
        try:
            rules.check_players(self.players)
        except RulesError as error:
            raise SettingsError(str(error)) from None
        for kind in self.seats:
            if kind != PERSON and kind not in BOT_NAMES:
                raise SettingsError(f"unknown computer player {kind!r}; the computer players "
                                    f"are: {', '.join(BOT_NAMES)}")
        if len(self.names) > self.players:
            raise SettingsError(f"{len(self.names)} names given for {self.players} seats")
        try:
            check_budget(self.budget)
        except BadInputError as error:
            raise SettingsError(str(error)) from None
        names = self.seat_names()
        if len(set(names)) != len(names):
            raise SettingsError("two seats have the same name: " + ", ".join(names))
        return rules

    def seat_names(self) -> list[str]:
        """A short name for every seat: the chosen ones, else ``You``, ``Player 2``, ``Expert``."""
        people = self.people
        bots = bot_seat_names([None if kind == PERSON else kind for kind in self.seats])
        names = []
        for seat, bot in enumerate(bots):
            given = self.names[seat].strip() if seat < len(self.names) else ""
            if given:
                names.append(given[:NAME_LENGTH])
            elif bot is None:
                names.append("You" if len(people) == 1 else f"Player {people.index(seat) + 1}")
            else:
                names.append(bot)
        return names

    def to_data(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "options": dict(self.options),
            "seats": list(self.seats),
            "names": list(self.names),
            "seed": self.seed,
            "budget": self.budget,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TableSettings:
        try:
            return cls(
                preset=str(data["preset"]),
                options=dict(data.get("options", {})),
                seats=tuple(str(kind) for kind in data["seats"]),
                names=tuple(str(name) for name in data.get("names", ())),
                seed=None if data.get("seed") is None else int(data["seed"]),
                budget=float(data.get("budget", 1.0)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise SettingsError(f"the table settings cannot be read: {error}") from None


def default_players(preset: str) -> int:
    rules = PRESETS.get(preset)
    return rules.default_players if rules is not None else 2


def people_seats(players: int, people: int, partnership: bool) -> list[int]:
    """Where ``people`` people sit: seats 0, 1, … (in a partnership partners first: 0, 2)."""
    if not 0 <= people <= players:
        raise SettingsError(f"{people} people cannot sit at a table of {players}")
    order = list(range(players))
    if partnership:
        order = list(range(0, players, 2)) + list(range(1, players, 2))
    return sorted(order[:people])


def parse_seats(spec: str) -> tuple[str, ...]:
    """``person,expert,…``: one entry per seat, a person or a computer player's name."""
    seats = []
    for word in spec.split(","):
        word = word.strip().lower()
        if not word:
            raise SettingsError(f"{spec!r} has an empty seat: name one entry per seat")
        seats.append(PERSON if word in PERSON_WORDS else word)
    return tuple(seats)


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` texts as rule options in their types (:func:`rummy500.rules.parse_options`,
    refused as a :class:`SettingsError`)."""
    try:
        return rules.parse_options(pairs)
    except RulesError as error:
        raise SettingsError(str(error)) from None


def default_settings(
    preset: str = "classic",
    options: Mapping[str, Any] | None = None,
    *,
    players: int | None = None,
    people: int = 1,
    bot: str | None = None,
    seats: Sequence[str] | None = None,
    names: Sequence[str] = (),
    seed: int | None = None,
    budget: float = 1.0,
) -> TableSettings:
    """A set-up from the few choices people make; unnamed choices take sensible defaults.

    ``rummy500 play`` alone: two players, you against the strongest computer player.
    """
    chosen = dict(options or {})
    if seats is None:
        count = players if players is not None else default_players(preset)
        partnership = bool(chosen.get("partnership", PRESETS.get(preset, PRESETS["classic"])
                                      .partnership))
        here = people_seats(count, people, partnership)
        kind = bot if bot is not None else default_bot()
        seats = [PERSON if seat in here else kind for seat in range(count)]
    elif players is not None and players != len(seats):
        raise SettingsError(f"{len(seats)} seats named for {players} players")
    return TableSettings(preset=preset, options=chosen, seats=tuple(seats), names=tuple(names),
                         seed=seed, budget=budget)
