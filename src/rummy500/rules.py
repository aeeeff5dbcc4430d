"""The rule options of 500 Rum, the named presets, and overrides on them.

Every field of :class:`Rules` is an option of ``RULES.md`` under the same name.
A preset is a :class:`Rules` value; any option can be set over it with
:func:`make_rules` (from a record, the command line or code).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from . import safejson
from .errors import BadInputError, NotJSONError
from .errors import RulesError as RulesError

DecksSetting = Literal["auto", 1, 2]
JokerKind = Literal["none", "wild", "persian"]
CardPoints = Literal["traditional", "simplified"]
StockExhausted = Literal["end", "discard_pile", "reshuffle"]

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_POINTS = 1000
"""The most a card value or bonus option may be (a point option beyond it is refused)."""
MAX_TARGET = 100_000
"""The highest ``target_score`` and ``max_deals``."""
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
    min_run: int = 3
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
        _check_types(self)
        if self.decks not in ("auto", 1, 2):
            raise RulesError(f"decks must be 'auto', 1 or 2, not {self.decks!r}")
        if self.jokers not in ("none", "wild", "persian"):
            raise RulesError(f"jokers must be 'none', 'wild' or 'persian', not {self.jokers!r}")
        if self.jokers == "none" and self.jokers_per_deck not in (None, 0):
            raise RulesError("jokers_per_deck needs jokers = 'wild' or 'persian'")
        if self.jokers_per_deck is not None and not 0 <= self.jokers_per_deck <= 4:
            raise RulesError("jokers_per_deck must be between 0 and 4")
        if self.card_points not in ("traditional", "simplified"):
            raise RulesError("card_points must be 'traditional' or 'simplified'")
        if self.stock_exhausted not in ("end", "discard_pile", "reshuffle"):
            raise RulesError("stock_exhausted must be 'end', 'discard_pile' or 'reshuffle'")
        if not 3 <= self.min_run <= 13:
            raise RulesError("min_run must be between 3 and 13")
        if not (1 <= self.hand_size <= MAX_HAND and 1 <= self.hand_size_two <= MAX_HAND):
            raise RulesError(f"hands must have at least one card and at most {MAX_HAND}")
        if not MIN_PLAYERS <= self.max_players <= MAX_PLAYERS:
            raise RulesError(f"max_players must be between {MIN_PLAYERS} and {MAX_PLAYERS}")
        if self.target_score is None and self.max_deals is None:
            raise RulesError("a game needs a target_score, a max_deals, or both")
        if self.target_score is not None and not 1 <= self.target_score <= MAX_TARGET:
            raise RulesError(f"target_score must be positive and at most {MAX_TARGET:,}")
        if self.max_deals is not None and not 1 <= self.max_deals <= MAX_TARGET:
            raise RulesError(f"max_deals must be at least 1 and at most {MAX_TARGET:,}")
        for name in ("ace_points", "low_ace_points", "joker_points", "going_out_bonus",
                     "final_bonus"):
            value = getattr(self, name)
            if value is not None and not 0 <= value <= MAX_POINTS:
                raise RulesError(f"{name} cannot be negative nor above {MAX_POINTS:,} "
                                 f"(from 0 to {MAX_POINTS:,})")
        if self.point_divisor not in (1, 5):
            raise RulesError("point_divisor must be 1 or 5")
        if self.four_card_runs_double and not self.four_of_a_kind_doubles:
            raise RulesError("four_card_runs_double needs four_of_a_kind_doubles: it doubles "
                             "runs of four as well as sets of four")
        if self.point_divisor != 1:
            self._check_divisor()

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


def _check_types(rules: Rules) -> None:
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        kind = OPTION_TYPES.get(f.name)
        if kind is None:
            continue
        ok = isinstance(value, kind) and not (
            isinstance(value, bool) and bool not in _as_tuple(kind)
        )
        if not ok:
            raise RulesError(f"{f.name} cannot be {value!r} ({OPTION_DOCS[f.name][2]})")


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


OPTION_TYPES: dict[str, type | tuple[type, ...]] = {
    "decks": (str, int),
    "jokers": str,
    "jokers_per_deck": (int, type(None)),
    "hand_size_two": int,
    "hand_size": int,
    "max_players": int,
    "top_discard_must_be_used": bool,
    "min_run": int,
    "card_points": str,
    "ace_points": int,
    "low_ace_points": int,
    "high_ace_only": bool,
    "joker_points": (int, type(None)),
    "point_divisor": int,
    "target_score": (int, type(None)),
    "max_deals": (int, type(None)),
    "discard_to_go_out": bool,
    "stock_exhausted": str,
    "add_hand_to_winner": bool,
    "going_out_bonus": int,
    "final_bonus": int,
    "rummy_calls": bool,
    "partnership": bool,
    "four_of_a_kind_doubles": bool,
    "four_card_runs_double": bool,
}

# name -> (meaning, rule books, accepted values)
OPTION_DOCS: dict[str, tuple[str, str, str]] = {
    "decks": (
        "packs shuffled together: auto is one for up to four players, two for five or more",
        "000, 001, 003, 004 (002: two above six)",
        "auto, 1 or 2",
    ),
    "jokers": (
        "no jokers; wild jokers that stand for a declared card; or Persian jokers, "
        "melded only with each other",
        "none: 001, 003, 004; wild: 000, 002; persian: 001, 004",
        "none, wild or persian",
    ),
    "jokers_per_deck": (
        "jokers added to each pack (empty: 2 wild or 4 Persian)",
        "000, 002 (2 wild); 001, 004 (4 Persian)",
        "0 to 4, or none for the default",
    ),
    "hand_size_two": ("cards dealt to each player in a two-player game", "13: 001, 003; "
                      "10: 000, 002; 7: 004", "a whole number"),
    "hand_size": ("cards dealt to each player with three or more players", "all", "a whole number"),
    "max_players": ("the most players this rule set allows", "8: 000, 002, 004; 6: 001",
                    "2 to 8"),
    "top_discard_must_be_used": (
        "the top card of the pile, taken alone, must also be used at once",
        "false: 000, 004; true: 001, 002, 003",
        "true or false",
    ),
    "min_run": ("the fewest cards in a run", "3: 000, 001, 002, 003; 004 once says four",
                "3 or more"),
    "card_points": (
        "2 to 9 score face value (traditional) or 5 each (simplified)",
        "traditional: 000, 002, 004; simplified: 001, 003, 004's modified scoring",
        "traditional or simplified",
    ),
    "ace_points": ("an ace in a set, high in a run, or left in hand", "15: all; 25: 004",
                   "a whole number"),
    "low_ace_points": ("an ace low in a run (A-2-3)", "1: 000, 002, 004; 5: 001; 15: 003, 004",
                       "a whole number"),
    "high_ace_only": (
        "an ace scores low_ace_points everywhere (in a set, low in a run, left in hand) "
        "except high in a run (Q-K-A), where it scores ace_points",
        "004: \"A-9 are 5 points, unless the ace is used high, when it is 15\"",
        "true or false",
    ),
    "joker_points": ("a joker on the table or in hand (empty: 15 wild, 20 Persian)",
                     "15: 000; 20: 001, 004", "a whole number, or none for the default"),
    "point_divisor": ("every value divided by this (004: divide by five, play to 100)", "004",
                      "1 or 5"),
    "target_score": ("the total that wins the game (empty: no target)", "500: all",
                     "a whole number, or none"),
    "max_deals": ("the game ends after this many deals (empty: no limit)", "2: 001, 004 Persian",
                  "a whole number, or none"),
    "discard_to_go_out": (
        "Boathouse rule: you must discard on the turn you go out",
        "false: 001; true: 004 (Boathouse)",
        "true or false",
    ),
    "stock_exhausted": (
        "when the stock is empty: the deal ends; players may go on taking from the pile "
        "(and must use what they take); or the pile is reshuffled once into a new stock",
        "end: 000, 002; discard_pile, reshuffle: 004",
        "end, discard_pile or reshuffle",
    ),
    "add_hand_to_winner": (
        "Add Opponent's Hand: hands are not subtracted; whoever went out adds the others' hands",
        "004",
        "true or false",
    ),
    "going_out_bonus": ("points to the player or side that goes out", "0: 001; 25: 001, 004 "
                        "Persian", "a whole number"),
    "final_bonus": ("points to the side with the better total at the end of the game",
                    "50: 001, 004 Persian", "a whole number"),
    "rummy_calls": (
        "after a discard, other players may claim pile cards that meld or lay off",
        "000 (rummy), 004 (rum)",
        "true or false",
    ),
    "partnership": ("four players in two sides, partners opposite (0 and 2 against 1 and 3)",
                    "001, 004", "true or false"),
    "four_of_a_kind_doubles": ("a set of four laid down in one meld scores double",
                               "001, 004 Persian", "true or false"),
    "four_card_runs_double": (
        "with four_of_a_kind_doubles: a run of exactly four laid down in one meld scores "
        "double too",
        "004: \"any meld of four\"; 001: sets only (false)",
        "true or false",
    ),
}

PRESET_DOCS: dict[str, str] = {
    "classic": "the default: no jokers, 13 cards for two and 7 for more, traditional points, "
    "the top discard need not be used, play on from the pile when the stock is empty, to 500",
    "wild": "as in 000: two wild jokers a pack (15 points), 10 cards for two, the deal ends "
    "when the stock is empty, rummy calls",
    "simplified": "as in 001: 2-9 score 5, low ace 5, the top card taken must be used too, "
    "2-6 players",
    "boathouse": "classic with the Boathouse rule: you must discard to go out",
    "partnership": "classic for four players in two sides",
    "persian": "as in 004: partnership with four Persian jokers (20), sets of four laid at "
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

OPTION_NAMES = tuple(name for name in OPTION_TYPES)


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
    if lowered in ("none", "null", "") and type(None) in _as_tuple(OPTION_TYPES[name]):
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
