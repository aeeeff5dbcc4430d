"""The rule options of 500 Rum, the named presets, and overrides on them.

Every field of :class:`Rules` is an option of ``RULES.md`` under the same name.
A preset is a :class:`Rules` value; any option can be set over it with
:func:`make_rules` (from a record, the command line or code).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import UnionType
from typing import Any, Literal, NamedTuple, Union, get_args, get_origin, get_type_hints

from . import safejson
from .errors import BadInputError, NotJSONError
from .errors import RulesError as RulesError

DecksSetting = Literal["auto", 1, 2]
JokerKind = Literal["none", "wild", "persian"]
CardPoints = Literal["traditional", "simplified"]
StockExhausted = Literal["end", "discard_pile", "reshuffle"]
SetSuits = Literal["distinct", "any"]

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_POINTS = 1000
"""The most a card value or bonus option may be (a point option beyond it is refused)."""
MAX_TARGET = 100_000
"""The highest ``target_score``."""
DEAL_LIMIT = 50
"""The most deals a game lasts, whatever its rules (and the highest ``max_deals``): a game
played to a target alone could go on for ever, since a deal can score below zero. No game
of the bots comes near it (of 1,000 classic games of four random players, the longest
took 27 deals); see docs/rules-decisions.md, "no endless games"."""
MAX_HAND = 52


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Every house rule of 500 Rum. Frozen; tweak with :func:`dataclasses.replace`."""

    decks: DecksSetting = "auto"
    jokers: JokerKind = "none"
    jokers_per_deck: int | None = None
    hand_size_two: int = 13
    hand_size: int = 7
    max_players: int = MAX_PLAYERS
    top_discard_must_be_used: bool = False
    discard_taken_card: bool = True
    min_run: int = 3
    set_suits: SetSuits = "distinct"
    card_points: CardPoints = "traditional"
    ace_points: int = 15
    low_ace_points: int = 1
    high_ace_only: bool = False
    joker_points: int | None = None
    point_divisor: int = 1
    target_score: int | None = 500
    max_deals: int | None = None
    discard_to_go_out: bool = False
    stock_exhausted: StockExhausted = "discard_pile"
    add_hand_to_winner: bool = False
    going_out_bonus: int = 0
    final_bonus: int = 0
    rummy_calls: bool = False
    partnership: bool = False
    four_of_a_kind_doubles: bool = False
    four_card_runs_double: bool = False
    preset: str = field(default="classic", compare=False)

    def __post_init__(self) -> None:
        for option in OPTIONS:
            option.check(getattr(self, option.name))
        if self.jokers == "none" and self.jokers_per_deck not in (None, 0):
            raise RulesError("jokers_per_deck needs jokers = 'wild' or 'persian'")
        if self.target_score is None and self.max_deals is None:
            raise RulesError("a game needs a target_score, a max_deals, or both")
        if self.four_card_runs_double and not self.four_of_a_kind_doubles:
            raise RulesError("four_card_runs_double needs four_of_a_kind_doubles: it doubles "
                             "runs of four as well as sets of four")
        if self.point_divisor != 1:
            self._check_divisor()

    @property
    def deal_limit(self) -> int:
        """The deals after which the game ends at the latest: ``max_deals``, or
        :data:`DEAL_LIMIT` when the rules set none."""
        return DEAL_LIMIT if self.max_deals is None else self.max_deals

    def _check_divisor(self) -> None:
        values = {
            "aces": self.ace_points,
            "low aces": self.low_ace_points,
            "the going-out bonus": self.going_out_bonus,
            "the final bonus": self.final_bonus,
        }
        if self.card_points == "traditional":
            values["2 to 9 at face value"] = 2
        if self.jokers != "none":
            values["jokers"] = self.joker_value
        bad = [f"{what} ({value})" for what, value in values.items() if value % self.point_divisor]
        if bad:
            raise RulesError(
                f"point_divisor {self.point_divisor} needs every value to divide by it, and "
                f"{', '.join(bad)} do not; use card_points = 'simplified' and values that are "
                "multiples of 5"
            )

    # Derived settings -------------------------------------------------

    @property
    def jokers_in_each_deck(self) -> int:
        if self.jokers == "none":
            return 0
        if self.jokers_per_deck is not None:
            return self.jokers_per_deck
        return 2 if self.jokers == "wild" else 4

    @property
    def joker_value(self) -> int:
        if self.joker_points is not None:
            return self.joker_points
        return 15 if self.jokers == "wild" else 20

    @property
    def default_players(self) -> int:
        """The players a table of these rules has when none are named: four for a
        partnership game (two sides), else two."""
        return 4 if self.partnership else 2

    def deck_count(self, players: int) -> int:
        if self.decks == "auto":
            return 1 if players <= 4 else 2
        return self.decks

    def pack_size(self, players: int) -> int:
        return self.deck_count(players) * (52 + self.jokers_in_each_deck)

    def cards_dealt(self, players: int) -> int:
        return self.hand_size_two if players == 2 else self.hand_size

    def sides(self, players: int) -> int:
        return 2 if self.partnership else players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnership else seat

    def check_players(self, players: int) -> None:
        """Refuse a player count these rules cannot be played with."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise RulesError(f"players must be a whole number, not {players!r}")
        if not MIN_PLAYERS <= players <= self.max_players:
            raise RulesError(
                f"{self.preset} is played by {MIN_PLAYERS} to {self.max_players} players, "
                f"not {players}"
            )
        if self.partnership and players != 4:
            raise RulesError(
                f"{self.preset} is a partnership game for exactly four players (two sides), "
                f"not {players}"
            )
        dealt = players * self.cards_dealt(players) + 1
        pack = self.pack_size(players)
        if dealt >= pack:
            raise RulesError(
                f"dealing {self.cards_dealt(players)} cards to {players} players and an "
                f"up-card needs {dealt} cards, and the pack of {pack} must leave a stock"
            )

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset (``make_rules`` rebuilds it)."""
        base = PRESETS[self.preset] if self.preset in PRESETS else Rules()
        changed = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)
        }
        if "point_divisor" in changed:
            # Explicit, so that make_rules does not scale the preset's target again.
            changed["target_score"] = self.target_score
        return changed

    def to_record(self) -> dict[str, Any]:
        return {"preset": self.preset, **self.overrides()}


class Option(NamedTuple):
    """One rule option, declared once: what it means, the rule books behind it, the values
    it takes. Its Python type (and, for a :data:`~typing.Literal`, its choices) comes from
    the :class:`Rules` field of the same name; every reader (Rules' checks, command-line
    parsing, ``rummy500 rules``, the terminal and web set-up) works from this table."""

    name: str
    meaning: str
    books: str
    """The rule books behind the option and its values (see RULES.md)."""
    low: int | None = None
    high: int | None = None
    """The bounds of a whole-number option."""
    choices: tuple[object, ...] = ()
    """The only values allowed (from the field's Literal type when not given here)."""
    none: str = ""
    """What leaving the option empty (None) means, after "or none"."""
    refusal: str = ""
    """The words for a value out of bounds (``{name}``, ``{low}``, ``{high}``), when not
    "NAME must be between LOW and HIGH"."""
    types: tuple[type, ...] = ()
    """The Python types a value may have (filled in from the Rules field)."""

    @property
    def values(self) -> str:
        """The values it takes, in words."""
        if bool in self.types:
            text = "true or false"
        elif self.choices:
            text = _either([str(choice) for choice in self.choices])
        else:
            text = f"{self.low:,} to {self.high:,}"
        if type(None) in self.types:
            text += ", or none" + (f" {self.none}" if self.none else "")
        return text

    def check(self, value: object) -> None:
        """Refuse a value of the wrong type, not among the choices, or out of bounds."""
        if not isinstance(value, self.types) or (
            isinstance(value, bool) and bool not in self.types
        ):
            raise RulesError(f"{self.name} cannot be {value!r} ({self.values})")
        if self.choices and value not in self.choices:
            raise RulesError(f"{self.name} must be "
                             f"{_either([repr(c) for c in self.choices])}, not {value!r}")
        if isinstance(value, int) and self.low is not None and self.high is not None and not (
            self.low <= value <= self.high
        ):
            words = self.refusal or "{name} must be between {low:,} and {high:,}"
            raise RulesError(words.format(name=self.name, low=self.low, high=self.high)
                             + f", not {value!r}")


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _points(name: str, meaning: str, books: str, none: str = "") -> Option:
    """A card value or bonus: 0 to MAX_POINTS."""
    return Option(name, meaning, books, low=0, high=MAX_POINTS, none=none,
                  refusal="{name} cannot be negative nor above {high:,} (from 0 to {high:,})")

_DECLARED: tuple[Option, ...] = (
    Option("decks", "packs shuffled together: auto is one for up to four players, two for five "
           "or more", "000, 001, 003, 004 (002: two above six)"),
    Option("jokers", "no jokers; wild jokers that stand for a declared card; or Persian jokers, "
           "melded only with each other",
           "none: 001, 003, 004; wild: 000, 002; persian: 001, 004"),
    Option("jokers_per_deck", "jokers added to each pack (empty: 2 wild or 4 Persian)",
           "000, 002 (2 wild); 001, 004 (4 Persian)", low=0, high=4, none="for the default"),
    Option("hand_size_two", "cards dealt to each player in a two-player game",
           "13: 001, 003; 10: 000, 002; 7: 004", low=1, high=MAX_HAND,
           refusal="hands must have at least one card and at most {high}"),
    Option("hand_size", "cards dealt to each player with three or more players", "all",
           low=1, high=MAX_HAND, refusal="hands must have at least one card and at most {high}"),
    Option("max_players", "the most players this rule set allows", "8: 000, 002, 004; 6: 001",
           low=MIN_PLAYERS, high=MAX_PLAYERS),
    Option("top_discard_must_be_used",
           "the top card of the pile, taken alone, must also be used at once",
           "false: 000, 004; true: 001, 002, 003"),
    Option("discard_taken_card",
           "the card named in a take from the pile may be discarded in the same turn (when "
           "not: only if no other card could be discarded instead)",
           "house rule; true: the books do not forbid it"),
    Option("min_run", "the fewest cards in a run", "3: 000, 001, 002, 003; 004 once says four",
           low=3, high=13),
    Option("set_suits",
           "distinct: a set never holds two cards of one suit, even with two packs; any: "
           "suits are irrelevant, so with two packs a set may hold both copies of a card "
           "(Ks Ks Kh), and a wild joker may stand for a card the set holds; "
           "a set holds at most four cards either way",
           "distinct: 000 (\"one of each card of that value from each of the four suits\"); "
           "any: 001 (\"suits are irrelevant\")"),
    Option("card_points", "2 to 9 score face value (traditional) or 5 each (simplified)",
           "traditional: 000, 002, 004; simplified: 001, 003, 004's modified scoring"),
    _points("ace_points", "an ace in a set, high in a run, or left in hand", "15: all; 25: 004"),
    _points("low_ace_points", "an ace low in a run (A-2-3)",
            "1: 000, 002, 004; 5: 001; 15: 003, 004"),
    Option("high_ace_only",
           "an ace scores low_ace_points everywhere (in a set, low in a run, left in hand) "
           "except high in a run (Q-K-A), where it scores ace_points",
           "004: \"A-9 are 5 points, unless the ace is used high, when it is 15\""),
    _points("joker_points", "a joker on the table or in hand (empty: 15 wild, 20 Persian)",
            "15: 000; 20: 001, 004", none="for the default"),
    Option("point_divisor", "every value divided by this (by five: a shorter game, played to 100)",
           "004", choices=(1, 5)),
    Option("target_score", "the total that wins the game (empty: no target)", "500: all",
           low=1, high=MAX_TARGET, refusal="{name} must be positive and at most {high:,}"),
    Option("max_deals", "the game ends after this many deals, the highest total winning "
           f"(empty: played to the target, and stopped after {DEAL_LIMIT} deals at the latest, "
           "or after three deals in a row with no card put on the table)",
           f"2: 001, 004 Persian; the stop at {DEAL_LIMIT}: rummy500", low=1, high=DEAL_LIMIT,
           refusal="{name} must be at least 1 and at most {high:,}"),
    Option("discard_to_go_out", "Boathouse rule: you must discard on the turn you go out",
           "false: 001; true: 004 (Boathouse)"),
    Option("stock_exhausted",
           "when the stock is empty: the deal ends; players may go on taking from the pile "
           "(and must use what they take); or the pile is reshuffled once into a new stock",
           "end: 000, 002; discard_pile, reshuffle: 004"),
    Option("add_hand_to_winner",
           "Add Opponent's Hand: hands are not subtracted; whoever went out adds the others' "
           "hands", "004"),
    _points("going_out_bonus", "points to the player or side that goes out",
            "0: 001; 25: 001, 004 Persian"),
    _points("final_bonus", "points to the side with the better total at the end of the game",
            "50: 001, 004 Persian"),
    Option("rummy_calls",
           "after a discard, other players may claim pile cards that meld or lay off",
           "000 (rummy), 004 (rum)"),
    Option("partnership",
           "four players in two sides, partners opposite (seats 1 and 3 against 2 and 4)",
           "001, 004"),
    Option("four_of_a_kind_doubles", "a set of four laid down in one meld scores double",
           "001, 004 Persian"),
    Option("four_card_runs_double",
           "with four_of_a_kind_doubles: a run of exactly four laid down in one meld scores "
           "double too", "004: \"any meld of four\"; 001: sets only (false)"),
)


def _with_types(option: Option, hint: Any) -> Option:
    """``option`` with the types (and Literal choices) of its Rules field's type ``hint``."""
    if get_origin(hint) is Literal:
        choices = get_args(hint)
        kinds = tuple(dict.fromkeys(type(choice) for choice in choices))
        return option._replace(types=kinds, choices=option.choices or choices)
    if get_origin(hint) in (Union, UnionType):
        return option._replace(types=get_args(hint))
    return option._replace(types=(hint,))


def _declare(options: tuple[Option, ...]) -> tuple[Option, ...]:
    hints = get_type_hints(Rules)
    fields = [f.name for f in dataclasses.fields(Rules) if f.name != "preset"]
    names = [option.name for option in options]
    if names != fields:  # pragma: no cover - a field added without its option, or the reverse
        raise RuntimeError(f"the options table does not match Rules: {names} != {fields}")
    return tuple(_with_types(option, hints[option.name]) for option in options)


OPTIONS: tuple[Option, ...] = _declare(_DECLARED)
"""Every rule option, in the order of :class:`Rules`' fields."""

OPTION_TABLE: dict[str, Option] = {option.name: option for option in OPTIONS}
OPTION_NAMES = tuple(OPTION_TABLE)
OPTION_TYPES: dict[str, tuple[type, ...]] = {o.name: o.types for o in OPTIONS}
"""Each option's types (read from :data:`OPTIONS`)."""
OPTION_DOCS: dict[str, tuple[str, str, str]] = {
    o.name: (o.meaning, o.books, o.values) for o in OPTIONS
}
"""Each option's (meaning, rule books, values in words), read from :data:`OPTIONS`."""

PRESET_DOCS: dict[str, str] = {
    "classic": "the default: no jokers, 13 cards for two and 7 for more, traditional points, "
    "the top discard need not be used, play on from the pile when the stock is empty, to 500",
    "wild": "two wild jokers a pack (15 points), 10 cards for two, the deal ends "
    "when the stock is empty, rummy calls",
    "simplified": "2-9 score 5, low ace 5, the top card taken must be used too, "
    "2-6 players",
    "boathouse": "classic with the Boathouse rule: you must discard to go out",
    "partnership": "classic for four players in two sides",
    "persian": "partnership with four Persian jokers (20), sets of four laid at "
    "once count double, 25 for going out, two deals and 50 to the better side",
}

PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "wild": Rules(preset="wild", jokers="wild", hand_size_two=10, stock_exhausted="end",
                  rummy_calls=True),
    "simplified": Rules(preset="simplified", card_points="simplified", low_ace_points=5,
                        top_discard_must_be_used=True, max_players=6),
    "boathouse": Rules(preset="boathouse", discard_to_go_out=True),
    "partnership": Rules(preset="partnership", partnership=True),
    "persian": Rules(preset="persian", jokers="persian", partnership=True,
                     four_of_a_kind_doubles=True, going_out_bonus=25, final_bonus=50,
                     max_deals=2, target_score=None),
}

def find_preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown preset {name!r}; the presets are: {', '.join(PRESETS)}"
        ) from None


def make_rules(preset: str = "classic", /, **overrides: Any) -> Rules:
    """A preset with options set over it; unknown options are refused."""
    base = find_preset(preset)
    for name in overrides:
        if name not in OPTION_TYPES:
            raise RulesError(f"unknown option {name!r}; the options are: {', '.join(OPTION_NAMES)}")
    divisor = overrides.get("point_divisor", 1)
    if (
        type(divisor) is int
        and divisor > 1
        and "target_score" not in overrides
        and base.target_score is not None
    ):
        overrides["target_score"] = base.target_score // divisor
    try:
        return dataclasses.replace(base, **overrides)
    except TypeError as error:
        raise RulesError(str(error)) from None


def rules_from_record(data: Mapping[str, Any]) -> Rules:
    """The ``rules`` object of a game record: a preset name and options over it."""
    if not isinstance(data, Mapping):
        raise RulesError("rules must be an object with a preset name and options")
    options = dict(data)
    preset = options.pop("preset", "classic")
    if not isinstance(preset, str):
        raise RulesError("the preset must be a name")
    return make_rules(preset, **options)


def parse_option_value(name: str, text: str) -> Any:
    """A command-line ``name=value`` value in the option's type."""
    if name not in OPTION_TYPES:
        raise RulesError(f"unknown option {name!r}; the options are: {', '.join(OPTION_NAMES)}")
    lowered = text.strip().lower()
    if lowered in ("none", "null", "") and type(None) in OPTION_TABLE[name].types:
        return None
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        value = safejson.loads(lowered, what=f"the value of {name}")
    except NotJSONError:
        return text.strip()
    except BadInputError as error:
        raise RulesError(str(error)) from None
    return value


_SETTING_SEPARATORS = re.compile(r"[\s,;]+")


def parse_options(texts: Iterable[str], *, assign: str = "=") -> dict[str, Any]:
    """``NAME=VALUE`` settings as rule options in their types (the one reader of them, for
    the command line, the terminal set-up and OpenSpiel's ``name:value;…`` with ``assign``).

    Each text holds one setting or several, apart by spaces, commas or semicolons.

    >>> parse_options(["min_run=4", "rummy_calls=yes, target_score=none"])
    {'min_run': 4, 'rummy_calls': True, 'target_score': None}
    """
    options: dict[str, Any] = {}
    for text in texts:
        for item in _SETTING_SEPARATORS.split(text):
            if not item:
                continue
            name, sep, value = item.partition(assign)
            if not sep or not name:
                raise RulesError(f"{item!r} is not an option setting: write NAME{assign}VALUE, "
                                 f"like min_run{assign}4")
            options[name] = parse_option_value(name, value)
    return options
