"""The set-up screen: players, rules and options, who sits where, names, seed."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from ..bots import BOT_NAMES, strength
from ..narrate import value_text
from ..rules import MAX_PLAYERS, MIN_PLAYERS, PRESET_DOCS, PRESETS
from ..session.settings import PERSON, SettingsError, TableSettings, default_bot, parse_options
from .widgets import Words


class SetupScreen(Screen[TableSettings | None]):
    """Choose the game; Start gives the settings, Esc goes back."""

    DEFAULT_CSS = """
    SetupScreen { layout: vertical; }
    SetupScreen > VerticalScroll { height: 1fr; padding: 0 1; }
    SetupScreen .title { text-style: bold; margin-bottom: 1; }
    SetupScreen Horizontal { height: auto; margin-bottom: 0; }
    SetupScreen Label { width: 14; padding: 0 1 0 0; }
    SetupScreen Label.inline { width: auto; margin-left: 3; }
    SetupScreen .doc, SetupScreen .note { color: $text-muted; padding: 0 0 0 14; }
    SetupScreen Select { width: 22; }
    SetupScreen .seat Select { width: 28; }
    SetupScreen .seat-name { width: 24; margin-left: 2; }
    SetupScreen #options { width: 1fr; }
    SetupScreen #seed, SetupScreen #budget { width: 14; }
    SetupScreen #error { color: $text-error; text-style: bold; height: auto; }
    SetupScreen #buttons { margin-top: 1; }
    SetupScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back"),
        Binding("ctrl+s", "start", "Start"),
    ]

    def __init__(self, settings: TableSettings, *, can_cancel: bool = True) -> None:
        super().__init__()
        self.settings = settings
        self.can_cancel = can_cancel

    def compose(self) -> ComposeResult:
        settings = self.settings
        kinds = [(PERSON, PERSON)] + [(f"{name} ({strength(name)})", name) for name in BOT_NAMES]
        names = list(settings.names) + [""] * MAX_PLAYERS
        with VerticalScroll():
            yield Words("A new game of 500 Rum", classes="title")
            with Horizontal():
                yield Label("Players")
                yield Select([(str(n), n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
                             value=settings.players, allow_blank=False, compact=True,
                             id="players")
            with Horizontal():
                yield Label("Rules")
                yield Select([(name, name) for name in PRESETS], value=settings.preset,
                             allow_blank=False, compact=True, id="preset")
            yield Words(PRESET_DOCS.get(settings.preset, ""), classes="doc", id="preset-doc")
            with Horizontal():
                yield Label("Options")
                yield Input(" ".join(f"{name}={value_text(value)}"
                                     for name, value in settings.options.items()),
                            placeholder="NAME=VALUE …, like target_score=300 "
                            "(rummy500 rules lists them)",
                            compact=True, id="options")
            yield Words("", classes="note", id="partners")
            for seat in range(MAX_PLAYERS):
                kind = settings.seats[seat] if seat < settings.players else default_bot()
                with Horizontal(id=f"seat-{seat}", classes="seat"):
                    yield Label(f"Seat {seat + 1}")
                    chosen = kind if kind in (PERSON, *BOT_NAMES) else default_bot()
                    yield Select(kinds, value=chosen, allow_blank=False, compact=True,
                                 id=f"kind-{seat}")
                    yield Input(names[seat], placeholder="name (optional)", compact=True,
                                classes="seat-name", id=f"name-{seat}")
            with Horizontal():
                yield Label("Seed")
                yield Input("" if settings.seed is None else str(settings.seed),
                            placeholder="random", compact=True, id="seed")
                yield Label("Thinking time (s)", classes="inline")
                yield Input(str(settings.budget), compact=True, id="budget")
            yield Words("", id="error")
            with Horizontal(id="buttons"):
                yield Button("Start", variant="primary", compact=True, id="start")
                yield Button("Back" if self.can_cancel else "Quit", compact=True, id="cancel")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.show_seats()
        self.query_one("#start", Button).focus()

    def players(self) -> int:
        value = self.query_one("#players", Select).value
        return value if isinstance(value, int) else 2

    def preset(self) -> str:
        value = self.query_one("#preset", Select).value
        return value if isinstance(value, str) else "classic"

    def show_seats(self) -> None:
        players = self.players()
        for seat in range(MAX_PLAYERS):
            self.query_one(f"#seat-{seat}").display = seat < players
        partnership = PRESETS[self.preset()].partnership or "partnership=true" in \
            self.query_one("#options", Input).value.replace(" ", "").lower()
        self.query_one("#partners", Static).update(
            "Partners sit opposite: seats 1 and 3 against seats 2 and 4." if partnership
            else "Seats play in order, each to the left of the one before.")

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset":
            preset = self.preset()
            self.query_one("#preset-doc", Static).update(PRESET_DOCS.get(preset, ""))
            if PRESETS[preset].partnership:
                self.query_one("#players", Select).value = 4
        self.show_seats()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "options":
            self.show_seats()

    def read(self) -> TableSettings:
        """The settings on the form; :class:`SettingsError` saying what is wrong."""
        players = self.players()
        seats = []
        names = []
        for seat in range(players):
            kind = self.query_one(f"#kind-{seat}", Select).value
            seats.append(kind if isinstance(kind, str) else default_bot())
            names.append(self.query_one(f"#name-{seat}", Input).value.strip())
        seed_text = self.query_one("#seed", Input).value.strip()
        budget_text = self.query_one("#budget", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            raise SettingsError(f"the seed must be a whole number, not {seed_text!r}") from None
        try:
            budget = float(budget_text) if budget_text else 1.0
        except ValueError:
            raise SettingsError(f"the thinking time must be a number of seconds, not "
                                f"{budget_text!r}") from None
        options = parse_options([self.query_one("#options", Input).value])
        while names and not names[-1]:
            names.pop()
        settings = replace(self.settings, preset=self.preset(), options=options,
                           seats=tuple(seats), names=tuple(names), seed=seed, budget=budget)
        settings.check()
        return settings

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_cancel()

    def action_start(self) -> None:
        try:
            settings = self.read()
        except SettingsError as error:
            self.query_one("#error", Static).update(f"✗ {error}")
            return
        self.dismiss(settings)

    def action_cancel(self) -> None:
        self.dismiss(None)
