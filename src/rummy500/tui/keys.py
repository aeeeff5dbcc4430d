"""The move keys, written once for the local table (:mod:`.table`) and a server's table
(:mod:`.remote`): each screen tells what differs through a few small methods."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Input

from ..cards import JOKER
from ..kinds import MoveKind, Phase
from ..legal import DRAW_FIRST
from ..melds import DECLARED, piece_face
from ..moves import (
    Move,
    canonical_meld,
    take_at,
)
from .screens import ChoiceScreen
from .widgets import Item, MeldList, Strip, card_label, face_label

ACTION_KINDS: dict[str, tuple[str, ...]] = {
    "draw": (MoveKind.DRAW,),
    "take": (MoveKind.TAKE,),
    "end": (MoveKind.END,),
    "meld": (MoveKind.MELD,),
    "layoff": (MoveKind.LAYOFF,),
    "discard": (MoveKind.DISCARD,),
    "rummy": (MoveKind.RUMMY_MELD, MoveKind.RUMMY_LAYOFF),
    "pass": (MoveKind.PASS,),
}
"""Move keys: each shows in the footer while a move of its kinds is legal."""

MOVE_KEYS = (("d", "draw", "Draw"), ("t", "take", "Take"), ("e", "end", "End deal"),
             ("m", "meld", "Meld"), ("l", "layoff", "Lay off"), ("x", "discard", "Discard"),
             ("r", "rummy", "Rummy"), ("p", "pass", "Pass"), ("h", "hint", "Hint"))
TRIED_ANYWAY = ("draw", "take", "meld", "layoff", "discard")

MOVE_BINDINGS: list[BindingType] = [
    binding
    for key, action, label in MOVE_KEYS
    for binding in (Binding(key, action, label),
                    *([Binding(key, f"attempt('{action}')", show=False)]
                      if action in TRIED_ANYWAY else []))
]
"""The move keys (and the hint's), first in the key bindings of every table screen; a key
of :data:`TRIED_ANYWAY` pressed when its move is not legal tries it anyway, to show the
reason."""

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.screen import Screen

    _Screen = Screen[None]
else:
    _Screen = object


def piece_shows(piece: int) -> int:
    """The face of the card a piece is played with (a declared joker is a joker)."""
    return JOKER if piece >= DECLARED or piece == JOKER else piece


def piece_words(piece: int) -> str:
    if piece >= DECLARED:
        return f"joker as {face_label(piece - DECLARED)}"
    return face_label(piece)


def layoff_fits(legal: list[Move], picked: list[int]) -> set[int]:
    """The numbers of the melds the one picked card (a face) can be laid off on (none
    unless one)."""
    if len(picked) != 1:
        return set()
    shows = picked[0]
    return {m.meld for m in legal
            if m.kind == MoveKind.LAYOFF and piece_shows(m.pieces[0]) == shows}


def usable_faces(legal: list[Move]) -> set[int]:
    """The faces of the hand that some legal meld or lay-off uses."""
    usable: set[int] = set()
    for move in legal:
        if move.kind in (MoveKind.MELD, MoveKind.LAYOFF):
            usable.update(piece_shows(p) for p in move.pieces)
    return usable


def move_prompt(phase: str, stock: int, must_use: int) -> str:
    """What the person to move may do in ``phase`` (``must_use``: the face to use, or -1)."""
    if phase == "draw":
        if not stock:
            return "The stock is empty: take from the pile (t, or click a card) or end (e)."
        return "Draw from the stock (d) or take from the pile (t, or click a card)."
    if phase == "rummy":
        return "You can call rummy on the pile (r) or pass (p)."
    if must_use >= 0:
        return (f"Use {face_label(must_use)} in a meld or lay-off: pick cards, "
                "then m or l.")
    return "Pick cards with space or a click: m melds, l lays off, x discards."


def describe_claim(move: Move) -> str:
    cards = " ".join(piece_words(p) for p in move.pieces)
    if move.kind == MoveKind.RUMMY_LAYOFF:
        return f"lay off {cards} from the pile on m{move.meld}"
    return f"meld {cards} from the pile"


class TableWidgets(_Screen):
    """The pile, the hand and the melds of a table screen."""

    legal: list[Move]
    """The moves the person at the screen may make now (none when it is not their move)."""
    _pile_length: int

    @property
    def pile(self) -> Strip:
        return self.query_one("#pile", Strip)

    @property
    def hand(self) -> Strip:
        return self.query_one("#hand", Strip)

    @property
    def melds(self) -> MeldList:
        return self.query_one("#melds", MeldList)

    def show_pile(self, faces: list[int], dark: bool) -> None:
        """The discard pile's ``faces`` (bottom first), those a legal move takes or claims
        marked; the cursor goes to the top card whenever the pile's length changes."""
        legal = set(self.legal)
        claims = {piece_shows(p) for m in self.legal
                  if m.kind in (MoveKind.RUMMY_MELD, MoveKind.RUMMY_LAYOFF) for p in m.pieces}
        pile = self.pile
        pile.show([Item(face, card_label(face, dark),
                        face in claims or take_at(faces, i) in legal, key=i)
                   for i, face in enumerate(faces)])
        if len(faces) != self._pile_length:
            self._pile_length = len(faces)
            pile.cursor = max(len(faces) - 1, 0)
        pile.border_title = ("Pile · empty" if not faces else "Pile · 1 card" if len(faces) == 1
                             else f"Pile · {len(faces)} cards, oldest first")


class MoveKeys(TableWidgets):
    """The keys that pick cards and play them, alike at every table screen."""

    selected: set[Hashable]
    """The picked cards of the hand (their items' keys)."""
    note: Text | None
    """A message (a refusal, a hint) shown instead of the prompt until the next move."""
    by_rank: bool

    if TYPE_CHECKING:
        def picked(self) -> list[int]: ...
        def refuse(self, reason: str) -> None: ...
        def act(self, move: Move) -> object: ...
        def acting(self) -> bool: ...
        def update_table(self) -> None: ...
        def ask(self, screen: Screen[Any], answered: Callable[[Any], None]) -> None: ...

    # -- what differs from screen to screen ------------------------------------------------------

    def phase(self) -> str:
        """The deal's phase as this screen knows it (a :class:`~rummy500.kinds.Phase` value)."""
        raise NotImplementedError

    def wild_jokers(self) -> bool:
        raise NotImplementedError

    def pile_faces(self) -> list[int]:
        """The discard pile's faces, bottom first."""
        raise NotImplementedError

    def cursor_meld(self) -> int:
        """The number of the meld at the table's cursor (1 with no meld on the table)."""
        raise NotImplementedError

    def meld_without_choice(self, faces: list[int]) -> None:
        """Cards with a wild joker that no legal meld fits: try them as they are."""
        self.act(Move(MoveKind.MELD, tuple(faces)))

    def layoff_where(self, move: Move) -> str:
        """Where a lay-off goes, as a choice among several."""
        return f"on m{move.meld}"

    def no_claim(self) -> None:
        """Rummy called with no claim among the legal moves."""
        raise NotImplementedError

    def claim_title(self) -> str:
        """The question over the choice of rummy claims."""
        raise NotImplementedError

    # -- alike at every table screen --------------------------------------------------------------

    def choose(self, title: str, moves: list[Move], describe: Callable[[Move], str]) -> None:
        """Ask which of ``moves`` to make (a joker's declaration, a meld, a claim)."""
        def chosen(index: int | None) -> None:
            if index is not None:
                self.act(moves[index])
        self.ask(ChoiceScreen(title, [describe(m) for m in moves]), chosen)

    def show_hint(self, move: Move, reason: str) -> None:
        """Say the hint ``move`` (for ``reason``) and pick its cards in the hand (for each
        card of the move, the first of that face not picked yet)."""
        if move.kind in (MoveKind.MELD, MoveKind.LAYOFF, MoveKind.DISCARD):
            chosen: set[Hashable] = set()
            for piece in move.pieces:
                shows = piece_shows(piece)
                for item in self.hand.items:
                    if item.face == shows and item.key not in chosen:
                        chosen.add(item.key)
                        break
            self.selected = chosen
        self.note = Text.assemble(("Hint: ", "bold"), (str(move), "bold"),
                                  f" ({move.describe()}) — {reason}")
        self.update_table()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ACTION_KINDS:
            kinds = ACTION_KINDS[action]
            return any(m.kind in kinds for m in self.legal)
        if action in ("attempt", "hint"):
            return self.acting()
        return True

    # -- the widgets' messages (by name: a mixin's ``@on`` handlers are not collected) ----------

    def on_strip_picked(self, event: Strip.Picked) -> None:
        """A card of the hand picked or put back; a card of the pile taken."""
        if event.strip.id == "hand":
            self.selected ^= {event.item.key}
            self.note = None
            self.update_table()
        elif self.acting() and self.phase() == Phase.DRAW:
            self.action_take(event.index)

    def on_meld_list_picked(self, event: MeldList.Picked) -> None:
        """A meld picked with cards of the hand picked: lay them off there."""
        if self.acting() and self.phase() == Phase.PLAY and self.selected:
            self.action_layoff(event.number)

    def typed_move(self, event: Input.Submitted) -> str | None:
        """The move typed in the move box; an empty box gives the focus back to the hand."""
        text = event.value.strip()
        if not text:
            self.hand.focus()
            return None
        return text

    # -- the keys ---------------------------------------------------------------------------------

    def action_attempt(self, action: str) -> None:
        """A move key pressed when no such move is legal: try it, to show the reason."""
        getattr(self, f"action_{action}")()

    def action_draw(self) -> None:
        self.act(Move(MoveKind.DRAW))

    def action_end(self) -> None:
        self.act(Move(MoveKind.END))

    def action_pass(self) -> None:
        self.act(Move(MoveKind.PASS))

    def action_rummy(self) -> None:
        claims = [m for m in self.legal
                  if m.kind in (MoveKind.RUMMY_MELD, MoveKind.RUMMY_LAYOFF, MoveKind.PASS)]
        if not any(m.kind != MoveKind.PASS for m in claims):
            self.no_claim()
            return
        self.choose(self.claim_title(), claims,
                    lambda m: "pass (no claim)" if m.kind == MoveKind.PASS else describe_claim(m))

    def action_take(self, index: int | None = None) -> None:
        pile = self.pile_faces()
        if not pile:
            self.refuse("the discard pile is empty")
            return
        if index is None:
            index = min(self.pile.cursor, len(pile) - 1)
        self.act(take_at(pile, index))

    def one_card(self, what: str) -> int | None:
        """The face to lay off or discard: the one picked, else the one at the hand's
        cursor."""
        picked = self.picked()
        if len(picked) > 1:
            self.refuse(f"pick just one card to {what} (you picked {len(picked)})")
            return None
        if picked:
            return picked[0]
        hand = self.hand
        if hand.items and hand.has_focus:
            return hand.items[hand.cursor].face
        if not self.draw_first():
            self.refuse(f"pick the card to {what} first (space or a click)")
        return None

    def action_discard(self) -> None:
        face = self.one_card("discard")
        if face is not None:
            self.act(Move(MoveKind.DISCARD, (face,)))

    def draw_first(self) -> bool:
        """Before drawing, a key that plays cards says so (whatever is picked)."""
        if self.acting() and self.phase() == Phase.DRAW:
            self.refuse(DRAW_FIRST)
            return True
        return False

    def action_meld(self) -> None:
        picked = self.picked()
        if not picked:
            if not self.draw_first():
                self.refuse("pick the cards to meld first (space or a click)")
            return
        faces = picked
        if JOKER not in faces or not self.wild_jokers():
            self.act(Move(MoveKind.MELD, canonical_meld(tuple(faces))))
            return
        wanted = sorted(faces)
        options = [m for m in self.legal
                   if m.kind == MoveKind.MELD
                   and sorted(piece_shows(p) for p in m.pieces) == wanted]
        if len(options) == 1:
            self.act(options[0])
        elif options:
            self.choose("Which cards do the jokers stand for?", options,
                        lambda m: "meld " + " ".join(piece_words(p) for p in m.pieces))
        else:
            self.meld_without_choice(faces)

    def action_layoff(self, number: int | None = None) -> None:
        shows = self.one_card("lay off")
        if shows is None:
            return
        options = [m for m in self.legal
                   if m.kind == MoveKind.LAYOFF and piece_shows(m.pieces[0]) == shows
                   and (number is None or m.meld == number)]
        if len(options) == 1:
            self.act(options[0])
        elif options:
            self.choose(f"Lay off {face_label(shows)} where?", options,
                        lambda m: self.layoff_where(m)
                        + (f" as {face_label(piece_face(m.pieces[0]))}"
                           if m.pieces[0] >= DECLARED else ""))
        else:
            where = number if number is not None else self.cursor_meld()
            self.act(Move(MoveKind.LAYOFF, (shows,), where))

    def action_sort(self) -> None:
        self.by_rank = not self.by_rank
        self.update_table()

    def action_type(self) -> None:
        self.query_one("#command", Input).focus()

    def action_clear(self) -> None:
        self.selected.clear()
        self.note = None
        self.hand.focus()
        self.update_table()
